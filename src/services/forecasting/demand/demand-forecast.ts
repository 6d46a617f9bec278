import type { RequestContext } from '../../../context.js';
import { FORECAST_PAGING, MAX_HORIZON, type ForecastQuery } from '../../../contracts/forecasting/demand/forecast-query.js';
import { validationError } from '../../../kernel/errors.js';
import { answerPoint, levelsToFit, roundForecast } from './answer-points.js';
import { weekAfter } from '../engine/forecast-series.js';
import { checkForecastIds, fitWeeklySeries } from './fit-weekly-series.js';
import type { DemandClass, ForecastProfile, MethodName, SeriesForecast, WeeklySeries } from '../engine/types.js';
import type { ForecastEvent } from '../events/forecast-events.js';
import { type DemandSeries, mondayOf, readDemandSeries, weeksBetween } from './demand-series.js';
import { type ListWindow, pageWindow } from '../../tenant.js';
import { overrideKey } from '../overrides/forecast-overrides.js';
import { addUnits, appliedEvents, type AssumptionSet, overridePoint, type PointLiftSource, readAssumptions, readOverrides, seriesAssumptions, weekLift } from './forecast-assumptions.js';
import { readScenarioApplication, type ScenarioApplication, type SeriesAdjustment } from '../scenarios/scenario-adjustments.js';
import { asForecastRequest } from '../engine/engine-admission.js';
import { mapInSlices } from '../../../kernel/yielding.js';


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
  /** Where those events' lifts came from: NONE, STATED, LEARNED or MIXED. */
  liftSource: PointLiftSource;
  /** The events overlapping the week (in the series' events). */
  eventIds: string[];
  /** What the scenario's category, channel and global adjustments multiplied it by next (1: no scenario or none). */
  adjustmentFactor: number;
  /** Units confirmed wholesale bookings of the series' product and location add to the week, after the lifts and adjustments (0: none). */
  bookedQuantity: number;
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
  /** false: the statistical forecast alone, no event read (the ENGINE accuracy's includeAdjustments=false). */
  withEvents?: boolean;
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
  const noAssumptions: AssumptionSet = { events: [], categories: new Map() };
  const [fitted, assumptions] = await Promise.all([
    fitWeeklySeries(ctx, batches, levels, options.profile),
    options.withEvents === false || !plans.length
      ? Promise.resolve(noAssumptions)
      : readAssumptions(ctx, series, { from: firstWeeks[0]!, to: weekAfter(firstWeeks.at(-1)!, options.horizon) }, options.fromWeek ?? null),
  ]);

  /** The forecast of each series under a scenario (null: none), after its events and adjustments. */
  const answerAll = (scenario: ScenarioApplication | null) =>
    mapInSlices(plans, (p, i) => {
      const { events, adjustment } = seriesAssumptions(assumptions, scenario, p.series);
      return answer(p.series, fitted.get(String(i))!, p.gap, options.levels, events, adjustment);
    });
  return { answerAll };
}

/**
 * Weekly demand forecasts of one page of the organization's series (product × location × channel of the
 * demand history): the engine's statistical forecast from the history before the first forecast week,
 * then the lifts of the events that reach each series over the weeks they overlap, then (with a scenario)
 * only the events it includes and its category, channel and global adjustments. `input` is the query as
 * its contract outputs it (parsed once, where it comes in).
 */
export async function forecastDemand(ctx: RequestContext, input: ForecastQuery, options: { adjustments?: boolean; window?: ListWindow } = {}) {
  return asForecastRequest(ctx, async () => {
    await checkForecastIds(ctx, input);
    const scenario = input.scenarioId ? await readScenarioApplication(ctx, input.scenarioId) : null;
    const { page, limit, skip, take } = pageWindow(input.page, input.limit, FORECAST_PAGING, options.window);
    const fromWeek = input.from ? mondayOf(input.from) : undefined;
    const { total, series } = await readDemandSeries(
      ctx,
      { productMasterId: input.productMasterId, locationId: input.locationId, channel: input.channel, before: fromWeek },
      { skip, take },
    );
    // adjustments=false (the ENGINE accuracy's statistical forecast): no events and no overrides.
    const data = await forecastSeriesUnder(ctx, series, { fromWeek, horizon: input.horizon, levels: input.levels, withEvents: options.adjustments !== false }, scenario);
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
  });
}

/**
 * The forecasts of a set of series as GET /api/forecast answers them under a scenario (null: none): the
 * fit, the events the scenario includes (stated or learned lifts), its adjustments, then the planners'
 * overrides. withEvents=false: the statistical forecast alone (no events, no overrides). A stored
 * forecast run (runs/) writes what this answers for each batch of its series.
 */
export async function forecastSeriesUnder(ctx: RequestContext, series: DemandSeries[], options: FitOptions, scenario: ScenarioApplication | null) {
  const { answerAll } = await fitSeriesSet(ctx, series, options);
  const data = await answerAll(scenario);
  if (options.withEvents !== false) await applyOverrides(ctx, data, scenario?.id ?? null);
  return data;
}

/**
 * Planners' overrides win over the model: an overridden week answers the override's quantity, and its
 * bounds move by the same difference (the interval keeps its width), held at zero from below.
 */
export async function applyOverrides(ctx: RequestContext, forecasts: SeriesDemandForecast[], scenarioId: string | null) {
  const overrides = await readOverrides(ctx, forecasts, forecasts.flatMap((f) => f.points.map((p) => p.periodStart)), scenarioId);
  if (!overrides.size) return;
  for (const series of forecasts) {
    series.points = series.points.map((point) => {
      const override = overrides.get(overrideKey(series.productMasterId, series.locationId, series.channel, point.periodStart));
      return override ? { ...overridePoint(point, override.quantity), overridden: true, overrideId: override.id } : point;
    });
  }
}

function answer(series: DemandSeries, fitted: SeriesForecast, gap: number, asked: number[], events: ForecastEvent[], adjustment: SeriesAdjustment | null): SeriesDemandForecast {
  const applied = new Set<ForecastEvent>();
  const points = fitted.points.slice(gap).map((point): DemandForecastPoint => {
    const lift = weekLift(events, point.periodStart);
    for (const e of lift.events) applied.add(e);
    const adjustmentFactor = adjustment?.factor ?? 1;
    const scaled = addUnits(answerPoint(point, asked, lift.factor * adjustmentFactor), lift.booked);
    return {
      periodStart: point.periodStart,
      ...scaled,
      liftFactor: roundForecast(lift.factor),
      liftSource: lift.source,
      eventIds: lift.events.map((e) => e.id),
      adjustmentFactor: roundForecast(adjustmentFactor),
      bookedQuantity: lift.booked,
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
    events: appliedEvents(events, applied),
    adjustments: adjustment && { ...adjustment, factor: roundForecast(adjustment.factor) },
    points,
  };
}
