import type { RequestContext } from '../../context.js';
import { FORECAST_PAGING, forecastQuery, MAX_HORIZON, type ForecastQueryInput } from '../../contracts/forecasting/forecast-query.js';
import { validationError } from '../../kernel/errors.js';
import { eventCoversWeek, liftFactor } from './engine/event-lifts.js';
import { weekAfter } from './engine/forecast-series.js';
import { checkForecastIds, fitWeeklySeries } from './fit-weekly-series.js';
import type { DemandClass, MethodName, SeriesForecast, WeeklySeries } from './engine/types.js';
import { eventReaches, type ForecastEvent, liftEvent, readForecastEvents } from './forecast-events.js';
import { type DemandSeries, mondayOf, readDemandSeries, weeksBetween } from './demand-series.js';
import { pageArgs, parseInput } from '../tenant.js';

/** lower95/upper95 are always answered, asked for or not. */
const ALWAYS_LEVEL = 95;
const round = (value: number) => Math.round(value * 10_000) / 10_000;

export interface ForecastInterval {
  level: number;
  lower: number;
  upper: number;
}

export interface DemandForecastPoint {
  periodStart: string;
  forecast: number;
  /** The first level asked for. */
  lower: number;
  upper: number;
  lower95: number;
  upper95: number;
  /** Every level asked for, in the order asked. */
  intervals: ForecastInterval[];
  /** What the week's events multiplied the statistical forecast by (1: no event). */
  liftFactor: number;
}

export interface SeriesDemandForecast {
  productMasterId: string;
  locationId: string;
  channel: string;
  method: MethodName;
  backtestError: number | null;
  errorScale: SeriesForecast['errorScale'];
  demandClass: DemandClass | null;
  intervalSource: SeriesForecast['intervalSource'];
  /** Weeks of history the engine saw, and the last of them. */
  historyWeeks: number;
  lastHistoryWeek: string;
  /** Events that lift at least one of the points. */
  events: ForecastEvent[];
  points: DemandForecastPoint[];
}

/**
 * Weekly demand forecasts of one page of the organization's series (product × location × channel of the
 * demand history): the engine's statistical forecast from the history before the first forecast week,
 * then the lifts of the events that reach each series over the weeks they overlap.
 */
export async function forecastDemand(ctx: RequestContext, raw: ForecastQueryInput) {
  const input = parseInput(forecastQuery, raw);
  await checkForecastIds(ctx, input);
  const { page, limit, skip } = pageArgs(input.page, input.limit, FORECAST_PAGING);
  const fromWeek = input.from ? mondayOf(input.from) : undefined;
  const { total, series } = await readDemandSeries(
    ctx,
    { productMasterId: input.productMasterId, locationId: input.locationId, channel: input.channel, before: fromWeek },
    { skip, take: limit },
  );

  // Each series' first forecast week, and the weeks between its history and that week: they are forecast too, and dropped.
  const plans = series.map((s) => {
    const lastHistoryWeek = s.weekStarts.at(-1)!;
    const first = fromWeek ?? weekAfter(lastHistoryWeek, 1);
    return { series: s, first, gap: weeksBetween(weekAfter(lastHistoryWeek, 1), first) };
  });
  if (plans.some((p) => p.gap > MAX_HORIZON)) {
    throw validationError({ from: [`Must be at most ${MAX_HORIZON} weeks after the last history week of each series`] });
  }

  const levels = input.levels.includes(ALWAYS_LEVEL) ? input.levels : [...input.levels, ALWAYS_LEVEL];
  const batches = new Map<number, WeeklySeries[]>();
  plans.forEach((p, i) => {
    const horizon = input.horizon + p.gap;
    const batch = batches.get(horizon) ?? [];
    batch.push({ key: String(i), values: p.series.values, weekStarts: p.series.weekStarts });
    batches.set(horizon, batch);
  });

  const firstWeeks = plans.map((p) => p.first).sort();
  const [fitted, events] = await Promise.all([
    fitWeeklySeries(ctx, batches, levels),
    plans.length
      ? readForecastEvents(
          ctx,
          { from: new Date(`${firstWeeks[0]}T00:00:00Z`), to: new Date(`${weekAfter(firstWeeks.at(-1)!, input.horizon)}T00:00:00Z`) },
          { productIds: [...new Set(series.map((s) => s.productMasterId))], locationIds: [...new Set(series.map((s) => s.locationId))] },
        )
      : Promise.resolve([]),
  ]);

  const data = plans.map((p, i) => answer(p.series, fitted.get(String(i))!, p.gap, input.levels, events.filter((e) => eventReaches(e, p.series))));
  return { data, page, limit, total, totalPages: Math.ceil(total / limit), horizon: input.horizon, levels: input.levels, from: fromWeek ?? null };
}

function answer(series: DemandSeries, fitted: SeriesForecast, gap: number, asked: number[], events: ForecastEvent[]): SeriesDemandForecast {
  const applied = new Set<ForecastEvent>();
  const points = fitted.points.slice(gap).map((point): DemandForecastPoint => {
    const covering = events.filter((e) => eventCoversWeek(liftEvent(e), point.periodStart));
    for (const e of covering) applied.add(e);
    const factor = liftFactor(covering.map(liftEvent));
    const bound = (level: number) => {
      const interval = point.intervals.find((i) => i.level === level)!;
      return { level, lower: round(interval.lower * factor), upper: round(interval.upper * factor) };
    };
    const intervals = asked.map(bound);
    const at95 = bound(ALWAYS_LEVEL);
    return {
      periodStart: point.periodStart,
      forecast: round(point.forecast * factor),
      lower: intervals[0]!.lower,
      upper: intervals[0]!.upper,
      lower95: at95.lower,
      upper95: at95.upper,
      intervals,
      liftFactor: round(factor),
    };
  });
  return {
    productMasterId: series.productMasterId,
    locationId: series.locationId,
    channel: series.channel,
    method: fitted.method,
    backtestError: fitted.backtestError === null ? null : round(fitted.backtestError),
    errorScale: fitted.errorScale,
    demandClass: fitted.demandClass,
    intervalSource: fitted.intervalSource,
    historyWeeks: series.values.length,
    lastHistoryWeek: series.weekStarts.at(-1)!,
    events: events.filter((e) => applied.has(e)),
    points,
  };
}
