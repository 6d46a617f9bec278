import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processNextChunk } from '../../src/services/import/jobs/worker.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import type { TestServer } from '../support/server.js';
import { startServerWithTwoTenants } from '../support/two-tenants.js';

// Import chunks are taken in turns by organization: the worker's steps are driven one by one here (the
// server's own workers are off), so the order is read from the jobs' state, not from timings.

let server: TestServer;
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants());
}, 60_000);
afterAll(() => server?.close());

/** Catalog rows: 2,000 per chunk. */
const CHUNK = 2_000;
const products = (prefix: string, chunks: number) => Array.from({ length: chunks * CHUNK }, (_, i) => ({ externalId: `${prefix}-${i}` }));

/**
 * server.call, once more when the connection drops before an answer: PGlite runs in this process and
 * blocks its event loop during a chunk, so an idle keep-alive socket can expire just as it is reused.
 */
async function call(method: string, path: string, options: Parameters<TestServer['call']>[2]) {
  try {
    return await server.call(method, path, options);
  } catch {
    return server.call(method, path, options);
  }
}
const post = async (token: string, rows: unknown[]) => {
  const res = await call('POST', '/api/import/catalog', { token, body: rows });
  expect(res.status).toBe(202);
  return res.body.jobId as string;
};
const job = async (token: string, id: string) => (await call('GET', `/api/import/status/${id}`, { token })).body;
/** One step of a worker: marks a job PROCESSING or applies one chunk. */
const step = () => processNextChunk(server.app);

describe('import workers across organizations', () => {
  it("serve another organization's one-row import after at most one chunk of two big imports", async () => {
    const big1 = await post(a.key, products('A1', 3));
    const big2 = await post(a.key, products('A2', 3));
    // The worker has started on the first big job: marked it, applied its first chunk.
    await step();
    await step();
    expect(await job(a.key, big1)).toMatchObject({ state: 'PROCESSING', processedRows: CHUNK });
    const small = await post(b.key, [{ externalId: 'B-1' }]);
    for (let steps = 0; steps < 20 && (await job(b.key, small)).state !== 'COMPLETED'; steps++) await step();
    expect(await job(b.key, small)).toMatchObject({ state: 'COMPLETED', processedRows: 1, rejectedRows: 0 });
    // Nothing of A's was applied while B's job waited: first come, first served would have done all six chunks first.
    expect(await job(a.key, big1)).toMatchObject({ state: 'PROCESSING', processedRows: CHUNK });
    expect(await job(a.key, big2)).toMatchObject({ state: 'PENDING', processedRows: 0 });
    while (await step());
    expect(await job(a.key, big1)).toMatchObject({ state: 'COMPLETED', processedRows: 3 * CHUNK });
    expect(await job(a.key, big2)).toMatchObject({ state: 'COMPLETED', processedRows: 3 * CHUNK });
  });

  it('alternate between two organizations with many chunks each; within one, the older job goes first', async () => {
    // Two organizations never served yet: the older job's goes first.
    const c = await createTenant(server.app.prisma);
    const d = await createTenant(server.app.prisma);
    const c1 = await post(c.key, products('C1', 3));
    const c2 = await post(c.key, products('C2', 2));
    const d1 = await post(d.key, products('D1', 3));
    const progress = async () => [(await job(c.key, c1)).processedRows / CHUNK, (await job(c.key, c2)).processedRows / CHUNK, (await job(d.key, d1)).processedRows / CHUNK];
    const seen: number[][] = [];
    while (await step()) seen.push(await progress());
    // Chunks applied of [C1, C2, D1] after each step. Marking a job PROCESSING is a step of its own and
    // does not use up the organization's turn; C1 ending does not give C a fresh turn for C2.
    expect(seen).toEqual([
      [0, 0, 0],
      [1, 0, 0],
      [1, 0, 0],
      [1, 0, 1],
      [2, 0, 1],
      [2, 0, 2],
      [3, 0, 2],
      [3, 0, 3],
      [3, 0, 3],
      [3, 1, 3],
      [3, 2, 3],
    ]);
    for (const [token, id] of [[c.key, c1], [c.key, c2], [d.key, d1]] as const) expect((await job(token, id)).state).toBe('COMPLETED');
  });
});
