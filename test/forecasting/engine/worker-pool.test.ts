import { afterAll, describe, expect, it } from 'vitest';
import { forecastSeries } from '../../../src/services/forecasting/engine/forecast-series.js';
import { ForecastWorkerPool } from '../../../src/services/forecasting/engine/worker-pool.js';

const weeks = (n: number) => Array.from({ length: n }, (_, i) => new Date(Date.UTC(2022, 0, 3) + i * 7 * 86_400_000).toISOString().slice(0, 10));
const series = Array.from({ length: 12 }, (_, k) => {
  const n = [3, 20, 60, 110][k % 4]!;
  const values = Array.from({ length: n }, (_, t) => (k % 3 === 0 ? (t % 4 === 0 ? 5 : 0) : 40 + 10 * Math.sin((t + k) / 4) + ((t * 31 + k) % 7)));
  return { key: `s${k}`, values, weekStarts: weeks(n) };
});

const pool = new ForecastWorkerPool({ size: 2 });
afterAll(() => pool.close());

describe('forecast engine: worker pool', () => {
  it('returns the same results as in-process, in input order', async () => {
    const options = { horizon: 8, levels: [80, 95] };
    const fromPool = await pool.forecastBatch(series, options);
    expect(fromPool).toEqual(series.map((s) => forecastSeries(s, options)));
    expect(fromPool.map((r) => r.key)).toEqual(series.map((s) => s.key));
  });

  it('serves concurrent batches and rejects an invalid series', async () => {
    const [a, b] = await Promise.all([pool.forecastBatch(series.slice(0, 5), { horizon: 2 }), pool.forecastBatch(series.slice(5), { horizon: 3 })]);
    expect(a).toHaveLength(5);
    expect(b.every((r) => r.points.length === 3)).toBe(true);
    await expect(pool.forecastBatch([{ values: [1, 2], weekStarts: ['2024-01-01'] }], { horizon: 1 })).rejects.toThrow(/differ in length/);
    expect(await pool.forecastBatch([], { horizon: 1 })).toEqual([]);
  });

  it("lets owners take turns: a second organization's small batch is answered before the first one's big batch", async () => {
    const single = new ForecastWorkerPool({ size: 1 });
    try {
      const finished: string[] = [];
      // 12 series in chunks of 2 for owner a, then 2 series for owner b: b's chunk goes next after a's running one.
      const big = single.forecastBatch(series, { horizon: 4 }, 'a').then(() => finished.push('a'));
      const small = single.forecastBatch(series.slice(0, 2), { horizon: 4 }, 'b').then(() => finished.push('b'));
      await Promise.all([big, small]);
      expect(finished).toEqual(['b', 'a']);
    } finally {
      await single.close();
    }
  });

  it('sizes from the available parallelism by default', () => {
    const p = new ForecastWorkerPool();
    expect(p.size).toBeGreaterThanOrEqual(1);
    expect(() => new ForecastWorkerPool({ size: 0 })).toThrow();
  });
});
