import type { RequestContext } from '../../../context.js';
import { FORECAST_RUN_SERIES_PAGING, forecastRunSeriesQuery } from '../../../contracts/forecasting/forecast-run.js';
import type { Prisma } from '../../../generated/prisma/client.js';
import { pageArgs, parseInput } from '../../tenant.js';
import { roundForecast } from '../answer-points.js';
import type { DemandForecastPoint, SeriesDemandForecast } from '../demand-forecast.js';
import type { SeriesAdjustment } from '../scenario-adjustments.js';
import type { DemandClass, MethodName, SeriesForecast } from '../engine/types.js';
import { getForecastRun } from './forecast-runs.js';

/** A series forecast with its place in the run. */
export interface IndexedForecast {
  seriesIndex: number;
  forecast: SeriesDemandForecast;
}

const seriesTotal = (f: SeriesDemandForecast) => roundForecast(f.points.reduce((sum, p) => sum + p.forecast, 0));

/**
 * Stores a batch's series and points: two statements whatever the batch's size, each column sent as one
 * array and unnested into rows (no statement per row, no parameter per value). Returns the batch's total.
 */
export async function writeBatchResults(tx: Prisma.TransactionClient, runId: string, results: IndexedForecast[]): Promise<number> {
  if (!results.length) return 0;
  const series = results.map((r) => r.forecast);
  const totals = series.map(seriesTotal);
  await tx.$executeRaw`
    INSERT INTO forecast_run_series ("runId", "seriesIndex", "productMasterId", "locationId", channel, method, "backtestError", "errorScale",
      "demandClass", "intervalSource", "historyWeeks", "lastHistoryWeek", "eventIds", adjustments, "totalForecast")
    SELECT ${runId}, s.i, s.p, s.l, s.c, s.method, s.err, s.scale, s.class, s.source, s.weeks, s.last::date,
      ARRAY(SELECT jsonb_array_elements_text(s.events::jsonb)), s.adj::jsonb, s.total
    FROM unnest(${results.map((r) => r.seriesIndex)}::int[], ${series.map((f) => f.productMasterId)}::text[], ${series.map((f) => f.locationId)}::text[],
      ${series.map((f) => f.channel)}::text[], ${series.map((f) => f.method)}::text[], ${series.map((f) => f.backtestError)}::float8[],
      ${series.map((f) => f.errorScale)}::text[], ${series.map((f) => f.demandClass)}::text[], ${series.map((f) => f.intervalSource)}::text[],
      ${series.map((f) => f.historyWeeks)}::int[], ${series.map((f) => f.lastHistoryWeek)}::text[], ${series.map((f) => JSON.stringify(f.events.map((e) => e.id)))}::text[],
      ${series.map((f) => (f.adjustments ? JSON.stringify(f.adjustments) : null))}::text[], ${totals}::float8[])
      AS s(i, p, l, c, method, err, scale, class, source, weeks, last, events, adj, total)`;

  const points = results.flatMap((r) => r.forecast.points.map((p) => ({ i: r.seriesIndex, p })));
  const column = <T>(of: (p: DemandForecastPoint) => T) => points.map((x) => of(x.p));
  await tx.$executeRaw`
    INSERT INTO forecast_run_points ("runId", "seriesIndex", "periodStart", forecast, lower, upper, lower95, upper95, intervals, "liftFactor",
      "adjustmentFactor", overridden, "modelForecast", "overrideId")
    SELECT ${runId}, x.i, x.week::date, x.f, x.lo, x.up, x.lo95, x.up95, x.intervals::jsonb, x.lift, x.adj, x.over, x.model, x.oid
    FROM unnest(${points.map((x) => x.i)}::int[], ${column((p) => p.periodStart)}::text[], ${column((p) => p.forecast)}::float8[],
      ${column((p) => p.lower)}::float8[], ${column((p) => p.upper)}::float8[], ${column((p) => p.lower95)}::float8[], ${column((p) => p.upper95)}::float8[],
      ${column((p) => JSON.stringify(p.intervals))}::text[], ${column((p) => p.liftFactor)}::float8[], ${column((p) => p.adjustmentFactor)}::float8[],
      ${column((p) => p.overridden)}::boolean[], ${column((p) => p.modelForecast)}::float8[], ${column((p) => p.overrideId)}::text[])
      AS x(i, week, f, lo, up, lo95, up95, intervals, lift, adj, over, model, oid)`;
  return roundForecast(totals.reduce((sum, t) => sum + t, 0));
}

/** One stored series of a run, as the run's series page answers it. */
export interface StoredSeriesForecast {
  productMasterId: string;
  locationId: string;
  channel: string;
  method: MethodName;
  backtestError: number | null;
  errorScale: SeriesForecast['errorScale'];
  demandClass: DemandClass | null;
  intervalSource: SeriesForecast['intervalSource'];
  historyWeeks: number;
  lastHistoryWeek: string;
  eventIds: string[];
  adjustments: SeriesAdjustment | null;
  totalForecast: number;
  points: DemandForecastPoint[];
}

const day = (date: Date) => date.toISOString().slice(0, 10);

/**
 * A page of a run's stored series (ordered as the run fitted them: by product, location and channel id),
 * with their points; unknown or foreign run: NOT_FOUND. A run still RUNNING answers the series stored so far.
 */
export async function forecastRunSeriesPage(ctx: RequestContext, runId: string, raw: unknown) {
  const input = parseInput(forecastRunSeriesQuery, raw ?? {});
  const run = await getForecastRun(ctx, runId, { select: { id: true, status: true } });
  const { page, limit, skip } = pageArgs(input.page, input.limit, FORECAST_RUN_SERIES_PAGING);
  const where = { runId: run.id, productMasterId: input.productMasterId, locationId: input.locationId, channel: input.channel };
  const [total, rows] = await Promise.all([
    ctx.prisma.forecastRunSeries.count({ where }),
    ctx.prisma.forecastRunSeries.findMany({ where, orderBy: { seriesIndex: 'asc' }, skip, take: limit, include: { points: { orderBy: { periodStart: 'asc' } } } }),
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
      points: s.points.map((p) => ({
        periodStart: day(p.periodStart),
        forecast: p.forecast,
        lower: p.lower,
        upper: p.upper,
        lower95: p.lower95,
        upper95: p.upper95,
        intervals: p.intervals as unknown as DemandForecastPoint['intervals'],
        liftFactor: p.liftFactor,
        adjustmentFactor: p.adjustmentFactor,
        overridden: p.overridden,
        modelForecast: p.modelForecast,
        overrideId: p.overrideId,
      })),
    }),
  );
  return { data, runId: run.id, status: run.status, page, limit, total, totalPages: Math.ceil(total / limit) };
}
