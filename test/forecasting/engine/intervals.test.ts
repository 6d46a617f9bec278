import { describe, expect, it } from 'vitest';
import { forecastSeries } from '../../../src/services/forecasting/engine/forecast-series.js';
import { conformalQuantile, conformalWidths, normalQuantile } from '../../../src/services/forecasting/engine/prediction-intervals.js';

const weeks = (n: number) => Array.from({ length: n }, (_, i) => new Date(Date.UTC(2022, 0, 3) + i * 7 * 86_400_000).toISOString().slice(0, 10));

describe('forecast engine: prediction intervals', () => {
  it('conformal quantile: the ⌈(n + 1)·level⌉-th smallest score', () => {
    // Nine scores, 80%: rank ⌈10 · 0.8⌉ = 8 → 8.
    expect(conformalQuantile([9, 1, 8, 2, 7, 3, 6, 4, 5], 0.8)).toBe(8);
    // Three scores cannot give 95%: rank ⌈4 · 0.95⌉ = 4 > 3.
    expect(conformalQuantile([1, 2, 3], 0.95)).toBeNull();
  });

  it('by step when every step has enough errors; beyond the backtest the width grows with √h', () => {
    // Two origins, two steps, level 50%: rank ⌈3 · 0.5⌉ = 2 of each step's absolute errors:
    // step 1 |1|, |−1| → 1; step 2 |−2|, |4| → 4; step 3 = 4 · √(3/2) = 4.898979.
    const widths = conformalWidths([[1, -2], [-1, 4]], [50], 3)!;
    expect(widths.source).toBe('CONFORMAL_BY_STEP');
    expect(widths.halfWidths[0]![0]).toBe(1);
    expect(widths.halfWidths[0]![1]).toBe(4);
    expect(widths.halfWidths[0]![2]).toBeCloseTo(4 * Math.sqrt(1.5), 9);
  });

  it('pooled over steps, each scaled by its MAE, when a step has too few errors', () => {
    // Level 80% needs ⌈3 · 0.8⌉ = 3 > 2 errors per step: pooled. Step MAEs 1 and 3; scores
    // 1/1, 1/1, 2/3, 4/3 → rank ⌈5 · 0.8⌉ = 4 → 4/3; widths 4/3 · 1 and 4/3 · 3 = 4.
    const widths = conformalWidths([[1, -2], [-1, 4]], [80], 2)!;
    expect(widths.source).toBe('CONFORMAL_POOLED');
    expect(widths.halfWidths[0]![0]).toBeCloseTo(4 / 3, 9);
    expect(widths.halfWidths[0]![1]).toBeCloseTo(4, 9);
  });

  it('normal quantiles', () => {
    expect(normalQuantile(0.9)).toBeCloseTo(1.281552, 5);
    expect(normalQuantile(0.975)).toBeCloseTo(1.959964, 5);
    expect(normalQuantile(0.01)).toBeCloseTo(-2.326348, 5);
  });

  it('are ordered (95% around 80% around the forecast) and never below zero', () => {
    const noisy = Array.from({ length: 110 }, (_, t) => Math.max(0, 20 + 15 * Math.sin(t / 3) + ((t * 7919) % 13) - 6));
    const intermittent = Array.from({ length: 60 }, (_, t) => (t % 5 === 0 ? 4 : 0));
    for (const values of [noisy, intermittent, [1, 0, 2]]) {
      const r = forecastSeries({ values, weekStarts: weeks(values.length) }, { horizon: 20, levels: [80, 95] });
      for (const p of r.points) {
        const [i80, i95] = p.intervals;
        expect(i80!.level).toBe(80);
        expect(i95!.level).toBe(95);
        expect(i95!.lower).toBeLessThanOrEqual(i80!.lower);
        expect(i80!.lower).toBeLessThanOrEqual(p.forecast);
        expect(p.forecast).toBeLessThanOrEqual(i80!.upper);
        expect(i80!.upper).toBeLessThanOrEqual(i95!.upper);
        expect(i95!.lower).toBeGreaterThanOrEqual(0);
        expect(p.forecast).toBeGreaterThanOrEqual(0);
      }
    }
  });

  it('takes the levels asked for, in that order', () => {
    const r = forecastSeries({ values: Array.from({ length: 40 }, (_, t) => 10 + (t % 3)), weekStarts: weeks(40) }, { horizon: 2, levels: [95, 50] });
    expect(r.points[0]!.intervals.map((i) => i.level)).toEqual([95, 50]);
    expect(r.points[0]!.intervals[0]!.upper).toBeGreaterThanOrEqual(r.points[0]!.intervals[1]!.upper);
  });
});
