import { classifyDemand } from './intermittent-methods.js';
import { candidateMethods, combine, methodByName, selectMethod } from './method-selection.js';
import { conformalWidths, modelWidths } from './prediction-intervals.js';
import type { ForecastOptions, ForecastPoint, SeriesForecast, WeeklySeries } from './types.js';

export const DEFAULT_LEVELS = [80, 95];
export const DEFAULT_BACKTEST_ORIGINS = 8;
/** Origins of the GENERATION profile: three still rank the methods and feed the pooled conformal intervals. */
export const GENERATION_BACKTEST_ORIGINS = 3;
const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

// Reading and generating history calls these for every week of every series (a million times for
// 10,000 series of two years) but meets only a few hundred distinct days: parsing and formatting dates
// was a tenth of the request thread's time in a big run. Bounded, so a long-lived process keeps little.
const CACHE_LIMIT = 20_000;
const formatted = new Map<number, string>();
const parsed = new Map<string, number>();

/** yyyy-mm-dd (UTC) of an instant in epoch milliseconds; throws a RangeError for an invalid one, as toISOString does. */
export function isoDay(ms: number): string {
  let day = formatted.get(ms);
  if (day === undefined) {
    day = new Date(ms).toISOString().slice(0, 10);
    if (formatted.size >= CACHE_LIMIT) formatted.clear();
    formatted.set(ms, day);
  }
  return day;
}

function startOf(weekStart: string | Date): number {
  if (typeof weekStart !== 'string') return weekStart.getTime();
  const key = weekStart.slice(0, 10);
  let ms = parsed.get(key);
  if (ms === undefined) {
    ms = Date.parse(`${key}T00:00:00Z`);
    if (parsed.size >= CACHE_LIMIT) parsed.clear();
    parsed.set(key, ms);
  }
  return ms;
}

/** yyyy-mm-dd of the week `weeksAfter` weeks after the given week start. */
export function weekAfter(weekStart: string | Date, weeksAfter: number): string {
  return isoDay(startOf(weekStart) + weeksAfter * WEEK_MS);
}

/**
 * Forecasts one weekly series: classifies its demand, picks the method by rolling-origin backtest,
 * refits it on the whole history and forecasts `horizon` weeks after the last history week, with
 * conformal intervals from the backtest errors (or normal ones when the series is too short to
 * backtest). Forecasts and bounds are never below zero. Pure: no I/O.
 */
export function forecastSeries(series: WeeklySeries, options: ForecastOptions): SeriesForecast {
  if (series.weekStarts.length !== series.values.length) throw new Error('weekStarts and values differ in length');
  if (!series.values.length) throw new Error('A series needs at least one week of history');
  return forecastHistory(series.values, series.weekStarts.at(-1)!, options, series.key);
}

/** forecastSeries on the values alone and the start of the last history week (what the worker pool sends). */
export function forecastHistory(values: ArrayLike<number>, lastWeek: string | Date, options: ForecastOptions, key?: string): SeriesForecast {
  const history = Array.from(values, (v) => (Number.isFinite(v) ? Math.max(0, v) : 0));
  if (!history.length) throw new Error('A series needs at least one week of history');
  const horizon = options.horizon;
  if (!Number.isInteger(horizon) || horizon < 1) throw new Error('horizon must be a positive integer');
  const levels = options.levels ?? DEFAULT_LEVELS;
  if (levels.some((l) => !(l > 0 && l < 100))) throw new Error('levels must lie strictly between 0 and 100');

  const pattern = classifyDemand(history);
  const profile = options.profile ?? 'DEFAULT';
  const constant = history.every((v) => v === history[0]);
  const names = candidateMethods(pattern?.demandClass ?? null, options.methods, profile, constant);
  const origins = options.backtestOrigins ?? (profile === 'GENERATION' ? GENERATION_BACKTEST_ORIGINS : DEFAULT_BACKTEST_ORIGINS);
  const selection = selectMethod(history, names, horizon, origins, profile);

  const median = selection.components
    ? (() => {
        const parts = selection.components.map((c) => methodByName(c.method, profile)(history, horizon));
        return Array.from({ length: horizon }, (_, h) => combine(selection.components!, parts.map((p) => p[h]!)));
      })()
    : methodByName(selection.method, profile)(history, horizon);

  const widths = (selection.errors && conformalWidths(selection.errors, levels, horizon)) || modelWidths(history, levels, horizon);
  const points: ForecastPoint[] = median.map((value, h) => {
    const forecast = Math.max(0, Number.isFinite(value) ? value : 0);
    return {
      periodStart: weekAfter(lastWeek, h + 1),
      forecast,
      intervals: levels.map((level, i) => {
        const half = widths.halfWidths[i]![h]!;
        return { level, lower: Math.max(0, forecast - half), upper: forecast + half };
      }),
    };
  });

  return {
    ...(key !== undefined ? { key } : {}),
    method: selection.method,
    ...(selection.components ? { components: selection.components } : {}),
    backtestError: selection.error,
    errorScale: selection.error === null ? 'NONE' : selection.scale.kind,
    candidates: selection.candidates,
    demandClass: pattern?.demandClass ?? null,
    intervalSource: widths.source,
    points,
  };
}
