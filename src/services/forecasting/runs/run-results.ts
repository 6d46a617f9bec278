import type { TxContext } from '../../../db/transactions.js';
import type { RequestContext } from '../../../context.js';
import { FORECAST_RUN_SERIES_PAGING, type ForecastRunSeriesQuery } from '../../../contracts/forecasting/runs/forecast-run.js';
import { type ListWindow, pageWindow } from '../../tenant.js';
import { roundForecast } from '../demand/answer-points.js';
import type { DemandForecastPoint, SeriesDemandForecast } from '../demand/demand-forecast.js';
import type { SeriesAdjustment } from '../scenarios/scenario-adjustments.js';
import type { DemandClass, MethodName, SeriesForecast } from '../engine/types.js';
import { getForecastRun } from './forecast-runs.js';
import { checkForecastIds } from '../demand/fit-weekly-series.js';

/** A series forecast with its place in the run. */
export interface IndexedForecast {
  seriesIndex: number;
  forecast: SeriesDemandForecast;
}

const seriesTotal = (f: SeriesDemandForecast) => roundForecast(f.points.reduce((sum, p) => sum + p.forecast, 0));

/** A PostgreSQL array literal of numbers or booleans (null elements as NULL), sent as text and cast in SQL. */
const arrayLiteral = (values: (number | boolean | null)[]) => `{${values.map((v) => (v === null ? 'NULL' : String(v))).join(',')}}`;
/** The same for text: each element quoted, `"` and `\` escaped. */
const textArrayLiteral = (values: (string | null)[]) => `{${values.map((v) => (v === null ? 'NULL' : `"${v.replace(/[\\"]/g, (c) => `\\${c}`)}"`)).join(',')}}`;

/**
 * Stores a batch's series with their points: ONE multi-row INSERT whatever the batch's size, each column
 * sent as one array parameter and unnested into a row per series; a series' points are arrays of its row
 * (each sent as an array literal). Returns the batch's total.
 */
export async function writeBatchResults({ prisma: tx }: TxContext, runId: string, results: IndexedForecast[]): Promise<number> {
  if (!results.length) return 0;
  const series = results.map((r) => r.forecast);
  const totals = series.map(seriesTotal);
  const points = <T extends number | boolean | null>(of: (p: DemandForecastPoint) => T) => series.map((f) => arrayLiteral(f.points.map(of)));
  await tx.$executeRaw`
    INSERT INTO forecast_run_series ("runId", "seriesIndex", "productMasterId", "locationId", channel, method, "backtestError", "errorScale",
      "demandClass", "intervalSource", "historyWeeks", "lastHistoryWeek", "eventIds", adjustments, "totalForecast", "firstWeek", forecasts,
      lowers, uppers, lowers95, uppers95, intervals, "liftFactors", "adjustmentFactors", overridden, "modelForecasts", "overrideIds", "liftSources", "pointEventIds")
    SELECT ${runId}, s.i, s.p, s.l, s.c, s.method, s.err, s.scale, s.class, s.source, s.weeks, s.last::date, s.events::text[], s.adj::jsonb, s.total,
      s.first::date, s.f::float8[], s.lo::float8[], s.up::float8[], s.lo95::float8[], s.up95::float8[], s.iv::jsonb, s.lift::float8[], s.adjf::float8[],
      s.over::boolean[], s.model::float8[], s.oid::jsonb, s.ls::text[], s.pe::jsonb
    FROM unnest(${results.map((r) => r.seriesIndex)}::int[], ${series.map((f) => f.productMasterId)}::text[], ${series.map((f) => f.locationId)}::text[],
      ${series.map((f) => f.channel)}::text[], ${series.map((f) => f.method)}::text[], ${series.map((f) => f.backtestError)}::float8[],
      ${series.map((f) => f.errorScale)}::text[], ${series.map((f) => f.demandClass)}::text[], ${series.map((f) => f.intervalSource)}::text[],
      ${series.map((f) => f.historyWeeks)}::int[], ${series.map((f) => f.lastHistoryWeek)}::text[], ${series.map((f) => textArrayLiteral(f.events.map((e) => e.id)))}::text[],
      ${series.map((f) => (f.adjustments ? JSON.stringify(f.adjustments) : null))}::text[], ${totals}::float8[],
      ${series.map((f) => f.points[0]?.periodStart ?? f.lastHistoryWeek)}::text[], ${points((p) => p.forecast)}::text[], ${points((p) => p.lower)}::text[],
      ${points((p) => p.upper)}::text[], ${points((p) => p.lower95)}::text[], ${points((p) => p.upper95)}::text[],
      ${series.map((f) => JSON.stringify(f.points.map((p) => p.intervals)))}::text[], ${points((p) => p.liftFactor)}::text[],
      ${points((p) => p.adjustmentFactor)}::text[], ${points((p) => p.overridden)}::text[], ${points((p) => p.modelForecast)}::text[],
      ${series.map((f) => JSON.stringify(f.points.map((p) => p.overrideId)))}::text[],
      ${series.map((f) => textArrayLiteral(f.points.map((p) => p.liftSource)))}::text[], ${series.map((f) => JSON.stringify(f.points.map((p) => p.eventIds)))}::text[])
      AS s(i, p, l, c, method, err, scale, class, source, weeks, last, events, adj, total, first, f, lo, up, lo95, up95, iv, lift, adjf, over, model, oid, ls, pe)`;
  return roundForecast(totals.reduce((sum, t) => sum + t, 0));
}

/** One stored series of a run, as the run's series page answers it: a series forecast with its events' ids and its total. */
export interface StoredSeriesForecast extends Omit<SeriesDemandForecast, 'events'> {
  eventIds: string[];
  totalForecast: number;
}

const day = (date: Date) => date.toISOString().slice(0, 10);
const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * A page of a run's stored series (ordered as the run fitted them: by product, location and channel id),
 * with their points; unknown or foreign run: NOT_FOUND. A run still RUNNING answers the series stored so far.
 */
export async function forecastRunSeriesPage(ctx: RequestContext, runId: string, input: ForecastRunSeriesQuery, window?: ListWindow) {
  const run = await getForecastRun(ctx, runId, { select: { id: true, status: true } });
  // A filter naming no product or location of the organization is 404, as on every forecasting path.
  await checkForecastIds(ctx, { productMasterId: input.productMasterId, locationId: input.locationId });
  const { page, limit, skip, take } = pageWindow(input.page, input.limit, FORECAST_RUN_SERIES_PAGING, window);
  const where = { runId: run.id, productMasterId: input.productMasterId, locationId: input.locationId, channel: input.channel };
  const [total, rows] = await Promise.all([
    ctx.prisma.forecastRunSeries.count({ where }),
    ctx.prisma.forecastRunSeries.findMany({ where, orderBy: { seriesIndex: 'asc' }, skip, take }),
  ]);
  const data = rows.map(
    (s): StoredSeriesForecast => ({
      productMasterId: s.productMasterId,
      locationId: s.locationId,
      channel: s.channel,
      method: s.method as MethodName,
      backtestError: s.backtestError,
      errorScale: s.errorScale as SeriesForecast['errorScale'],
      demandClass: s.demandClass as DemandClass | null,
      intervalSource: s.intervalSource as SeriesForecast['intervalSource'],
      historyWeeks: s.historyWeeks,
      lastHistoryWeek: day(s.lastHistoryWeek),
      eventIds: s.eventIds,
      adjustments: s.adjustments as unknown as SeriesAdjustment | null,
      totalForecast: s.totalForecast,
      points: s.forecasts.map((forecast, k) => ({
        periodStart: day(new Date(s.firstWeek.getTime() + k * WEEK_MS)),
        forecast,
        lower: s.lowers[k]!,
        upper: s.uppers[k]!,
        lower95: s.lowers95[k]!,
        upper95: s.uppers95[k]!,
        intervals: (s.intervals as unknown as DemandForecastPoint['intervals'][])[k]!,
        liftFactor: s.liftFactors[k]!,
        adjustmentFactor: s.adjustmentFactors[k]!,
        // Not stored: a stored run's forecast holds the booked units of its day, not how many they were.
        bookedQuantity: 0,
        overridden: s.overridden[k]!,
        modelForecast: s.modelForecasts[k]!,
        overrideId: (s.overrideIds as (string | null)[])[k] ?? null,
        liftSource: (s.liftSources[k] ?? 'NONE') as DemandForecastPoint['liftSource'],
        eventIds: (s.pointEventIds as string[][])[k] ?? [],
      })),
    }),
  );
  return { data, runId: run.id, status: run.status, page, limit, total, totalPages: Math.ceil(total / limit) };
}
