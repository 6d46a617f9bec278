import { autoEts } from './augurs-wasm.js';
import { SEASON } from './naive-methods.js';
import type { PointForecaster } from './types.js';

/** AutoETS refuses series shorter than this. */
export const ETS_MIN_LENGTH = 10;

/**
 * Additive seasonal indices by classical decomposition: the series less its centred moving average over
 * one season, averaged per position in the season, centred to sum to zero. Position p is the index
 * modulo `period` counted from the first week.
 */
export function seasonalIndices(history: number[], period: number): number[] {
  const n = history.length;
  const half = Math.floor(period / 2);
  const sums = new Array<number>(period).fill(0);
  const counts = new Array<number>(period).fill(0);
  // Centred moving average (2×period when even) via prefix sums.
  const prefix = [0];
  for (const v of history) prefix.push(prefix.at(-1)! + v);
  const windowMean = (from: number, to: number) => (prefix[to]! - prefix[from]!) / (to - from);
  for (let t = half; t + half < n; t++) {
    const trend = period % 2 === 0
      ? (windowMean(t - half, t + half) + windowMean(t - half + 1, t + half + 1)) / 2
      : windowMean(t - half, t + half + 1);
    sums[t % period]! += history[t]! - trend;
    counts[t % period]! += 1;
  }
  const raw = sums.map((s, i) => (counts[i] ? s / counts[i]! : 0));
  const mean = raw.reduce((a, b) => a + b, 0) / period;
  return raw.map((v) => v - mean);
}

/**
 * Exponential smoothing with trend and seasonality: augurs' AutoETS picks error and trend (none,
 * additive, multiplicative; by AICc) on the seasonally adjusted series, then the seasonal indices are
 * added back. augurs' ETS has no seasonal state of its own, so with fewer than two seasons of history
 * the series is smoothed unadjusted.
 */
export function etsWith(period = SEASON): PointForecaster {
  return (history, horizon) => {
    const n = history.length;
    const indices = n >= 2 * period ? seasonalIndices(history, period) : null;
    const adjusted = indices ? history.map((v, t) => v - indices[t % period]!) : history;
    const model = autoEts(1, 'ZZN');
    try {
      model.fit(adjusted);
      const { point } = model.predict(horizon);
      return indices ? point.map((v, h) => v + indices[(n + h) % period]!) : point;
    } finally {
      model.free();
    }
  };
}

export const ets = etsWith();
