import { SEASON } from './naive-methods.js';
import type { PointForecaster } from './types.js';

/** Longest horizon a backtest scores; longer forecasts extrapolate its error growth. */
export const MAX_BACKTEST_HORIZON = 13;

export interface ErrorScale {
  value: number;
  kind: 'SEASONAL_NAIVE_MAE' | 'NAIVE_MAE' | 'NONE';
}

/** In-sample MAE of the forecast `lag` weeks back; null when the series is not longer than the lag. */
function laggedMae(history: number[], lag: number): number | null {
  if (history.length <= lag) return null;
  let sum = 0;
  for (let t = lag; t < history.length; t++) sum += Math.abs(history[t]! - history[t - lag]!);
  return sum / (history.length - lag);
}

/**
 * The MASE denominator: in-sample seasonal-naive MAE where the series is longer than a season and that
 * MAE is not zero, else the naive-1 MAE, else 1 (a constant series: errors stay in units).
 */
export function errorScale(history: number[], season = SEASON): ErrorScale {
  const seasonal = laggedMae(history, season);
  if (seasonal) return { value: seasonal, kind: 'SEASONAL_NAIVE_MAE' };
  const naive = laggedMae(history, 1);
  if (naive) return { value: naive, kind: 'NAIVE_MAE' };
  return { value: 1, kind: 'NONE' };
}

/** Forecast origins (history lengths) of a rolling-origin backtest, latest first. */
export function backtestOrigins(length: number, horizon: number, count: number, minHistory: number): number[] {
  const origins: number[] = [];
  for (let k = 0; k < count; k++) {
    const origin = length - horizon - k;
    if (origin < minHistory) break;
    origins.push(origin);
  }
  return origins;
}

export interface BacktestRun {
  origins: number[];
  horizon: number;
  /** forecasts[k][h]: the forecast made at origins[k] for h+1 weeks ahead. */
  forecasts: number[][];
}

/** Fits the method at every origin on the history before it; throws when the method throws. */
export function runBacktest(history: number[], method: PointForecaster, origins: number[], horizon: number): BacktestRun {
  const forecasts = origins.map((origin) => method(history.slice(0, origin), horizon).map((v) => Math.max(0, v)));
  return { origins, horizon, forecasts };
}

/** errors[k][h] = actual − forecast. */
export function backtestErrors(history: number[], run: BacktestRun): number[][] {
  return run.forecasts.map((row, k) => row.map((f, h) => history[run.origins[k]! + h]! - f));
}

/** Mean absolute error over every origin and step, divided by the scale. */
export function meanScaledError(errors: number[][], scale: ErrorScale): number {
  let sum = 0;
  let count = 0;
  for (const row of errors) for (const e of row) { sum += Math.abs(e); count++; }
  return count ? sum / count / scale.value : Number.POSITIVE_INFINITY;
}
