import type { PointForecaster } from './types.js';

/** Weeks in a seasonal cycle of weekly demand. */
export const SEASON = 52;
/** How many recent weeks the simple level averages. */
export const SIMPLE_LEVEL_WINDOW = 4;

/** Mean of the last few weeks, flat: the fallback when a series is too short for anything else. */
export const simpleLevel: PointForecaster = (history, horizon) => {
  const recent = history.slice(-SIMPLE_LEVEL_WINDOW);
  const level = recent.length ? recent.reduce((a, b) => a + b, 0) / recent.length : 0;
  return Array.from({ length: horizon }, () => level);
};

/** The last week, flat. */
export const naive: PointForecaster = (history, horizon) => {
  const last = history.at(-1) ?? 0;
  return Array.from({ length: horizon }, () => last);
};

/** The same week one season back (repeating the last season beyond one season ahead). */
export function seasonalNaiveWith(period: number): PointForecaster {
  return (history, horizon) => {
    const n = history.length;
    if (n < period) return naive(history, horizon);
    return Array.from({ length: horizon }, (_, h) => history[n - period + (h % period)]!);
  };
}

export const seasonalNaive = seasonalNaiveWith(SEASON);
