import { describe, expect, it } from 'vitest';
import { applyEventLifts, eventCoversWeek, liftFactor } from '../../../src/services/forecasting/engine/event-lifts.js';

const point = (periodStart: string, forecast = 100) => ({ periodStart, forecast, intervals: [{ level: 80, lower: 80, upper: 120 }] });

describe('forecast engine: event lifts', () => {
  it('MULTIPLICATIVE lifts multiply: +20% and +10% → 1.2 · 1.1 = 1.32', () => {
    expect(liftFactor([{ startsAt: '2024-01-01', endsAt: '2024-01-07', liftPct: 20, stackingMode: 'MULTIPLICATIVE' }, { startsAt: '2024-01-01', endsAt: '2024-01-07', liftPct: 10 }])).toBeCloseTo(1.32, 12);
  });

  it('ADDITIVE lifts add: +20% and +10% → 1 + 0.2 + 0.1 = 1.3', () => {
    expect(liftFactor([{ startsAt: '2024-01-01', endsAt: '2024-01-07', liftPct: 20, stackingMode: 'ADDITIVE' }, { startsAt: '2024-01-01', endsAt: '2024-01-07', liftPct: 10, stackingMode: 'ADDITIVE' }])).toBeCloseTo(1.3, 12);
  });

  it('mixed: the additive sum and the multiplicative product multiply; never below zero', () => {
    // (1 + 0.5) · (1 + 0.1 − 0.3) = 1.5 · 0.8 = 1.2
    expect(liftFactor([
      { startsAt: '2024-01-01', endsAt: '2024-01-01', liftPct: 50 },
      { startsAt: '2024-01-01', endsAt: '2024-01-01', liftPct: 10, stackingMode: 'ADDITIVE' },
      { startsAt: '2024-01-01', endsAt: '2024-01-01', liftPct: -30, stackingMode: 'ADDITIVE' },
    ])).toBeCloseTo(1.2, 12);
    expect(liftFactor([{ startsAt: '2024-01-01', endsAt: '2024-01-01', liftPct: -80, stackingMode: 'ADDITIVE' }, { startsAt: '2024-01-01', endsAt: '2024-01-01', liftPct: -50, stackingMode: 'ADDITIVE' }])).toBe(0);
    expect(liftFactor([])).toBe(1);
  });

  it('an event covers the weeks it overlaps, its end date inclusive', () => {
    const e = { startsAt: '2024-01-07', endsAt: '2024-01-08', liftPct: 10 };
    expect(eventCoversWeek(e, '2024-01-01')).toBe(true); // week 1–7 holds the 7th
    expect(eventCoversWeek(e, '2024-01-08')).toBe(true); // week 8–14 holds the 8th
    expect(eventCoversWeek(e, '2024-01-15')).toBe(false);
    expect(eventCoversWeek({ startsAt: '2023-12-31T00:00:00Z', endsAt: '2024-01-01T00:00:00Z', liftPct: 1 }, '2024-01-01')).toBe(false);
  });

  it('lifts forecasts and bounds of the covered weeks only', () => {
    const points = [point('2024-01-01'), point('2024-01-08'), point('2024-01-15')];
    const events = [
      { startsAt: '2024-01-03', endsAt: '2024-01-10', liftPct: 20 },
      { startsAt: '2024-01-09', endsAt: '2024-01-09', liftPct: 10 },
    ];
    const lifted = applyEventLifts(points, events);
    // Week 1: +20% → 120 (80→96, 120→144); week 2: 1.2 · 1.1 = 1.32 → 132; week 3 untouched.
    expect(lifted[0]).toEqual({ periodStart: '2024-01-01', forecast: 120, intervals: [{ level: 80, lower: 96, upper: 144 }] });
    expect(lifted[1]!.forecast).toBeCloseTo(132, 9);
    expect(lifted[1]!.intervals[0]!.upper).toBeCloseTo(158.4, 9);
    expect(lifted[2]).toBe(points[2]);
  });
});
