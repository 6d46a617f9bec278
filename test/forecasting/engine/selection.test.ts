import { describe, expect, it } from 'vitest';
import { forecastSeries } from '../../../src/services/forecasting/engine/forecast-series.js';
import type { SeriesForecast } from '../../../src/services/forecasting/engine/types.js';

const weeks = (n: number) => Array.from({ length: n }, (_, i) => new Date(Date.UTC(2022, 0, 3) + i * 7 * 86_400_000).toISOString().slice(0, 10));
const run = (values: number[], horizon = 13) => forecastSeries({ key: 'k', values, weekStarts: weeks(values.length) }, { horizon });
/** The chosen method, or an ensemble's heaviest component. */
const leading = (r: SeriesForecast) => (r.components ? [...r.components].sort((a, b) => b.weight - a.weight)[0]!.method : r.method);

describe('forecast engine: method selection on synthetic series', () => {
  it('seasonal: a seasonal method leads and the next season is forecast', () => {
    const season = (t: number) => 100 + 50 * Math.sin((2 * Math.PI * t) / 52);
    const r = run(Array.from({ length: 156 }, (_, t) => season(t)));
    expect(['SEASONAL_NAIVE', 'MSTL', 'ETS']).toContain(leading(r));
    r.points.forEach((p, h) => expect(Math.abs(p.forecast - season(156 + h))).toBeLessThan(5));
    expect(r.demandClass).toBe('SMOOTH');
    expect(r.errorScale).toBe('SEASONAL_NAIVE_MAE');
  });

  it('trending: ETS carries the trend on', () => {
    const r = run(Array.from({ length: 60 }, (_, t) => 10 + 2 * t), 4);
    expect(leading(r)).toBe('ETS');
    r.points.forEach((p, h) => expect(p.forecast).toBeCloseTo(130 + 2 * h, 0));
    expect(r.backtestError).toBeLessThan(0.05);
  });

  it('intermittent: classified so, and one of the intermittent methods is used', () => {
    const values = Array.from({ length: 80 }, (_, t) => (t % 4 === 1 ? 6 + (t % 3) : 0));
    const r = run(values);
    expect(r.demandClass).toBe('INTERMITTENT');
    const used = r.components?.map((c) => c.method) ?? [r.method];
    used.forEach((m) => expect(['SIMPLE_LEVEL', 'CROSTON', 'SBA', 'TSB']).toContain(m));
    // About 7 units every 4 weeks: a rate near 1.75 a week.
    expect(r.points[0]!.forecast).toBeGreaterThan(1);
    expect(r.points[0]!.forecast).toBeLessThan(3);
  });

  it('constant: every method is exact, so the simplest wins with zero error and zero-width intervals', () => {
    const r = run(new Array(30).fill(7));
    expect(r.method).toBe('SIMPLE_LEVEL');
    expect(r.backtestError).toBe(0);
    for (const p of r.points) {
      expect(p.forecast).toBe(7);
      expect(p.intervals.map((i) => [i.lower, i.upper])).toEqual([[7, 7], [7, 7]]);
    }
  });

  it('three points: the simple level, no backtest, model intervals', () => {
    const r = run([3, 5, 7], 2);
    expect(r).toMatchObject({ method: 'SIMPLE_LEVEL', backtestError: null, errorScale: 'NONE', intervalSource: 'MODEL' });
    // Mean of the three points: (3 + 5 + 7) / 3 = 5.
    expect(r.points.map((p) => p.forecast)).toEqual([5, 5]);
    expect(r.points.map((p) => p.periodStart)).toEqual(['2022-01-24', '2022-01-31']);
  });

  it('records every scored candidate and the chosen error', () => {
    // 140 weeks: the earliest of the 8 origins (140 − 13 − 7 = 120) leaves MSTL its two seasons.
    const r = run(Array.from({ length: 140 }, (_, t) => 50 + 10 * Math.sin(t / 5) + (t % 7)));
    expect(r.candidates.map((c) => c.method)).toEqual(expect.arrayContaining(['SIMPLE_LEVEL', 'NAIVE', 'SEASONAL_NAIVE', 'ETS', 'MSTL']));
    expect(r.candidates.find((c) => c.method === r.method)?.error).toBe(r.backtestError);
  });
});
