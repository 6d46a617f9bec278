import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processNextBatch, startForecastRunWorkers } from '../../../src/services/forecasting/runs/run-worker.js';
import { createProduct } from '../../support/api.js';
import { insertWeeklyDemand } from '../../support/demand-history.js';
import type { Tenant } from '../../support/fixtures.js';
import { FORECASTING } from '../../support/forecasting.js';
import type { TestServer } from '../../support/server.js';
import { startServerWithTwoTenants } from '../../support/two-tenants.js';

// Forecast-run batches are taken in turns by organization, and a failing batch waits (backing off) while
// other work goes on, so A's failing run holds B's run for one batch at most; at the fifth failure A's run
// FAILED. The failure is real: a check on the stored series refuses A's series of channel BROKEN, so
// storing that batch fails in the database each time, as it did for series past year 9999.

let server: TestServer;
let a: Tenant;
let b: Tenant;
const scenarios: Record<string, string> = {};

/** Four series per organization, two per batch; A's first batch holds the BROKEN series. */
async function seriesAndScenario(tenant: Tenant, channels: string[]) {
  const product = await createProduct(server, tenant.key, `FAIR-${tenant.org.id}`);
  for (const [i, channel] of channels.entries()) {
    const values = Array.from({ length: 20 }, (_, w) => 10 + ((w * (i + 1)) % 5));
    await insertWeeklyDemand(server.app.prisma, { organizationId: tenant.org.id, productMasterId: product, locationId: tenant.warehouse.id, channel, firstWeek: '2024-01-01', values });
  }
  const res = await server.call('POST', '/api/forecast/scenarios', { token: tenant.key, body: { name: 'Fairness', type: 'CUSTOM' } });
  expect(res.status).toBe(201);
  scenarios[tenant.org.id] = res.body.scenario?.id ?? res.body.id;
}

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants({ FORECAST_RUN_BATCH_SIZE: '2' }, { capabilities: [FORECASTING] }));
  await seriesAndScenario(a, ['BROKEN', 'C01', 'C02', 'C03']);
  await seriesAndScenario(b, ['C01', 'C02', 'C03', 'C04']);
  await server.app.prisma.$executeRawUnsafe(`ALTER TABLE forecast_run_series ADD CONSTRAINT store_fails_for_broken CHECK (channel <> 'BROKEN')`);
}, 60_000);
afterAll(() => server?.close());

const generate = async (tenant: Tenant) => {
  const res = await server.call('POST', `/api/forecast/scenarios/${scenarios[tenant.org.id]}/generate`, { token: tenant.key, body: { horizon: 2 } });
  expect(res.status).toBe(202);
  expect(res.body.totalBatches).toBe(2);
  return res.body.id as string;
};
const runOf = async (tenant: Tenant, id: string) => (await server.call('GET', `/api/forecast/runs/${id}`, { token: tenant.key })).body;
const logged: string[] = [];
/** One step of a worker loop: claims, fits and stores (or fails) one batch. */
const step = () => processNextBatch(server.app, { leaseMs: 60_000, retryMs: 1, log: (m) => logged.push(m) });

describe('forecast run workers across organizations', () => {
  it("finish B's run while A's failing batch waits, then fail A's run at the fifth failure with a clear reason", async () => {
    const runA = await generate(a);
    const runB = await generate(b);
    // A's run is the older: its first batch goes first, and fails to store.
    expect(await step()).toBe(true);
    const afterFailure = await runOf(a, runA);
    expect(afterFailure).toMatchObject({ status: 'RUNNING', processedBatches: 0, failedAttempts: 1, failureReason: null });
    expect(Date.parse(afterFailure.retryAt)).not.toBeNaN();
    for (let steps = 0; steps < 3 && (await runOf(b, runB)).status !== 'COMPLETED'; steps++) await step();
    // B's run completed while A's is still going: at most one of A's batches went in between.
    expect(await runOf(b, runB)).toMatchObject({ status: 'COMPLETED', processedBatches: 2, processedSeries: 4, failedAttempts: 0, retryAt: null });
    expect((await runOf(a, runA)).status).toBe('RUNNING');

    // A's failing batch is retried after its wait (1, 2, 4, 8 ms here), up to the bound.
    for (let i = 0; i < 500 && (await runOf(a, runA)).status === 'RUNNING'; i++) if (!(await step())) await new Promise((r) => setTimeout(r, 5));
    const failed = await runOf(a, runA);
    expect(failed).toMatchObject({ status: 'FAILED', failedAttempts: 5, retryAt: null, processedBatches: 1, processedSeries: 2, totalForecast: null });
    expect(failed.failureReason).toBe('Batch 0 failed 5 times because of an unexpected error (logged by the server); batches stored before stay readable');
    // The database's words are in the server's log, not in the run.
    expect(logged.some((m) => m.includes('store_fails_for_broken'))).toBe(true);
    expect(await step()).toBe(false);
    const stored = (await server.call('GET', `/api/forecast/runs/${runA}/series`, { token: a.key })).body;
    expect(stored.data.map((s: any) => s.channel)).toEqual(['C02', 'C03']);
  });

  it("lets a worker loop go on with B's run while A's failed batch waits for its retry", async () => {
    const logs: string[] = [];
    const workers = startForecastRunWorkers(server.app, { count: 1, pollMs: 20, leaseMs: 60_000, retryMs: 600_000, log: (m) => logs.push(m) });
    try {
      const runA = await generate(a);
      for (let i = 0; i < 600 && (await runOf(a, runA)).failedAttempts === 0; i++) await new Promise((r) => setTimeout(r, 20));
      const runB = await generate(b);
      for (let i = 0; i < 600 && (await runOf(b, runB)).status !== 'COMPLETED'; i++) await new Promise((r) => setTimeout(r, 20));
      expect(await runOf(b, runB)).toMatchObject({ status: 'COMPLETED', processedSeries: 4 });
      // A's run goes on, its first batch waiting for its retry (ten minutes here), its second one stored.
      const waiting = await runOf(a, runA);
      expect(waiting).toMatchObject({ status: 'RUNNING', failedAttempts: 1, processedBatches: 1, failureReason: null });
      expect(Date.parse(waiting.retryAt)).toBeGreaterThan(Date.now());
    } finally {
      await workers.stop();
    }
  });
});
