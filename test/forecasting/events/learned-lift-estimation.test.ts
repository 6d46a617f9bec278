import { describe, expect, it } from 'vitest';
import { occurrenceLift, poolLifts } from '../../../src/services/forecasting/events/lift-estimation.js';
import { weekAfter } from '../../support/demand-history.js';

// The estimation behind learned event lifts, against hand-computed values (learned-lifts.test.ts runs it through HTTP).

const W = (i: number) => weekAfter('2024-01-01', i);
const unitsOf = (values: (number | null)[]) => new Map(values.flatMap((v, i) => (v === null ? [] : [[W(i), v] as [string, number]])));

describe('occurrenceLift', () => {
  // Week 5 is the event's; 4 weeks each side form the baseline.
  const values = [50, 90, 110, 100, 100, 150, 100, 95, 105, 100, 400];

  it('divides the covered units by the median of the nearest 4 event-free weeks on each side', () => {
    // Baseline: 90 110 100 100 | 100 95 105 100 → sorted 90 95 100 100 100 100 105 110, median 100.
    expect(occurrenceLift({ covered: [W(5)], units: unitsOf(values), blocked: new Set([W(5)]) })).toEqual({
      weeks: 1,
      actualUnits: 150,
      baselineUnits: 100,
      baselineWeeks: 8,
      liftPct: 0.5,
    });
  });

  it('skips weeks another event covers and reaches further, at most 8 weeks away', () => {
    // Weeks 6–9 blocked: the after side finds week 10 (400) only; before: 90 110 100 100. Median of 90 100 100 110 400 = 100.
    const blocked = new Set([W(5), W(6), W(7), W(8), W(9)]);
    expect(occurrenceLift({ covered: [W(5)], units: unitsOf(values), blocked })).toMatchObject({ baselineUnits: 100, baselineWeeks: 5 });
    // Two covered weeks: (150 + 100) / (100 × 2) − 1.
    expect(occurrenceLift({ covered: [W(5), W(6)], units: unitsOf(values), blocked: new Set([W(5), W(6)]) })).toMatchObject({ weeks: 2, actualUnits: 250, liftPct: 0.25 });
  });

  it('has no lift without a covered week in the history, with fewer than 2 baseline weeks, or a zero baseline', () => {
    expect(occurrenceLift({ covered: [W(20)], units: unitsOf(values), blocked: new Set() })).toBeNull();
    expect(occurrenceLift({ covered: [W(1)], units: unitsOf([null, 150, null]), blocked: new Set() })).toBeNull();
    expect(occurrenceLift({ covered: [W(1)], units: unitsOf([0, 150, 0]), blocked: new Set() })).toBeNull();
    expect(occurrenceLift({ covered: [W(1)], units: unitsOf([80, 120, 100]), blocked: new Set() })).toMatchObject({ baselineUnits: 90, baselineWeeks: 2 });
  });
});

describe('poolLifts', () => {
  it('takes the median, with the distribution-free interval of a median from 4 occurrences on', () => {
    expect(poolLifts([0.1, 0.5, 0.3])).toEqual({ liftPct: 0.3, lowerPct: null, upperPct: null, confidenceLevel: null });
    // n = 4: the extremes cover the median with 1 − 2/16.
    expect(poolLifts([0.1, 0.5, 0.3, 0.4])).toEqual({ liftPct: 0.35, lowerPct: 0.1, upperPct: 0.5, confidenceLevel: 0.875 });
    // n = 10: ranks 3 and 8, coverage 1 − 2 (1 + 10 + 45) / 1024; ranks 4 and 7 would cover only 1 − 2 · 176 / 1024.
    const ten = [9, 1, 8, 2, 7, 3, 6, 4, 5, 10].map((x) => x / 10);
    expect(poolLifts(ten)).toEqual({ liftPct: 0.55, lowerPct: 0.3, upperPct: 0.8, confidenceLevel: 1 - (2 * 56) / 1024 });
  });
});
