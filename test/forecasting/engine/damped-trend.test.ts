import { describe, expect, it } from 'vitest';
import { dampedHolt, dampedTrend, fitDampedHolt, forecastMonthly } from '../../../src/services/forecasting/engine/damped-trend.js';
import { toCalendarMonths } from '../../../src/services/forecasting/projections/monthly-series.js';

// The monthly method of the long-term forecast against hand-computed values, and the bucketing of weeks to months.

describe('damped-trend Holt', () => {
  it('matches the recursion by hand on 10, 12, 13 (alpha 0.5, beta 0.5, phi 0.9)', () => {
    // l0 = 10, b0 = 2. t=1: expected 11.8, l = 11.9, b = 0.5·1.9 + 0.5·0.9·2 = 1.85.
    // t=2: expected 11.9 + 0.9·1.85 = 13.565 (error −0.565), l = 13.2825, b = 0.5·1.3825 + 0.5·0.9·1.85 = 1.52375.
    const { forecast, level, trend, sse } = dampedHolt([10, 12, 13], 2, { alpha: 0.5, beta: 0.5, phi: 0.9 });
    expect(level).toBeCloseTo(13.2825, 10);
    expect(trend).toBeCloseTo(1.52375, 10);
    expect(sse).toBeCloseTo(0.565 ** 2, 10);
    // h=1: l + 0.9·b; h=2: l + (0.9 + 0.81)·b.
    expect(forecast[0]).toBeCloseTo(14.653875, 10);
    expect(forecast[1]).toBeCloseTo(15.8881125, 10);
  });

  it('flattens a straight line: each step adds less, and the forecast stays below l + b·phi/(1 − phi)', () => {
    const line = Array.from({ length: 20 }, (_, t) => 100 + 10 * t);
    const fit = dampedTrend(line, 24);
    expect(fit.method).toBe('DAMPED_TREND');
    expect(fit.params.phi).toBeLessThan(1);
    const steps = fit.forecast.slice(1).map((v, h) => v - fit.forecast[h]!);
    for (const step of steps) expect(step).toBeGreaterThan(0);
    steps.slice(1).forEach((step, h) => expect(step).toBeLessThan(steps[h]!));
    const { level, trend } = dampedHolt(line, 0, fit.params);
    const limit = level + (trend * fit.params.phi) / (1 - fit.params.phi);
    for (const value of fit.forecast) expect(value).toBeLessThan(limit);
    // An undamped line would reach 290 + 24·10 = 530 after 24 months.
    expect(fit.forecast.at(-1)!).toBeLessThan(530);
  });

  it('picks the grid point with the least one-step squared error: a line has its trend fitted with little smoothing needed', () => {
    const line = Array.from({ length: 12 }, (_, t) => 5 * t);
    const params = fitDampedHolt(line);
    const best = dampedHolt(line, 0, params).sse;
    for (const alpha of [0.1, 0.5, 0.9]) for (const phi of [0.8, 0.9]) expect(dampedHolt(line, 0, { alpha, beta: 0.1, phi }).sse).toBeGreaterThanOrEqual(best);
  });

  it('with two years of months adds the 12-month seasonal indices back: a pure season repeats exactly', () => {
    const season = [5, 8, 12, 20, 30, 40, 45, 40, 30, 20, 12, 8];
    const history = [...season, ...season, ...season];
    const fit = dampedTrend(history, 18);
    expect(fit.method).toBe('DAMPED_TREND_SEASONAL');
    fit.forecast.forEach((v, h) => expect(v).toBeCloseTo(season[h % 12]!, 6));
  });
});

describe('forecastMonthly', () => {
  it('intervals are ordered, nested and never below zero; a constant series has zero width from its backtest', () => {
    const constant = forecastMonthly(Array(20).fill(300), 12, [80, 95]);
    // 20 months, 12 ahead: three origins, too few for a 95 % quantile per step, so the errors are pooled.
    expect(constant.intervalSource).toBe('CONFORMAL_POOLED');
    for (const p of constant.points) {
      expect(p.forecast).toBeCloseTo(300, 6);
      for (const i of p.intervals) expect([i.lower, i.upper]).toEqual([p.forecast, p.forecast]);
    }
    const noisy = forecastMonthly([3, 0, 9, 1, 0, 12, 2, 0, 0, 7, 1, 0, 4, 0, 0, 5, 8, 0], 24, [80, 95]);
    expect(noisy.points).toHaveLength(24);
    for (const p of noisy.points) {
      const [i80, i95] = [p.intervals[0]!, p.intervals[1]!];
      expect(i95.lower).toBeGreaterThanOrEqual(0);
      expect(p.forecast).toBeGreaterThanOrEqual(0);
      expect(i95.lower).toBeLessThanOrEqual(i80.lower);
      expect(i80.lower).toBeLessThanOrEqual(p.forecast);
      expect(p.forecast).toBeLessThanOrEqual(i80.upper);
      expect(i80.upper).toBeLessThanOrEqual(i95.upper);
    }
  });

  it('one month of history: a flat forecast with normal intervals from its size', () => {
    const fit = forecastMonthly([40], 12, [80]);
    expect(fit.intervalSource).toBe('MODEL');
    for (const p of fit.points) expect(p.forecast).toBe(40);
    expect(fit.points[0]!.intervals[0]!.lower).toBeGreaterThanOrEqual(0);
  });
});

describe('toCalendarMonths', () => {
  it('spreads a week over its days, splits weeks across a month end, and scales partly covered months to the whole month', () => {
    // Week of 2024-01-22 (all January): 7 units. Week of 2024-01-29: 3 days in January, 4 in February, 14 units (2 a day).
    const buckets = toCalendarMonths(['2024-01-22', '2024-01-29'], [7, 14]);
    expect(buckets.months).toEqual(['2024-01', '2024-02']);
    expect(buckets.coveredDays).toEqual([10, 4]);
    // January: 7 + 6 = 13 units over 10 days → 13·31/10; February (29 days in 2024): 8 units over 4 days → 8·29/4.
    expect(buckets.values[0]).toBeCloseTo(40.3, 10);
    expect(buckets.values[1]).toBeCloseTo(58, 10);
  });

  it('10 units a day make each month 10 × its days', () => {
    const weeks = Array.from({ length: 60 }, (_, i) => new Date(Date.parse('2024-01-01T00:00:00Z') + i * 7 * 86_400_000).toISOString().slice(0, 10));
    const buckets = toCalendarMonths(weeks, Array(60).fill(70));
    expect(buckets.months[0]).toBe('2024-01');
    expect(buckets.values.slice(0, 3)).toEqual([310, 290, 310].map((v) => expect.closeTo(v, 9)));
  });
});
