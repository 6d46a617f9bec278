import { z } from 'zod';
import { calendarDate, dateTime, integer, pagination } from '../../common-responses.js';

export const METHODS = ['SIMPLE_LEVEL', 'NAIVE', 'SEASONAL_NAIVE', 'ETS', 'MSTL', 'CROSTON', 'SBA', 'TSB', 'ENSEMBLE'] as const;
const units = z.number().min(0);

export const interval = z
  .object({ level: z.number().gt(0).lt(100).describe('Level in percent.'), lower: units, upper: units })
  .meta({ id: 'ForecastInterval', description: 'A central prediction interval: lower ≤ forecast ≤ upper, never below zero.' });

export const point = z
  .object({
    periodStart: calendarDate.describe('Monday of the ISO week.'),
    forecast: units.describe('Median forecast units, after event lifts.'),
    lower: units.describe('Lower bound at the first level asked for.'),
    upper: units.describe('Upper bound at the first level asked for.'),
    lower95: units.describe('Lower bound at 95 %, asked for or not.'),
    upper95: units.describe('Upper bound at 95 %, asked for or not.'),
    intervals: z.array(interval).describe('One interval per level asked for, in the order asked (lower/upper repeat the first).'),
    liftFactor: z.number().min(0).describe("What the week's events multiplied the statistical forecast and bounds by (1: no event)."),
    liftSource: z
      .enum(['NONE', 'STATED', 'LEARNED', 'MIXED'])
      .describe("Where the lifts of the week's events came from: NONE (no event), STATED (their value.liftPct), LEARNED (learned from past events of their type), MIXED."),
    eventIds: z.array(z.string()).describe("The events overlapping the week (listed in the series' events)."),
    adjustmentFactor: z
      .number()
      .min(0)
      .describe("What the scenario's category, channel and global adjustments multiplied them by next (1: no scenario or none): forecast = statistical × liftFactor × adjustmentFactor."),
    bookedQuantity: z
      .int()
      .min(0)
      .describe("Units confirmed wholesale bookings of the series' product and location add to the week (their BOOKING events), after liftFactor and adjustmentFactor; 0 without one (and in stored runs)."),
    overridden: z.boolean().describe("A planner's override set forecast; the bounds moved by the same difference, never below zero."),
    modelForecast: units.describe('The forecast the model answered (after lifts and adjustments), before any override.'),
    overrideId: z.string().nullable().describe('The override that won (a scenario\'s own before the base one), or null.'),
  })
  .meta({ id: 'ForecastPoint' });

export const appliedEvent = z
  .object({
    id: z.string(),
    name: z.string(),
    startsAt: dateTime,
    endsAt: dateTime,
    type: z.enum(['PROMOTION', 'PRICE_CHANGE', 'HOLIDAY', 'WEATHER', 'BOOKING', 'MACRO', 'OTHER']),
    liftPct: z.number().describe('Demand change as a fraction (0.2 = +20 %): the stated one, or the learned one (held to -0.99 … 5).'),
    stackingMode: z.enum(['MULTIPLICATIVE', 'ADDITIVE']).describe('MULTIPLICATIVE for a learned lift.'),
    liftSource: z.enum(['STATED', 'LEARNED']).describe('STATED: its value.liftPct; LEARNED: it states none, learned from past events (GET /api/forecast/events/learned-lifts).'),
    learnedPool: z.enum(['TYPE', 'LINK']).nullable().describe('For a LEARNED lift, the pool it came from; null otherwise.'),
    learnedOccurrences: z.number().int().nullable().describe('For a LEARNED lift, the past occurrences pooled; null otherwise.'),
  })
  .meta({ id: 'ForecastAppliedEvent', description: 'An external event that lifted at least one week of the series.' });

const liftOrNull = z.number().nullable();

export const seriesAdjustment = z
  .object({
    scenarioId: z.string(),
    categoryId: z.string().nullable().describe("The product's category when the scenario adjusts it."),
    categoryLiftPct: liftOrNull.describe('Its lift as a fraction (0.1 = +10 %).'),
    channelId: z.string().nullable().describe("The adjusted channel matching the series' channel label (by name, else by type, case-insensitive)."),
    channelLiftPct: liftOrNull.describe('Its lift as a fraction.'),
    globalLiftPct: liftOrNull.describe("The scenario's global lift as a fraction."),
    factor: z.number().min(0).describe('(1 + category lift) × (1 + channel lift) × (1 + global lift), each never below zero.'),
  })
  .meta({ id: 'ForecastSeriesAdjustment', description: "What a scenario's adjustments did to one series, applied in this order after its events." });

export const seriesForecast = z
  .object({
    productMasterId: z.string(),
    locationId: z.string(),
    channel: z.string(),
    method: z.enum(METHODS).describe("The method chosen by rolling-origin backtest on the series' own history."),
    backtestError: z.number().min(0).nullable().describe('Mean MASE of the method over the backtest; null when the series was too short to backtest.'),
    errorScale: z.enum(['SEASONAL_NAIVE_MAE', 'NAIVE_MAE', 'NONE']).describe('What backtestError is scaled by.'),
    demandClass: z.enum(['SMOOTH', 'ERRATIC', 'INTERMITTENT', 'LUMPY']).nullable().describe('Syntetos–Boylan class (ADI, CV²); null without any demand.'),
    intervalSource: z.enum(['CONFORMAL_BY_STEP', 'CONFORMAL_POOLED', 'MODEL']).describe('How the intervals were made.'),
    historyWeeks: integer.describe('Weeks of history the engine saw (a week without a record counts as 0).'),
    lastHistoryWeek: calendarDate.describe('The last of them.'),
    events: z.array(appliedEvent),
    adjustments: seriesAdjustment.nullable().describe('The scenario\'s adjustments of this series; null without scenarioId.'),
    points: z.array(point).describe('horizon points, one per week from the first forecast week.'),
  })
  .meta({ id: 'SeriesForecast', description: 'The forecast of one product at one location in one channel of the demand history.' });

export const forecastPage = z.object({
  data: z.array(seriesForecast),
  meta: z.intersection(
    pagination,
    z.object({
      horizon: integer.describe('Weeks forecast per series.'),
      levels: z.array(z.number()).describe('Interval levels, in the order asked.'),
      from: calendarDate.nullable().describe('The first forecast week (Monday) when one was asked for; null: each series from the week after its history.'),
      scenarioId: z.string().nullable().describe('The scenario applied; null: none.'),
    }),
  ),
});

const scenarioDelta = {
  forecast: units.describe('Total forecast units.'),
  delta: z.number().describe("forecast minus the first scenario's (0 for the first)."),
  deltaPct: z.number().nullable().describe("delta as a fraction of the first scenario's forecast (0.1 = +10 %); null when that is 0."),
};

const scenarioComparison = z
  .object({
    scenarioId: z.string(),
    name: z.string(),
    type: z.enum(['BASELINE', 'PROMOTIONAL', 'CONSERVATIVE', 'OPTIMISTIC', 'CHANNEL_LAUNCH', 'CUSTOM']),
    status: z.enum(['DRAFT', 'PUBLISHED', 'ARCHIVED']),
    ...scenarioDelta,
    periods: z
      .array(z.object({ periodStart: calendarDate.describe('Monday of the ISO week.'), ...scenarioDelta }).meta({ id: 'ForecastScenarioPeriodTotal' }))
      .describe('One total per week; every scenario lists the same weeks.'),
  })
  .meta({ id: 'ForecastScenarioComparison', description: 'The totals of one scenario over the whole horizon (forecast, delta, deltaPct) and per week.' });

export const scenarioComparisonResult = z.object({
  data: z.array(scenarioComparison).describe('One entry per scenario, in the order asked.'),
  meta: z.object({
    baseScenarioId: z.string().describe('The first scenario: the deltas are against it.'),
    series: integer.describe('Series (product × location × channel) added up.'),
    horizon: integer.describe('Weeks forecast per series.'),
    from: calendarDate.nullable().describe('The first forecast week when one was asked for; null: each series from the week after its history.'),
  }),
});
