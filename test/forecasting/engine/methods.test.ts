import { describe, expect, it } from 'vitest';
import { errorScale } from '../../../src/services/forecasting/engine/backtest.js';
import { mstlWith } from '../../../src/services/forecasting/engine/decomposition.js';
import { etsWith, seasonalIndices } from '../../../src/services/forecasting/engine/exponential-smoothing.js';
import { classifyDemand, croston, sba, tsb } from '../../../src/services/forecasting/engine/intermittent-methods.js';
import { naive, seasonalNaiveWith, simpleLevel } from '../../../src/services/forecasting/engine/naive-methods.js';

describe('forecast engine: methods against hand-computed values', () => {
  it('seasonal naive repeats the last season', () => {
    // Period 4 on 1..8: the last season is 5 6 7 8, repeated: 5 6 7 8 5 6.
    expect(seasonalNaiveWith(4)([1, 2, 3, 4, 5, 6, 7, 8], 6)).toEqual([5, 6, 7, 8, 5, 6]);
    // Shorter than a season: the last value, flat.
    expect(seasonalNaiveWith(4)([1, 2, 3], 2)).toEqual([3, 3]);
  });

  it('naive and simple level', () => {
    expect(naive([4, 9, 2], 3)).toEqual([2, 2, 2]);
    // Mean of the last four: (4 + 6 + 8 + 10) / 4 = 7.
    expect(simpleLevel([2, 4, 6, 8, 10], 2)).toEqual([7, 7]);
    // Fewer than four points: their mean, (1 + 2 + 6) / 3 = 3.
    expect(simpleLevel([1, 2, 6], 1)).toEqual([3]);
  });

  it('Croston and SBA (alpha 0.1)', () => {
    // [0, 3, 0, 0, 5, 0]: first demand 3 after 2 weeks → size 3, interval 2.
    // Next demand 5 after 3 weeks → size 3 + 0.1·(5 − 3) = 3.2, interval 2 + 0.1·(3 − 2) = 2.1.
    // Croston = 3.2 / 2.1 = 1.523810; SBA = 1.523810 · (1 − 0.1/2) = 1.447619.
    const history = [0, 3, 0, 0, 5, 0];
    expect(croston(history, 2)[0]).toBeCloseTo(3.2 / 2.1, 9);
    expect(croston(history, 2)[1]).toBeCloseTo(3.2 / 2.1, 9);
    expect(sba(history, 1)[0]).toBeCloseTo((3.2 / 2.1) * 0.95, 9);
    expect(croston([0, 0, 0], 1)).toEqual([0]);
  });

  it('TSB (alpha = beta = 0.1)', () => {
    // [0, 3, 0, 0, 5, 0]: probability starts at 2/6 = 1/3, size at 3.
    // w1 0: p = 1/3 · 0.9 = 0.3;  w2 3: p = 0.3 + 0.1·0.7 = 0.37, size 3;  w3 0: p = 0.333;
    // w4 0: p = 0.2997;  w5 5: p = 0.2997 + 0.1·0.7003 = 0.36973, size = 3 + 0.1·2 = 3.2;
    // w6 0: p = 0.332757.  Forecast = 0.332757 · 3.2 = 1.0648224.
    expect(tsb([0, 3, 0, 0, 5, 0], 1)[0]).toBeCloseTo(1.0648224, 6);
    expect(tsb([0, 0], 1)).toEqual([0]);
  });

  it('classifies demand by ADI and CV² (cut-offs 1.32 and 0.49)', () => {
    // [10, 11, 9, 10]: ADI 1, sizes' variance 0.5 / mean² 100 = 0.005 → SMOOTH.
    expect(classifyDemand([10, 11, 9, 10])?.demandClass).toBe('SMOOTH');
    // [5, 1, 9, 2]: ADI 1, mean 4.25, variance 38.75/4 = 9.6875, CV² = 9.6875 / 18.0625 = 0.536 → ERRATIC.
    const erratic = classifyDemand([5, 1, 9, 2])!;
    expect(erratic.demandClass).toBe('ERRATIC');
    expect(erratic.cv2).toBeCloseTo(9.6875 / 18.0625, 9);
    // [0, 3, 0, 0, 5, 0]: ADI 6/2 = 3, sizes 3 and 5: variance 1 / mean² 16 = 0.0625 → INTERMITTENT.
    expect(classifyDemand([0, 3, 0, 0, 5, 0])).toEqual({ adi: 3, cv2: 0.0625, demandClass: 'INTERMITTENT' });
    // [0, 0, 1, 0, 9, 0, 0]: ADI 3.5, sizes 1 and 9: variance 16 / mean² 25 = 0.64 → LUMPY.
    expect(classifyDemand([0, 0, 1, 0, 9, 0, 0])?.demandClass).toBe('LUMPY');
    expect(classifyDemand([0, 0])).toBeNull();
  });

  it('seasonal indices by classical decomposition', () => {
    // [1, 3, 1, 3, 1, 3], period 2: the centred 2×2 moving average is 2 wherever defined (t = 1..4),
    // so the deviations are +1 at odd and −1 at even positions: indices [−1, +1].
    expect(seasonalIndices([1, 3, 1, 3, 1, 3], 2)).toEqual([-1, 1]);
  });

  it('ETS: smooths the seasonally adjusted series and adds the season back', () => {
    // [1, 3] six times: adjusted by the indices [−1, +1] it is 2 throughout, whose smoothed level is 2;
    // the next weeks (positions 12, 13, 14 → even, odd, even) are 2 − 1, 2 + 1, 2 − 1.
    const forecast = etsWith(2)(Array.from({ length: 12 }, (_, t) => (t % 2 ? 3 : 1)), 3);
    expect(forecast[0]).toBeCloseTo(1, 6);
    expect(forecast[1]).toBeCloseTo(3, 6);
    expect(forecast[2]).toBeCloseTo(1, 6);
  });

  it('ETS follows a straight trend', () => {
    // 10 + 2t for t = 0..39: the next three weeks are 90, 92, 94.
    const forecast = etsWith(52)(Array.from({ length: 40 }, (_, t) => 10 + 2 * t), 3);
    forecast.forEach((f, h) => expect(f).toBeCloseTo(90 + 2 * h, 0));
  });

  it('MSTL repeats a clean season', () => {
    // Five repetitions of 10 20 30 20 with period 4: the next season is 10 20 30 20.
    const history = Array.from({ length: 20 }, (_, t) => [10, 20, 30, 20][t % 4]!);
    const forecast = mstlWith([4])(history, 4);
    [10, 20, 30, 20].forEach((v, h) => expect(forecast[h]).toBeCloseTo(v, 0));
  });

  it('scales errors by the in-sample seasonal-naive MAE, else the naive-1 MAE', () => {
    // [1, 3, 2]: no season; naive-1 MAE = (|3 − 1| + |2 − 3|) / 2 = 1.5.
    expect(errorScale([1, 3, 2])).toEqual({ value: 1.5, kind: 'NAIVE_MAE' });
    // 53 weeks, week t = t: the one seasonal difference is 52 − 0 = 52.
    expect(errorScale(Array.from({ length: 53 }, (_, t) => t))).toEqual({ value: 52, kind: 'SEASONAL_NAIVE_MAE' });
    expect(errorScale([4, 4, 4])).toEqual({ value: 1, kind: 'NONE' });
  });
});
