import { DEFAULT_LEVELS, weekAfter } from './forecast-series.js';
import type { ForecastOptions, ForecastPoint, SeriesForecast, WeeklySeries } from './types.js';

/**
 * A chunk of series as the worker pool sends it: every value in one Float64Array (transferred, not
 * copied) with the offset of each series, plus the start of each series' last week. The engine needs
 * no other week than the last, so the week arrays stay on the calling thread; structured-cloning
 * thousands of small arrays and strings was most of the calling thread's share of a big batch.
 */
export interface PackedSeries {
  keys: (string | undefined)[];
  lastWeeks: string[];
  /** Series i is values[offsets[i] … offsets[i + 1]). */
  offsets: Int32Array<ArrayBuffer>;
  values: Float64Array<ArrayBuffer>;
}

/** What a series' forecast is besides its points: method, errors, class, interval source. */
export type ForecastSummary = Omit<SeriesForecast, 'points'>;

/**
 * A chunk's forecasts the same way: per series its summary, and the medians and bounds in two
 * Float64Arrays (forecasts[i·horizon + h], bounds[((i·levels + l)·horizon + h)·2 + 0|1] = lower|upper).
 */
export interface PackedForecasts {
  summaries: ForecastSummary[];
  forecasts: Float64Array<ArrayBuffer>;
  bounds: Float64Array<ArrayBuffer>;
}

/** Packs a chunk; refuses a series whose weeks and values differ in length, as forecastSeries does. */
export function packSeries(series: WeeklySeries[]): PackedSeries {
  const offsets = new Int32Array(series.length + 1);
  let total = 0;
  series.forEach((s, i) => {
    if (s.weekStarts.length !== s.values.length) throw new Error('weekStarts and values differ in length');
    if (!s.values.length) throw new Error('A series needs at least one week of history');
    offsets[i] = total;
    total += s.values.length;
  });
  offsets[series.length] = total;
  const values = new Float64Array(total);
  series.forEach((s, i) => values.set(s.values, offsets[i]));
  const lastWeeks = series.map((s) => {
    const last = s.weekStarts.at(-1)!;
    return typeof last === 'string' ? last : last.toISOString();
  });
  return { keys: series.map((s) => s.key), lastWeeks, offsets, values };
}

export function packedCount(packed: PackedSeries): number {
  return packed.offsets.length - 1;
}

/** Series i's values, without copying. */
export function packedValues(packed: PackedSeries, i: number): Float64Array {
  return packed.values.subarray(packed.offsets[i]!, packed.offsets[i + 1]!);
}

export function packForecasts(results: SeriesForecast[], options: ForecastOptions): PackedForecasts {
  const horizon = options.horizon;
  const levels = (options.levels ?? DEFAULT_LEVELS).length;
  const forecasts = new Float64Array(results.length * horizon);
  const bounds = new Float64Array(results.length * levels * horizon * 2);
  const summaries = results.map((result, i) => {
    const { points, ...summary } = result;
    points.forEach((p, h) => {
      forecasts[i * horizon + h] = p.forecast;
      p.intervals.forEach((interval, l) => {
        const at = ((i * levels + l) * horizon + h) * 2;
        bounds[at] = interval.lower;
        bounds[at + 1] = interval.upper;
      });
    });
    return summary;
  });
  return { summaries, forecasts, bounds };
}

/** The forecasts again as SeriesForecast objects; the weeks are worked out from each series' last week (once per distinct last week). */
export function unpackForecasts(packed: PackedForecasts, lastWeeks: string[], options: ForecastOptions): SeriesForecast[] {
  const horizon = options.horizon;
  const levels = options.levels ?? DEFAULT_LEVELS;
  const weeksAfter = new Map<string, string[]>();
  return packed.summaries.map((summary, i) => {
    const last = lastWeeks[i]!;
    let weeks = weeksAfter.get(last);
    if (!weeks) weeksAfter.set(last, (weeks = Array.from({ length: horizon }, (_, h) => weekAfter(last, h + 1))));
    const points: ForecastPoint[] = [];
    for (let h = 0; h < horizon; h++) {
      points.push({
        periodStart: weeks[h]!,
        forecast: packed.forecasts[i * horizon + h]!,
        intervals: levels.map((level, l) => {
          const at = ((i * levels.length + l) * horizon + h) * 2;
          return { level, lower: packed.bounds[at]!, upper: packed.bounds[at + 1]! };
        }),
      });
    }
    return { ...summary, points };
  });
}
