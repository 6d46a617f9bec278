import type { RequestContext } from '../../../context.js';
import { FORECAST_PAGING } from '../../../contracts/forecasting/demand/forecast-query.js';
import type { LongTermQuery } from '../../../contracts/forecasting/projections/long-term-query.js';
import { answerPoint, levelsToFit, roundForecast } from '../demand/answer-points.js';
import { forecastMonthly, type MonthlyForecast } from '../engine/damped-trend.js';
import { readDemandSeries } from '../demand/demand-series.js';
import { checkForecastIds } from '../demand/fit-weekly-series.js';
import type { ForecastEvent } from '../events/forecast-events.js';
import { appliedEvents, type PointLiftSource, periodLift, readAssumptions, seriesAssumptions } from '../demand/forecast-assumptions.js';
import { daysInMonth, monthAfter, toCalendarMonths } from './monthly-series.js';
import { readScenarioApplication, type SeriesAdjustment } from '../scenarios/scenario-adjustments.js';
import { type ListWindow, pageWindow } from '../../tenant.js';
import { asForecastRequest } from '../engine/engine-admission.js';
import { mapInSlices } from '../../../kernel/yielding.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const dayAfter = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);

export interface MonthlyPoint {
  /** yyyy-mm */
  month: string;
  periodStart: string;
  periodEnd: string;
  forecast: number;
  lower: number;
  upper: number;
  lower95: number;
  upper95: number;
  intervals: { level: number; lower: number; upper: number }[];
  /** The mean over the month's days of the stacked lift of the events covering each day (1: none). */
  liftFactor: number;
  liftSource: PointLiftSource;
  /** The scenario's category × channel × global adjustment (1 without). */
  adjustmentFactor: number;
}

export interface LongTermSeriesForecast {
  productMasterId: string;
  locationId: string;
  channel: string;
  method: MonthlyForecast['method'];
  alpha: number;
  beta: number;
  phi: number;
  intervalSource: MonthlyForecast['intervalSource'];
  historyMonths: number;
  firstHistoryMonth: string;
  lastHistoryMonth: string;
  /** Whether the last history month is covered by the weekly history only in part (its units were scaled to the whole month). */
  lastMonthPartial: boolean;
  /** Events that lifted at least one of the months. */
  events: ForecastEvent[];
  /** The scenario's adjustments of this series; null without one. */
  adjustments: SeriesAdjustment | null;
  points: MonthlyPoint[];
}

/**
 * Monthly forecasts, 12 to 24 calendar months after each series' last history month, of one page of
 * the demand-history series (product × location × channel): the weekly history bucketed to calendar
 * months, then a damped trend (with monthly seasonality from two years of history) and conformal
 * intervals from its backtest. The fits are small (one value a month, at most MAX_HISTORY_WEEKS weeks), so
 * they run on this thread, in slices that let other requests in.
 * Then the assumptions of GET /api/forecast: the events reaching the series (a scenario's included ones),
 * each month by the share of its days they cover, and the scenario's category, channel and global
 * adjustments. Overrides are weekly corrections and have no month to replace: not applied.
 */
export async function forecastLongTerm(ctx: RequestContext, input: LongTermQuery, window?: ListWindow) {
  return asForecastRequest(ctx, async () => {
    await checkForecastIds(ctx, input);
    const scenario = input.scenarioId ? await readScenarioApplication(ctx, input.scenarioId) : null;
    const { page, limit, skip, take } = pageWindow(input.page, input.limit, FORECAST_PAGING, window);
    const { total, series } = await readDemandSeries(ctx, { productMasterId: input.productMasterId, locationId: input.locationId, channel: input.channel }, { skip, take });
    const levels = levelsToFit(input.levels);

    // On this thread, a series at a time (at most MAX_HISTORY_WEEKS weeks each), letting other requests in between.
    const fits = await mapInSlices(series, (s) => {
      const buckets = toCalendarMonths(s.weekStarts, s.values);
      return { series: s, buckets, fit: forecastMonthly(buckets.values, input.months, levels), last: buckets.months.at(-1)! };
    });
    const lasts = fits.map((f) => f.last).sort();
    const lastMonth = lasts.length ? monthAfter(lasts.at(-1)!, input.months) : null;
    const assumptions = lasts.length
      ? await readAssumptions(ctx, series, { from: `${monthAfter(lasts[0]!, 1)}-01`, to: dayAfter(`${lastMonth}-${String(daysInMonth(lastMonth!)).padStart(2, '0')}`) }, null)
      : { events: [], categories: new Map() };

    const data = await mapInSlices(fits, ({ series: s, buckets, fit, last }): LongTermSeriesForecast => {
      const { events, adjustment } = seriesAssumptions(assumptions, scenario, s);
      const adjustmentFactor = adjustment?.factor ?? 1;
      const lifted = new Set<ForecastEvent>();
      const points = fit.points.map((p, h): MonthlyPoint => {
        const month = monthAfter(last, h + 1);
        const periodStart = `${month}-01`;
        const periodEnd = `${month}-${String(daysInMonth(month)).padStart(2, '0')}`;
        const lift = periodLift(events, periodStart, periodEnd);
        for (const e of lift.events) lifted.add(e);
        return {
          month,
          periodStart,
          periodEnd,
          ...answerPoint(p, input.levels, lift.factor * adjustmentFactor),
          liftFactor: roundForecast(lift.factor),
          liftSource: lift.source,
          adjustmentFactor: roundForecast(adjustmentFactor),
        };
      });
      return {
        productMasterId: s.productMasterId,
        locationId: s.locationId,
        channel: s.channel,
        method: fit.method,
        ...fit.params,
        intervalSource: fit.intervalSource,
        historyMonths: buckets.months.length,
        firstHistoryMonth: buckets.months[0]!,
        lastHistoryMonth: last,
        lastMonthPartial: buckets.coveredDays.at(-1)! < daysInMonth(last),
        events: appliedEvents(events, lifted),
        adjustments: adjustment && { ...adjustment, factor: roundForecast(adjustment.factor) },
        points,
      };
    });
    return { data, page, limit, total, totalPages: Math.ceil(total / limit), months: input.months, levels: input.levels, scenarioId: scenario?.id ?? null };
  });
}
