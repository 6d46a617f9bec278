import type { RequestContext } from '../../context.js';
import { FORECAST_PAGING, forecastQuery, MAX_HORIZON, type ForecastQueryInput } from '../../contracts/forecasting/forecast-query.js';
import { validationError } from '../../kernel/errors.js';
import { answerPoint, levelsToFit, roundForecast } from './answer-points.js';
import { eventCoversWeek, liftFactor } from './engine/event-lifts.js';
import { weekAfter } from './engine/forecast-series.js';
import { checkForecastIds, fitWeeklySeries } from './fit-weekly-series.js';
import type { DemandClass, ForecastProfile, MethodName, SeriesForecast, WeeklySeries } from './engine/types.js';
import { eventReaches, type ForecastEvent, liftEvent, readForecastEvents } from './forecast-events.js';
import { type DemandSeries, mondayOf, readDemandSeries, weeksBetween } from './demand-series.js';
import { pageArgs, parseInput } from '../tenant.js';
import { overrideKey, readPointOverrides } from './overrides/forecast-overrides.js';
import {
  readProductCategories,
  readScenarioApplication,
  type ScenarioApplication,
  scenarioIncludesEvent,
  type SeriesAdjustment,
  seriesAdjustment,
} from './scenario-adjustments.js';


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
  /** What the scenario's category, channel and global adjustments multiplied it by next (1: no scenario or none). */
  adjustmentFactor: number;
  /** A planner's override set the forecast (and shifted the bounds by the same difference, never below zero). */
  overridden: boolean;
  /** The forecast the model answered, before any override. */
  modelForecast: number;
  /** The override that won, or null. */
  overrideId: string | null;
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
  /** The scenario's adjustments of this series; null without a scenario. */
  adjustments: SeriesAdjustment | null;
  points: DemandForecastPoint[];
}

/** What a set of series is forecast with: the first forecast week (absent: after each series' history) and the weeks. */
export interface FitOptions {
  fromWeek: string | undefined;
  horizon: number;
  levels: number[];
  /** The engine's profile: DEFAULT for answers on request, GENERATION for stored runs of many series. */
  profile?: ForecastProfile;
}

/**
 * Fits a set of series once (each on the history before its first forecast week) and reads the events of
 * their window; scenarios are applied on top by `answer`, so any number of them share one fit.
 */
export async function fitSeriesSet(ctx: RequestContext, series: DemandSeries[], options: FitOptions) {
  // Each series' first forecast week, and the weeks between its history and that week: they are forecast too, and dropped.
  const plans = series.map((s) => {
    const lastHistoryWeek = s.weekStarts.at(-1)!;
    const first = options.fromWeek ?? weekAfter(lastHistoryWeek, 1);
    return { series: s, first, gap: weeksBetween(weekAfter(lastHistoryWeek, 1), first) };
  });
  if (plans.some((p) => p.gap > MAX_HORIZON)) {
    throw validationError({ from: [`Must be at most ${MAX_HORIZON} weeks after the last history week of each series`] });
  }

  const levels = levelsToFit(options.levels);
  const batches = new Map<number, WeeklySeries[]>();
  plans.forEach((p, i) => {
    const horizon = options.horizon + p.gap;
    const batch = batches.get(horizon) ?? [];
    batch.push({ key: String(i), values: p.series.values, weekStarts: p.series.weekStarts });
    batches.set(horizon, batch);
  });

  const firstWeeks = plans.map((p) => p.first).sort();
  const productIds = [...new Set(series.map((s) => s.productMasterId))];
  const [fitted, events, categories] = await Promise.all([
    fitWeeklySeries(ctx, batches, levels, options.profile),
    plans.length
      ? readForecastEvents(
          ctx,
          { from: new Date(`${firstWeeks[0]}T00:00:00Z`), to: new Date(`${weekAfter(firstWeeks.at(-1)!, options.horizon)}T00:00:00Z`) },
          { productIds, locationIds: [...new Set(series.map((s) => s.locationId))] },
        )
      : Promise.resolve([]),
    readProductCategories(ctx, productIds),
  ]);

  /** The forecast of each series under a scenario (null: none), after its events and adjustments. */
  const answerAll = (scenario: ScenarioApplication | null) =>
    plans.map((p, i) => {
      const reaching = events.filter((e) => eventReaches(e, p.series) && scenarioIncludesEvent(scenario, e.id));
      const adjustment = scenario ? seriesAdjustment(scenario, p.series, categories) : null;
      return answer(p.series, fitted.get(String(i))!, p.gap, options.levels, reaching, adjustment);
    });
  return { answerAll };
}

/**
 * Weekly demand forecasts of one page of the organization's series (product × location × channel of the
 * demand history): the engine's statistical forecast from the history before the first forecast week,
 * then the lifts of the events that reach each series over the weeks they overlap, then (with a scenario)
 * only the events it includes and its category, channel and global adjustments.
 */
export async function forecastDemand(ctx: RequestContext, raw: ForecastQueryInput) {
  const input = parseInput(forecastQuery, raw);
  await checkForecastIds(ctx, input);
  const scenario = input.scenarioId ? await readScenarioApplication(ctx, input.scenarioId) : null;
  const { page, limit, skip } = pageArgs(input.page, input.limit, FORECAST_PAGING);
  const fromWeek = input.from ? mondayOf(input.from) : undefined;
  const { total, series } = await readDemandSeries(
    ctx,
    { productMasterId: input.productMasterId, locationId: input.locationId, channel: input.channel, before: fromWeek },
    { skip, take: limit },
  );
  const data = await forecastSeriesUnder(ctx, series, { fromWeek, horizon: input.horizon, levels: input.levels }, scenario);
  return {
    data,
    page,
    limit,
    total,
    totalPages: Math.ceil(total / limit),
    horizon: input.horizon,
    levels: input.levels,
    from: fromWeek ?? null,
    scenarioId: scenario?.id ?? null,
  };
}

/**
 * The forecasts of a set of series as GET /api/forecast answers them under a scenario (null: none): the
 * fit, the events the scenario includes, its adjustments, then the planners' overrides. A stored forecast
 * run (runs/) writes what this answers for each batch of its series.
 */
export async function forecastSeriesUnder(ctx: RequestContext, series: DemandSeries[], options: FitOptions, scenario: ScenarioApplication | null) {
  const { answerAll } = await fitSeriesSet(ctx, series, options);
  const data = answerAll(scenario);
  await applyOverrides(ctx, data, scenario?.id ?? null);
  return data;
}

/**
 * Planners' overrides win over the model: an overridden week answers the override's quantity, and its
 * bounds move by the same difference (the interval keeps its width), held at zero from below.
 */
async function applyOverrides(ctx: RequestContext, forecasts: SeriesDemandForecast[], scenarioId: string | null) {
  const weeks = forecasts.flatMap((f) => f.points.map((p) => p.periodStart)).sort();
  if (!weeks.length) return;
  const overrides = await readPointOverrides(ctx, forecasts, { from: weeks[0]!, to: weeks.at(-1)! }, scenarioId);
  if (!overrides.size) return;
  for (const series of forecasts) {
    series.points = series.points.map((point) => {
      const override = overrides.get(overrideKey(series.productMasterId, series.locationId, series.channel, point.periodStart));
      if (!override) return point;
      const shift = override.quantity - point.forecast;
      const moved = (value: number) => roundForecast(Math.max(0, value + shift));
      const intervals = point.intervals.map((i) => ({ level: i.level, lower: moved(i.lower), upper: moved(i.upper) }));
      return {
        ...point,
        forecast: roundForecast(override.quantity),
        lower: moved(point.lower),
        upper: moved(point.upper),
        lower95: moved(point.lower95),
        upper95: moved(point.upper95),
        intervals,
        overridden: true,
        overrideId: override.id,
      };
    });
  }
}

function answer(series: DemandSeries, fitted: SeriesForecast, gap: number, asked: number[], events: ForecastEvent[], adjustment: SeriesAdjustment | null): SeriesDemandForecast {
  const applied = new Set<ForecastEvent>();
  const points = fitted.points.slice(gap).map((point): DemandForecastPoint => {
    const covering = events.filter((e) => eventCoversWeek(liftEvent(e), point.periodStart));
    for (const e of covering) applied.add(e);
    const lift = liftFactor(covering.map(liftEvent));
    const adjustmentFactor = adjustment?.factor ?? 1;
    const factor = lift * adjustmentFactor;
    const scaled = answerPoint(point, asked, factor);
    return {
      periodStart: point.periodStart,
      ...scaled,
      liftFactor: roundForecast(lift),
      adjustmentFactor: roundForecast(adjustmentFactor),
      overridden: false,
      modelForecast: scaled.forecast,
      overrideId: null,
    };
  });
  return {
    productMasterId: series.productMasterId,
    locationId: series.locationId,
    channel: series.channel,
    method: fitted.method,
    backtestError: fitted.backtestError === null ? null : roundForecast(fitted.backtestError),
    errorScale: fitted.errorScale,
    demandClass: fitted.demandClass,
    intervalSource: fitted.intervalSource,
    historyWeeks: series.values.length,
    lastHistoryWeek: series.weekStarts.at(-1)!,
    events: events.filter((e) => applied.has(e)),
    adjustments: adjustment && { ...adjustment, factor: roundForecast(adjustment.factor) },
    points,
  };
}
