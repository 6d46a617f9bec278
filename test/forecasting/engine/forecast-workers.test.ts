import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config.js';
import { createProduct } from '../../support/api.js';
import { insertWeeklyDemand } from '../../support/demand-history.js';
import { createTenant, type Tenant } from '../../support/fixtures.js';
import { startTestServer, type TestServer } from '../../support/server.js';

// The forecast worker pool: one per app, sized by FORECAST_WORKERS, fitting off the request thread, and
// ended with the server.

const SERIES = 60;
const WEEKS = 104;

let server: TestServer;
let a: Tenant;
let stopped = false;

beforeAll(async () => {
  server = await startTestServer({ FORECAST_WORKERS: '1' });
  a = await createTenant(server.app.prisma, { capabilities: ['ai.forecasting.demand'] });
  const product = await createProduct(server, a.key, 'W-1');
  // Seasonal series with noise: every candidate method is fitted and backtested.
  for (let s = 0; s < SERIES; s++) {
    const values = Array.from({ length: WEEKS }, (_, t) => 100 + s + 30 * Math.sin((2 * Math.PI * t) / 52) + ((t * 7919 + s * 104729) % 17));
    await insertWeeklyDemand(server.app.prisma, { organizationId: a.org.id, productMasterId: product, locationId: a.warehouse.id, channel: `C${s}`, firstWeek: '2023-01-02', values });
  }
}, 60_000);
afterAll(() => (stopped ? undefined : server?.close()));

describe('forecast workers', () => {
  it('FORECAST_WORKERS sizes the pool; anything but a whole number of at least 1 is refused at start', () => {
    expect(server.app.forecastPool?.size).toBe(1);
    expect(loadConfig({}).forecastWorkers).toBeUndefined();
    for (const bad of ['0', '-1', '1.5', 'two']) expect(() => loadConfig({ FORECAST_WORKERS: bad }), bad).toThrow(ConfigError);
  });

  it('fits off the request thread: other requests are answered while a page of series is forecast', async () => {
    // Warm up: the first request to the server, and the worker's start (tsx and the WASM module load in it).
    await server.call('GET', '/health');
    expect((await server.call('GET', '/api/forecast?limit=1&horizon=1', { token: a.key })).status).toBe(200);
    const started = Date.now();
    const forecast = server.call('GET', `/api/forecast?limit=${SERIES}&horizon=26`, { token: a.key });
    let done = false;
    void forecast.then(() => (done = true));
    const latencies: number[] = [];
    while (!done) {
      const t = Date.now();
      expect((await server.call('GET', '/health')).status).toBe(200);
      latencies.push(Date.now() - t);
      await new Promise((r) => setTimeout(r, 20));
    }
    const res = await forecast;
    const took = Date.now() - started;
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(SERIES);
    console.log(`forecast of ${SERIES} series took ${took} ms; /health answered ${latencies.length} times, slowest ${Math.max(...latencies)} ms`);
    expect(latencies.length).toBeGreaterThan(3);
    expect(Math.max(...latencies)).toBeLessThan(took / 2);
  });

  it('ends its threads on shutdown', async () => {
    const pool = server.app.forecastPool!;
    stopped = true;
    await server.shutdown(1000);
    await expect(pool.forecastBatch([{ values: [1, 2, 3], weekStarts: ['2024-01-01', '2024-01-08', '2024-01-15'] }], { horizon: 1 })).rejects.toThrow(/closed/);
  });
});
