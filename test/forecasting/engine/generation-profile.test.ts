import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { forecastSeries, isoDay, weekAfter } from '../../../src/services/forecasting/engine/forecast-series.js';
import { aicc, fitSmoothing, gridEts, smooth } from '../../../src/services/forecasting/engine/grid-exponential-smoothing.js';
import { packForecasts, packSeries, packedValues, unpackForecasts } from '../../../src/services/forecasting/engine/series-transport.js';
import { ForecastWorkerPool } from '../../../src/services/forecasting/engine/worker-pool.js';
import { kindOf, syntheticSeries } from '../../../bench/forecasting/synthetic.js';
import { GENERATION_PROFILE_MIN_SERIES, runProfile } from '../../../src/services/forecasting/demand/fit-weekly-series.js';

const weeks = (n: number) => Array.from({ length: n }, (_, i) => new Date(Date.UTC(2022, 0, 3) + i * 7 * 86_400_000).toISOString().slice(0, 10));
const generation = (values: number[], horizon = 13) => forecastSeries({ key: 'k', values, weekStarts: weeks(values.length) }, { horizon, profile: 'GENERATION' });

describe('grid exponential smoothing (the GENERATION profile ETS)', () => {
  it('simple exponential smoothing by hand: [10, 12, 11], alpha 0.5', () => {
    // l0 = 10; t=1: e = 2, l = 11; t=2: e = 0, l = 11. SSE 4, flat forecast 11.
    const r = smooth([10, 12, 11], 2, { alpha: 0.5, beta: null, phi: 1 });
    expect(r.sse).toBeCloseTo(4, 12);
    expect(r.forecast).toEqual([11, 11]);
  });

  it('damped trend by hand: [10, 12, 14], alpha 0.5, beta 0.2, phi 0.9', () => {
    // t=1: expected 10, e 2, l 11, b 0.2. t=2: expected 11 + 0.18 = 11.18, e 2.82, l 12.59, b 0.18 + 0.282 = 0.462.
    // h=1: 12.59 + 0.9·0.462 = 13.0058; h=2: 12.59 + 1.71·0.462 = 13.38002. SSE 4 + 2.82² = 11.9524.
    const r = smooth([10, 12, 14], 2, { alpha: 0.5, beta: 0.2, phi: 0.9 });
    expect(r.sse).toBeCloseTo(11.9524, 10);
    expect(r.forecast[0]).toBeCloseTo(13.0058, 10);
    expect(r.forecast[1]).toBeCloseTo(13.38002, 10);
  });

  it('AICc by hand, and infinite when there are too few residuals for the parameters', () => {
    // n = 20, k = 2, SSE 20: 20·ln(1) + 4 + 12/17.
    expect(aicc(20, 20, 2)).toBeCloseTo(4 + 12 / 17, 12);
    expect(aicc(1, 5, 5)).toBe(Number.POSITIVE_INFINITY);
  });

  it('a straight line gets a trend and is carried on; a level with noise gets none', () => {
    expect(fitSmoothing(Array.from({ length: 40 }, (_, t) => 10 + 3 * t)).beta).not.toBeNull();
    const forecast = gridEts(Array.from({ length: 40 }, (_, t) => 10 + 3 * t), 3);
    forecast.forEach((f, h) => expect(f).toBeGreaterThan(10 + 3 * 39));
    expect(fitSmoothing(Array.from({ length: 60 }, (_, t) => 50 + ((t * 37) % 11) - 5)).beta).toBeNull();
  });

  it('with two seasons of history the season is added back', () => {
    const season = (t: number) => 100 + 40 * Math.sin((2 * Math.PI * t) / 52);
    const forecast = gridEts(Array.from({ length: 156 }, (_, t) => season(t)), 13);
    forecast.forEach((f, h) => expect(Math.abs(f - season(156 + h))).toBeLessThan(3));
  });
});

describe('forecast engine: the GENERATION profile', () => {
  it('scores the cheap candidates only: no MSTL, three origins', () => {
    const r = generation(Array.from({ length: 156 }, (_, t) => 100 + 40 * Math.sin((2 * Math.PI * t) / 52) + ((t * 7) % 5)));
    expect(r.candidates.map((c) => c.method)).not.toContain('MSTL');
    expect(r.candidates.map((c) => c.method)).toEqual(expect.arrayContaining(['SIMPLE_LEVEL', 'NAIVE', 'SEASONAL_NAIVE', 'ETS']));
    expect(r.intervalSource).toBe('CONFORMAL_POOLED'); // 3 origins are too few for a 95% quantile per step
  });

  it('intermittent demand is scored on the intermittent family', () => {
    const r = generation(Array.from({ length: 104 }, (_, t) => (t % 5 === 2 ? 4 + (t % 3) : 0)));
    expect(r.demandClass).toBe('INTERMITTENT');
    r.candidates.forEach((c) => expect(['SIMPLE_LEVEL', 'CROSTON', 'SBA', 'TSB', 'ENSEMBLE']).toContain(c.method));
  });

  it('a constant series is scored on the simple level alone, in both profiles', () => {
    for (const profile of ['DEFAULT', 'GENERATION'] as const) {
      const r = forecastSeries({ values: new Array(104).fill(9), weekStarts: weeks(104) }, { horizon: 4, profile });
      expect(r).toMatchObject({ method: 'SIMPLE_LEVEL', backtestError: 0, candidates: [{ method: 'SIMPLE_LEVEL', error: 0 }] });
      r.points.forEach((p) => expect(p.intervals.map((i) => [i.lower, p.forecast, i.upper])).toEqual([[9, 9, 9], [9, 9, 9]]));
    }
  });

  it('on the synthetic scale mix: forecasts and bounds finite, never below zero, ordered, the 95% interval around the 80% one', () => {
    const sample = syntheticSeries(300);
    sample.forEach((s, i) => {
      const r = forecastSeries(s, { horizon: 13, profile: 'GENERATION' });
      expect(r.points, kindOf(i)).toHaveLength(13);
      for (const p of r.points) {
        const [i80, i95] = p.intervals;
        expect(Number.isFinite(p.forecast) && p.forecast >= 0).toBe(true);
        expect(i80!.lower).toBeGreaterThanOrEqual(0);
        expect(i80!.lower).toBeLessThanOrEqual(p.forecast);
        expect(i80!.upper).toBeGreaterThanOrEqual(p.forecast);
        expect(i95!.lower).toBeLessThanOrEqual(i80!.lower);
        expect(i95!.upper).toBeGreaterThanOrEqual(i80!.upper);
      }
    });
  });

  it('a stored run uses it from GENERATION_PROFILE_MIN_SERIES series on; smaller runs store what GET /api/forecast answers', () => {
    expect(GENERATION_PROFILE_MIN_SERIES).toBe(1000);
    expect(runProfile(1)).toBe('DEFAULT');
    expect(runProfile(999)).toBe('DEFAULT');
    expect(runProfile(1000)).toBe('GENERATION');
    expect(runProfile(10_000)).toBe('GENERATION');
  });

  it('the synthetic generator is deterministic and has the mix it claims', () => {
    expect(syntheticSeries(50)).toEqual(syntheticSeries(50));
    const counts: Record<string, number> = {};
    for (let i = 0; i < 100; i++) counts[kindOf(i)] = (counts[kindOf(i)] ?? 0) + 1;
    expect(counts).toEqual({ SEASONAL: 35, TRENDING: 15, ERRATIC: 10, INTERMITTENT: 25, LUMPY: 10, CONSTANT: 3, SHORT: 2 });
  });
});

describe('forecast engine: week arithmetic (cached)', () => {
  it('weekAfter answers what plain Date arithmetic does, for strings, Dates with a time of day and many repeats', () => {
    const plain = (start: string | Date, n: number) =>
      new Date((typeof start === 'string' ? new Date(`${start.slice(0, 10)}T00:00:00Z`) : start).getTime() + n * 7 * 86_400_000).toISOString().slice(0, 10);
    for (let k = 0; k < 3000; k++) {
      const start = new Date(Date.UTC(1990, 0, 1) + ((k * 7919) % 20_000) * 86_400_000 + (k % 5) * 3_600_000);
      const n = (k % 210) - 105;
      expect(weekAfter(start, n)).toBe(plain(start, n));
      expect(weekAfter(start.toISOString(), n)).toBe(plain(start.toISOString(), n));
      expect(weekAfter(start.toISOString().slice(0, 10), n)).toBe(plain(start.toISOString().slice(0, 10), n));
    }
    expect(isoDay(Date.UTC(2024, 1, 29, 23, 59))).toBe('2024-02-29');
  });

  it('an invalid date still throws', () => {
    expect(() => weekAfter('not a date', 1)).toThrow(RangeError);
    expect(() => isoDay(Number.NaN)).toThrow(RangeError);
  });
});

describe('forecast engine: packed transport of the worker pool', () => {
  const pool = new ForecastWorkerPool({ size: 1 });
  afterAll(() => pool.close());
  const sample = syntheticSeries(120);

  it('packing keeps every value and the last weeks; unpacking gives back what forecastSeries answers', () => {
    const packed = packSeries(sample);
    sample.forEach((s, i) => expect(Array.from(packedValues(packed, i))).toEqual(s.values));
    const options = { horizon: 6, levels: [50, 80, 95], profile: 'GENERATION' as const };
    const results = sample.map((s) => forecastSeries(s, options));
    expect(unpackForecasts(packForecasts(results, options), packed.lastWeeks, options)).toEqual(results);
  });

  it('the pool answers the GENERATION profile exactly as in process, with Date weeks too', async () => {
    const options = { horizon: 13, profile: 'GENERATION' as const };
    const withDates = sample.map((s) => ({ ...s, weekStarts: s.weekStarts.map((w) => new Date(`${w}T00:00:00Z`)) }));
    expect(await pool.forecastBatch(withDates, options)).toEqual(sample.map((s) => forecastSeries(s, options)));
  });

  it.runIf(process.platform === 'linux')('its worker threads run at the lower priority, the calling thread keeps its own', async () => {
    const niceOf = (task: string) => Number(readFileSync(`/proc/self/task/${task}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]);
    const before = new Set(readdirSync('/proc/self/task').filter((t) => niceOf(t) === 10));
    const niced = new ForecastWorkerPool({ size: 1, niceness: 10 });
    try {
      await niced.forecastBatch(sample.slice(0, 2), { horizon: 2 });
      const lowered = readdirSync('/proc/self/task').filter((t) => niceOf(t) === 10 && !before.has(t));
      expect(lowered.length).toBeGreaterThanOrEqual(1);
      expect(niceOf(String(process.pid))).toBe(0);
    } finally {
      await niced.close();
    }
  });

  it('refuses a niceness out of range', () => {
    expect(() => new ForecastWorkerPool({ niceness: 20 })).toThrow();
    expect(() => new ForecastWorkerPool({ niceness: 1.5 })).toThrow();
  });
});
