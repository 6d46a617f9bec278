import { z } from 'zod';
import { calendarDate, integer, pagination } from '../../common-responses.js';
import { appliedEvent, interval, METHODS, seriesAdjustment } from '../demand/forecast-responses.js';

const units = z.number().min(0);
const intervalSource = z.enum(['CONFORMAL_BY_STEP', 'CONFORMAL_POOLED', 'MODEL']).describe('How the intervals were made.');

const bounds = {
  forecast: units.describe('Median forecast units, never below zero.'),
  lower: units.describe('Lower bound at the first level asked for.'),
  upper: units.describe('Upper bound at the first level asked for.'),
  lower95: units.describe('Lower bound at 95 %, asked for or not.'),
  upper95: units.describe('Upper bound at 95 %, asked for or not.'),
  intervals: z.array(interval).describe('One interval per level asked for, in the order asked.'),
};

const liftSource = z.enum(['NONE', 'STATED', 'LEARNED', 'MIXED']).describe("Where the lifts of the week's events came from.");
const liftFactor = z.number().min(0).describe("What the week's events multiplied the statistical forecast by (1: no event).");

const projectionPoint = z
  .object({
    periodStart: calendarDate.describe('Monday of the ISO week.'),
    ...bounds,
    liftFactor,
    liftSource,
    adjustmentFactor: z
      .number()
      .min(0)
      .describe("The scenario's adjustments: of a channel, category × its channel × global; of the total, category × global × Σ share × channel factor. 1 without a scenario."),
    overridden: z.boolean().describe("A channel: a planner's override set it; the total: some channel's did (the total is then the sum of its channels)."),
    overrideId: z.string().nullable().describe('A channel: the override that won; the total: null.'),
  })
  .meta({ id: 'ChannelProjectionPoint', description: 'The forecast of one week, of the total or of one channel.' });

const channelShare = z
  .object({
    channel: z.string(),
    share: z.number().min(0).max(1).describe('Fraction of the demand, 6 decimals; the shares of a product × location sum to 1.'),
    recentUnits: units.describe('Units of the channel over the share window.'),
  })
  .meta({ id: 'ChannelShare' });

const channelProjection = z
  .object({
    productMasterId: z.string(),
    locationId: z.string(),
    method: z.enum(METHODS).describe('The method chosen by backtest for the total (channels summed).'),
    backtestError: z.number().min(0).nullable().describe('Mean MASE of the method over the backtest; null when the total was too short.'),
    intervalSource,
    historyWeeks: integer.describe('Weeks of history of the total.'),
    lastHistoryWeek: calendarDate,
    shareBasis: z.enum(['RECENT', 'HISTORY', 'EQUAL']).describe('RECENT: the share window; HISTORY: the whole history (no demand in the window); EQUAL: no demand at all.'),
    shareFrom: calendarDate.describe('First week of the share window; it ends with lastHistoryWeek.'),
    shareWeeks: integer.describe('Weeks in the share window (shareWeeks asked, or the whole history when shorter).'),
    shares: z.array(channelShare).describe('The shares used, one per channel of the history, by channel label.'),
    events: z.array(appliedEvent).describe('Events that lifted at least one week of the total (stated or learned lifts).'),
    total: z.array(projectionPoint).describe('The weekly forecast of the total, horizon points: what its channels add up to.'),
    channels: z
      .array(
        z.object({
          channel: z.string(),
          share: z.number().min(0).max(1),
          adjustments: seriesAdjustment.nullable().describe("The scenario's adjustments of this channel's series; null without scenarioId."),
          points: z
            .array(projectionPoint)
            .describe("The total's statistical points × liftFactor × the category and global adjustments × the share × the channel's adjustment; its overrides win."),
        }),
      )
      .describe('Per channel, the weekly points.'),
  })
  .meta({ id: 'ChannelProjection', description: 'The forecast of a product at a location, split by channel.' });

export const channelProjectionPage = z.object({
  data: z.array(channelProjection),
  meta: z.intersection(
    pagination,
    z.object({
      horizon: integer.describe('Weeks forecast per pair.'),
      shareWeeks: integer.describe('Share window asked for, in weeks.'),
      levels: z.array(z.number()).describe('Interval levels, in the order asked.'),
      scenarioId: z.string().nullable().describe('The scenario applied; null: none.'),
    }),
  ),
});

const monthlyPoint = z
  .object({
    month: z.string().regex(/^\d{4}-\d{2}$/).describe('YYYY-MM.'),
    periodStart: calendarDate.describe('First day of the month.'),
    periodEnd: calendarDate.describe('Last day of the month.'),
    ...bounds,
    liftFactor: liftFactor.describe("The mean over the month's days of the stacked factor of the events covering each day (1: none)."),
    liftSource,
    adjustmentFactor: z.number().min(0).describe("The scenario's category × channel × global adjustment (1 without)."),
  })
  .meta({ id: 'MonthlyForecastPoint' });

const longTermSeries = z
  .object({
    productMasterId: z.string(),
    locationId: z.string(),
    channel: z.string(),
    method: z.enum(['DAMPED_TREND', 'DAMPED_TREND_SEASONAL']).describe('Damped-trend Holt; with two years of months, on the seasonally adjusted months (12-month indices added back).'),
    alpha: z.number().describe('Level smoothing.'),
    beta: z.number().describe('Trend smoothing.'),
    phi: z.number().describe('Trend damping.'),
    intervalSource,
    historyMonths: integer.describe('Calendar months the weekly history touches.'),
    firstHistoryMonth: z.string().describe('YYYY-MM.'),
    lastHistoryMonth: z.string().describe('YYYY-MM; the forecast starts the month after.'),
    lastMonthPartial: z.boolean().describe('Whether the history covers its last month only in part (scaled to the whole month).'),
    events: z.array(appliedEvent).describe('Events that lifted at least one of the months (stated or learned lifts).'),
    adjustments: seriesAdjustment.nullable().describe("The scenario's adjustments of this series; null without scenarioId."),
    points: z.array(monthlyPoint).describe('One point per month.'),
  })
  .meta({ id: 'LongTermSeriesForecast', description: 'The monthly forecast of one product at one location in one channel.' });

export const longTermPage = z.object({
  data: z.array(longTermSeries),
  meta: z.intersection(
    pagination,
    z.object({
      months: integer.describe('Months forecast per series.'),
      levels: z.array(z.number()).describe('Interval levels, in the order asked.'),
      scenarioId: z.string().nullable().describe('The scenario applied; null: none.'),
    }),
  ),
});
