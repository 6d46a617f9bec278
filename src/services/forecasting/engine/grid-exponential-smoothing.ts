import { seasonalIndices } from './exponential-smoothing.js';
import { SEASON } from './naive-methods.js';
import type { PointForecaster } from './types.js';

export interface SmoothingParams {
  /** Level smoothing, 0 < alpha ≤ 1. */
  alpha: number;
  /** Trend smoothing; null: no trend (simple exponential smoothing). */
  beta: number | null;
  /** Damping of the trend, 0 < phi ≤ 1; ignored without a trend. */
  phi: number;
}

/**
 * Additive exponential smoothing, with no trend or a damped additive trend. Level l starts at y0,
 * trend b at 0; for t ≥ 1 the one-step forecast is l + phi·b, its error e = y_t − (l + phi·b), then
 *   l ← l + phi·b + alpha·e,  b ← phi·b + alpha·beta·e   (the error-correction form of Holt's method).
 * Answers the forecast h steps ahead, l + (phi + … + phi^h)·b, and the sum of squared one-step errors.
 */
export function smooth(history: number[], horizon: number, params: SmoothingParams) {
  const { alpha, beta } = params;
  const phi = beta === null ? 0 : params.phi;
  let level = history[0] ?? 0;
  let trend = 0;
  let sse = 0;
  for (let t = 1; t < history.length; t++) {
    const expected = level + phi * trend;
    const error = history[t]! - expected;
    sse += error * error;
    level = expected + alpha * error;
    if (beta !== null) trend = phi * trend + alpha * beta * error;
  }
  const forecast: number[] = [];
  let damping = 0;
  for (let h = 1; h <= horizon; h++) {
    damping += phi ** h;
    forecast.push(level + damping * trend);
  }
  return { forecast, sse };
}

const ALPHAS = [0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 0.9];
const BETAS = [0.05, 0.2];
const PHIS = [0.9, 0.98];

/** Small-sample corrected AIC of a fit by its one-step squared errors over n residuals with k parameters. */
export function aicc(sse: number, n: number, k: number): number {
  if (n - k - 1 <= 0) return Number.POSITIVE_INFINITY;
  return n * Math.log(Math.max(sse, 1e-12) / n) + 2 * k + (2 * k * (k + 1)) / (n - k - 1);
}

/**
 * The grid point with the least AICc: simple exponential smoothing (2 parameters: alpha and the start
 * level) against damped trend (5: alpha, beta, phi, start level and trend). Ties keep the first, so the
 * model without trend wins an equal score.
 */
export function fitSmoothing(history: number[]): SmoothingParams {
  const n = history.length - 1;
  let best: SmoothingParams = { alpha: ALPHAS[0]!, beta: null, phi: 1 };
  let bestScore = Number.POSITIVE_INFINITY;
  const consider = (params: SmoothingParams, k: number) => {
    const score = aicc(smooth(history, 0, params).sse, n, k);
    if (score < bestScore) {
      bestScore = score;
      best = params;
    }
  };
  for (const alpha of ALPHAS) consider({ alpha, beta: null, phi: 1 }, 2);
  for (const alpha of ALPHAS) for (const beta of BETAS) for (const phi of PHIS) consider({ alpha, beta, phi }, 5);
  return best;
}

/**
 * The exponential-smoothing family of the generation profile: the same seasonal adjustment as the
 * AutoETS method (additive indices by classical decomposition with two seasons of history), then level
 * or damped trend chosen by AICc on a fixed grid of smoothing constants. A grid costs microseconds
 * where AutoETS's optimiser costs milliseconds a fit, which is what lets a scenario of thousands of
 * series be generated in seconds.
 */
export function gridEtsWith(period = SEASON): PointForecaster {
  return (history, horizon) => {
    const n = history.length;
    const indices = n >= 2 * period ? seasonalIndices(history, period) : null;
    const adjusted = indices ? history.map((v, t) => v - indices[t % period]!) : history;
    const { forecast } = smooth(adjusted, horizon, fitSmoothing(adjusted));
    return indices ? forecast.map((v, h) => v + indices[(n + h) % period]!) : forecast;
  };
}

export const gridEts = gridEtsWith();
