import type { RequestContext } from '../../context.js';
import { FORECAST_PAGING } from '../../contracts/forecasting/forecast-query.js';
import { longTermQuery, type LongTermQueryInput } from '../../contracts/forecasting/long-term-query.js';
import { answerPoint, levelsToFit, roundForecast } from './answer-points.js';
import { forecastMonthly, type MonthlyForecast } from './engine/damped-trend.js';
import { readDemandSeries } from './demand-series.js';
import { checkForecastIds } from './fit-weekly-series.js';
import { daysInMonth, monthAfter, toCalendarMonths } from './monthly-series.js';
import { pageArgs, parseInput } from '../tenant.js';

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
  points: MonthlyPoint[];
}

/**
 * Monthly forecasts, 12 to 24 calendar months after each series' last history month, of one page of
 * the demand-history series (product × location × channel): the weekly history bucketed to calendar
 * months, then a damped trend (with monthly seasonality from two years of history) and conformal
 * intervals from its backtest. The fits are small (one value a month), so they run on this thread.
 */
export async function forecastLongTerm(ctx: RequestContext, raw: LongTermQueryInput) {
  const input = parseInput(longTermQuery, raw);
  await checkForecastIds(ctx, input);
  const { page, limit, skip } = pageArgs(input.page, input.limit, FORECAST_PAGING);
  const { total, series } = await readDemandSeries(ctx, { productMasterId: input.productMasterId, locationId: input.locationId, channel: input.channel }, { skip, take: limit });
  const levels = levelsToFit(input.levels);

  const data = series.map((s): LongTermSeriesForecast => {
    const buckets = toCalendarMonths(s.weekStarts, s.values);
    const fit = forecastMonthly(buckets.values, input.months, levels);
    const last = buckets.months.at(-1)!;
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
      points: fit.points.map((p, h) => {
        const month = monthAfter(last, h + 1);
        return { month, periodStart: `${month}-01`, periodEnd: `${month}-${String(daysInMonth(month)).padStart(2, '0')}`, ...answerPoint(p, input.levels) };
      }),
    };
  });
  return { data, page, limit, total, totalPages: Math.ceil(total / limit), months: input.months, levels: input.levels };
}
