import type { ForecastPoint } from '../engine/types.js';

/** lower95/upper95 are always answered, asked for or not: the engine fits this level too. */
export const ALWAYS_LEVEL = 95;

export const roundForecast = (value: number) => Math.round(value * 10_000) / 10_000;

/** The levels to fit: those asked for and ALWAYS_LEVEL. */
export const levelsToFit = (asked: number[]) => (asked.includes(ALWAYS_LEVEL) ? asked : [...asked, ALWAYS_LEVEL]);

/** A point's values as the forecast paths answer them, scaled by `factor`: the first asked level as lower/upper, the 95 % one, every asked level. */
export function answerPoint(point: Pick<ForecastPoint, 'forecast' | 'intervals'>, asked: number[], factor = 1) {
  const bound = (level: number) => {
    const interval = point.intervals.find((i) => i.level === level)!;
    return { level, lower: roundForecast(interval.lower * factor), upper: roundForecast(interval.upper * factor) };
  };
  const intervals = asked.map(bound);
  const at95 = bound(ALWAYS_LEVEL);
  return {
    forecast: roundForecast(point.forecast * factor),
    lower: intervals[0]!.lower,
    upper: intervals[0]!.upper,
    lower95: at95.lower,
    upper95: at95.upper,
    intervals,
  };
}
