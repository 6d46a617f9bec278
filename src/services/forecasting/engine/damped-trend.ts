import { backtestErrors, backtestOrigins, runBacktest } from './backtest.js';
import { seasonalIndices } from './exponential-smoothing.js';
import { conformalWidths, modelWidths, type IntervalWidths } from './prediction-intervals.js';

/** Months in a year: the season of a monthly series. */
export const MONTHLY_SEASON = 12;
/** Rolling-origin backtest of the monthly method: at most this many months ahead, this many origins, each with at least this much history. */
const BACKTEST_HORIZON = 12;
const BACKTEST_ORIGINS = 8;
const BACKTEST_MIN_HISTORY = 6;

export interface DampedTrendParams {
  /** Level smoothing, 0 < alpha ≤ 1. */
  alpha: number;
  /** Trend smoothing, 0 ≤ beta ≤ 1. */
  beta: number;
  /** Damping, 0 < phi ≤ 1 (1: Holt's linear trend). */
  phi: number;
}

/**
 * Damped-trend (additive) Holt on a series: level l and trend b start at y0 and y1 − y0 (0 with one
 * value), then for t ≥ 1
 *   l_t = alpha·y_t + (1 − alpha)(l_{t−1} + phi·b_{t−1}),  b_t = beta(l_t − l_{t−1}) + (1 − beta)·phi·b_{t−1};
 * the forecast h steps ahead is l_n + (phi + phi² + … + phi^h)·b_n, which flattens towards
 * l_n + b_n·phi/(1 − phi). Also answers the in-sample one-step squared error from t = 2 (t = 1 is
 * fitted exactly by the start values).
 */
export function dampedHolt(history: number[], horizon: number, params: DampedTrendParams) {
  const { alpha, beta, phi } = params;
  let level = history[0] ?? 0;
  let trend = history.length > 1 ? history[1]! - history[0]! : 0;
  let sse = 0;
  for (let t = 1; t < history.length; t++) {
    const expected = level + phi * trend;
    if (t >= 2) sse += (history[t]! - expected) ** 2;
    const previous = level;
    level = alpha * history[t]! + (1 - alpha) * expected;
    trend = beta * (level - previous) + (1 - beta) * phi * trend;
  }
  const forecast: number[] = [];
  let damping = 0;
  for (let h = 1; h <= horizon; h++) {
    damping += phi ** h;
    forecast.push(level + damping * trend);
  }
  return { forecast, level, trend, sse };
}

const ALPHAS = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];
const BETAS = [0.01, 0.05, 0.1, 0.2, 0.3];
// At most 0.98: an undamped trend (phi = 1) is what a long horizon must not extrapolate.
const PHIS = [0.8, 0.85, 0.9, 0.95, 0.98];

/** The grid point (alpha, beta, phi) with the least in-sample one-step squared error; ties keep the first. */
export function fitDampedHolt(history: number[]): DampedTrendParams {
  let best: DampedTrendParams = { alpha: ALPHAS[0]!, beta: BETAS[0]!, phi: PHIS[0]! };
  let bestSse = Number.POSITIVE_INFINITY;
  for (const alpha of ALPHAS) {
    for (const beta of BETAS) {
      for (const phi of PHIS) {
        const { sse } = dampedHolt(history, 0, { alpha, beta, phi });
        if (sse < bestSse - 1e-9) {
          bestSse = sse;
          best = { alpha, beta, phi };
        }
      }
    }
  }
  return best;
}

export interface DampedTrendFit {
  method: 'DAMPED_TREND' | 'DAMPED_TREND_SEASONAL';
  params: DampedTrendParams;
  forecast: number[];
}

/**
 * Damped trend with additive seasonality on a monthly series: with two years of history or more, the
 * classical seasonal indices (period 12) are taken out, the damped Holt is fitted (grid search) on the
 * adjusted series, and the indices added back; with less, the damped Holt alone. Point forecasts may be
 * below zero (the caller clamps).
 */
export function dampedTrend(history: number[], horizon: number, season = MONTHLY_SEASON): DampedTrendFit {
  const indices = history.length >= 2 * season ? seasonalIndices(history, season) : null;
  const adjusted = indices ? history.map((v, t) => v - indices[t % season]!) : history;
  const params = fitDampedHolt(adjusted);
  const { forecast } = dampedHolt(adjusted, horizon, params);
  const n = history.length;
  return {
    method: indices ? 'DAMPED_TREND_SEASONAL' : 'DAMPED_TREND',
    params,
    forecast: indices ? forecast.map((v, h) => v + indices[(n + h) % season]!) : forecast,
  };
}

export interface MonthlyForecast extends DampedTrendFit {
  /** Point forecasts, never below zero. */
  points: { forecast: number; intervals: { level: number; lower: number; upper: number }[] }[];
  intervalSource: IntervalWidths['source'];
}

/**
 * Forecasts a monthly series `horizon` months ahead by the damped trend, with conformal intervals from a
 * rolling-origin backtest of the same method (at most 12 months ahead, 8 origins, each with 6 months
 * of history or more; further steps widen by √h), or normal ones from the history's spread when the
 * series is too short to backtest. Forecasts and bounds never go below zero. Pure: no I/O.
 */
export function forecastMonthly(values: number[], horizon: number, levels: number[]): MonthlyForecast {
  const history = values.map((v) => (Number.isFinite(v) ? Math.max(0, v) : 0));
  if (!history.length) throw new Error('A series needs at least one month of history');
  const fit = dampedTrend(history, horizon);
  const steps = Math.min(BACKTEST_HORIZON, horizon, history.length - BACKTEST_MIN_HISTORY);
  const origins = steps >= 1 ? backtestOrigins(history.length, steps, BACKTEST_ORIGINS, BACKTEST_MIN_HISTORY) : [];
  const errors = origins.length
    ? backtestErrors(history, runBacktest(history, (h, n) => dampedTrend(h, n).forecast, origins, steps))
    : null;
  const widths = (errors && conformalWidths(errors, levels, horizon)) || modelWidths(history, levels, horizon);
  const points = fit.forecast.map((value, h) => {
    const forecast = Math.max(0, value);
    return {
      forecast,
      intervals: levels.map((level, i) => {
        const half = widths.halfWidths[i]![h]!;
        return { level, lower: Math.max(0, forecast - half), upper: forecast + half };
      }),
    };
  });
  return { ...fit, points, intervalSource: widths.source };
}
