import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tenant } from '../support/fixtures.js';
import type { TestServer } from '../support/server.js';
import { startServerWithTwoTenants } from '../support/two-tenants.js';

// A completed import of at least IMPORT_ANALYZE_MIN_ROWS rows has the tables it wrote analyzed (docs/import.md,
// Statistics), so that the planner knows what was loaded even where autovacuum is off; a smaller one does not.
let server: TestServer;
let a: Tenant;

beforeAll(async () => {
  ({ server, a } = await startServerWithTwoTenants({ IMPORT_WORKERS: '1', IMPORT_POLL_MS: '50', IMPORT_ANALYZE_MIN_ROWS: '3' }));
}, 60_000);
afterAll(() => server?.close());

const analyzeCount = async (table: string) => {
  const [row] = await server.app.prisma.$queryRaw<{ count: bigint }[]>`SELECT analyze_count AS count FROM pg_stat_user_tables WHERE relname = ${table}`;
  return Number(row?.count ?? 0);
};

async function importCatalog(rows: unknown[]) {
  const posted = await server.call('POST', '/api/import/catalog', { token: a.key, body: rows });
  expect(posted.status).toBe(202);
  for (let i = 0; i < 400; i++) {
    const job = (await server.call('GET', `/api/import/status/${posted.body.jobId}`, { token: a.key })).body;
    if (job.state === 'COMPLETED') return job;
    expect(job.state).not.toBe('FAILED');
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the job did not complete');
}

/** Waits for the count to pass `before` (statistics counters are published a moment after the statement). */
async function analyzedSince(table: string, before: number) {
  for (let i = 0; i < 100; i++) {
    if ((await analyzeCount(table)) > before) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

describe('statistics after an import', () => {
  it('analyzes the tables of a job of IMPORT_ANALYZE_MIN_ROWS rows or more, and not of a smaller one', async () => {
    const before = await analyzeCount('product_masters');
    await importCatalog([{ externalId: 'AN-1' }, { externalId: 'AN-2' }]);
    expect(await analyzedSince('product_masters', before)).toBe(false);
    await importCatalog([{ externalId: 'AN-3' }, { externalId: 'AN-4' }, { externalId: 'AN-5', category: 'Analyzed' }]);
    expect(await analyzedSince('product_masters', before)).toBe(true);
    expect(await analyzeCount('categories')).toBeGreaterThan(0);
  });

  it('analyzes while a job runs, each time its rows pass a mark (IMPORT_ANALYZE_MIN_ROWS, then 4 times more)', async () => {
    // 5,000 catalog rows are 3 chunks of 2,000: the first passes the marks 3 to 768, the second 3,072, the
    // third completes the job. Three ANALYZEs, where a job analyzed only at its end would have one.
    const before = await analyzeCount('product_masters');
    await importCatalog(Array.from({ length: 5000 }, (_, i) => ({ externalId: `AN-RUN-${i}` })));
    let count = before;
    for (let i = 0; i < 100 && count < before + 3; i++) {
      await new Promise((r) => setTimeout(r, 50));
      count = await analyzeCount('product_masters');
    }
    expect(count).toBe(before + 3);
  });
});
