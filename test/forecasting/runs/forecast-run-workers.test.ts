import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processNextBatch, startForecastRunWorkers } from '../../../src/services/forecasting/runs/run-worker.js';
import { createProduct } from '../../support/api.js';
import { insertWeeklyDemand } from '../../support/demand-history.js';
import type { Tenant } from '../../support/fixtures.js';
import { FORECASTING } from '../../support/forecasting.js';
import type { TestServer } from '../../support/server.js';
import { startServerWithTwoTenants } from '../../support/two-tenants.js';

// The forecast-run job held in the database: batches leased with FOR UPDATE SKIP LOCKED, each stored with
// its checkpoint in one transaction. A process that stops between fit and write leaves its batch to
// another worker once the lease runs out; a worker whose lease was taken over writes nothing; several
// loops share one run and no batch is done twice.

const FIRST_WEEK = '2024-01-01';
const SERIES = 12;

let server: TestServer;
let a: Tenant;
let scenario: string;

class Stopped extends Error {}

beforeAll(async () => {
  ({ server, a } = await startServerWithTwoTenants({ FORECAST_RUN_BATCH_SIZE: '3' }, { capabilities: [FORECASTING] }));
  const product = await createProduct(server, a.key, 'RW-1');
  for (let i = 0; i < SERIES; i++) {
    const values = Array.from({ length: 20 }, (_, w) => 10 + ((w * (i + 1)) % 7));
    await insertWeeklyDemand(server.app.prisma, { organizationId: a.org.id, productMasterId: product, locationId: a.warehouse.id, channel: `C${String(i).padStart(2, '0')}`, firstWeek: FIRST_WEEK, values });
  }
  const res = await server.call('POST', '/api/forecast/scenarios', { token: a.key, body: { name: 'Workers', type: 'CUSTOM' } });
  scenario = res.body.id;
}, 60_000);
afterAll(() => server?.close());

const generate = async () => {
  const res = await server.call('POST', `/api/forecast/scenarios/${scenario}/generate`, { token: a.key, body: { horizon: 3 } });
  expect(res.status).toBe(202);
  return res.body as { id: string; totalBatches: number };
};
const runOf = async (id: string) => (await server.call('GET', `/api/forecast/runs/${id}`, { token: a.key })).body;
const batchesOf = (runId: string) => server.app.prisma.forecastRunBatch.findMany({ where: { runId }, orderBy: { index: 'asc' } });
const storedSeries = async (runId: string) => (await server.call('GET', `/api/forecast/runs/${runId}/series?limit=100`, { token: a.key })).body;

describe('forecast run batches', () => {
  it('redoes only the batch of a worker that stopped between fit and write, once its lease ran out', async () => {
    const run = await generate();
    expect(run.totalBatches).toBe(4);
    await processNextBatch(server.app, { leaseMs: 60_000 });
    // The second batch's worker stops after fitting it: nothing of it is written, its lease (1 ms) runs out.
    await expect(
      processNextBatch(server.app, {
        leaseMs: 1,
        onFitted: async () => {
          throw new Stopped('process killed');
        },
      }),
    ).rejects.toThrow(Stopped);
    // A stopped process cannot give its batch back: stand for that by leaving the lease held, as a crash would.
    const [, second] = await batchesOf(run.id);
    expect(second!.doneAt).toBeNull();
    await server.app.prisma.forecastRunBatch.update({ where: { id: second!.id }, data: { claimToken: 'dead-process', claimedUntil: new Date(Date.now() - 1000) } });
    expect(await runOf(run.id)).toMatchObject({ status: 'RUNNING', processedSeries: 3, processedBatches: 1 });
    while (await processNextBatch(server.app, { leaseMs: 60_000 }));
    const done = await runOf(run.id);
    expect(done).toMatchObject({ status: 'COMPLETED', processedSeries: SERIES, processedBatches: 4, progress: 1 });
    const batches = await batchesOf(run.id);
    expect(batches.map((b) => b.attempts)).toEqual([1, 2, 1, 1]);
    const stored = await storedSeries(run.id);
    expect(stored.meta.total).toBe(SERIES);
    expect(stored.data.map((s: any) => s.channel)).toEqual(Array.from({ length: SERIES }, (_, i) => `C${String(i).padStart(2, '0')}`));
  });

  it('writes nothing for a worker whose lease another worker took over', async () => {
    const run = await generate();
    let overtaken = false;
    // The first worker fits batch 0 slowly: its lease (1 ms) runs out and a second worker claims and stores the batch meanwhile.
    await processNextBatch(server.app, {
      leaseMs: 1,
      onFitted: async () => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        overtaken = await processNextBatch(server.app, { leaseMs: 60_000 });
      },
    });
    expect(overtaken).toBe(true);
    const [first] = await batchesOf(run.id);
    expect(first!.attempts).toBe(2);
    expect(first!.doneAt).not.toBeNull();
    expect(await runOf(run.id)).toMatchObject({ processedBatches: 1, processedSeries: 3 });
    while (await processNextBatch(server.app, { leaseMs: 60_000 }));
    expect(await runOf(run.id)).toMatchObject({ status: 'COMPLETED', processedSeries: SERIES, processedBatches: 4 });
    expect((await storedSeries(run.id)).meta.total).toBe(SERIES);
  });

  it('shares one run among several loops; every batch is done once', async () => {
    const run = await generate();
    const workers = startForecastRunWorkers(server.app, { count: 2, pollMs: 20, leaseMs: 60_000 });
    try {
      for (let i = 0; i < 400 && (await runOf(run.id)).status !== 'COMPLETED'; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      await workers.stop();
    }
    expect(await runOf(run.id)).toMatchObject({ status: 'COMPLETED', processedSeries: SERIES, processedBatches: 4 });
    const batches = await batchesOf(run.id);
    expect(batches.every((b) => b.attempts === 1 && b.doneAt !== null)).toBe(true);
    // Both loops took batches (a claim token starts with the loop's name).
    expect(new Set(batches.map((b) => b.claimToken!.split(' ')[0])).size).toBe(2);
    const stored = await storedSeries(run.id);
    expect(stored.meta.total).toBe(SERIES);
    expect(new Set(stored.data.map((s: any) => s.channel)).size).toBe(SERIES);
  });

  it('fails the run with its reason when the organization is deactivated; the stored batches stay readable', async () => {
    const run = await generate();
    await processNextBatch(server.app, { leaseMs: 60_000 });
    await server.app.prisma.organization.update({ where: { id: a.org.id }, data: { status: 'INACTIVE' } });
    try {
      await processNextBatch(server.app, { leaseMs: 60_000 });
    } finally {
      await server.app.prisma.organization.update({ where: { id: a.org.id }, data: { status: 'ACTIVE' } });
    }
    const failed = await runOf(run.id);
    expect(failed).toMatchObject({ status: 'FAILED', processedBatches: 1, totalForecast: null, failureReason: expect.stringMatching(/deactivated/) });
    // A failed run's batches are claimed no more.
    expect(await processNextBatch(server.app, { leaseMs: 60_000 })).toBe(false);
    expect((await storedSeries(run.id)).meta).toMatchObject({ total: 3, status: 'FAILED' });
  });
});
