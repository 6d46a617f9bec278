import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importRows } from '../support/import.js';
import type { Tenant } from '../support/fixtures.js';
import type { TestServer } from '../support/server.js';
import { startServerWithTwoTenants } from '../support/two-tenants.js';

let server: TestServer;
let a: Tenant;
let b: Tenant;
/** a's job ids, oldest first. */
const jobsOfA: string[] = [];
let bJob: string;
let failedJob: string;

const list = (token: string, query = '') => server.call('GET', `/api/import/jobs${query}`, { token });

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants({ IMPORT_WORKERS: '1', IMPORT_POLL_MS: '100' }));
  for (let i = 0; i < 5; i++) jobsOfA.push(String((await importRows(server, a.key, 'catalog', [{ externalId: `C-${i}` }])).id));
  jobsOfA.push(String((await importRows(server, a.key, 'suppliers', [{ code: 'S-1' }, { code: '' }])).id));
  bJob = String((await importRows(server, b.key, 'catalog', [{ externalId: 'B-1' }])).id);
  // A job read as PENDING and one as FAILED: states set directly, once the workers are done with them.
  const pending = await importRows(server, a.key, 'suppliers', [{ code: 'S-2' }]);
  await server.app.prisma.importJob.update({ where: { id: String(pending.id) }, data: { state: 'PENDING' } });
  await server.app.prisma.importJob.update({ where: { id: jobsOfA[0] }, data: { state: 'FAILED', failureReason: 'test' } });
  failedJob = jobsOfA[0]!;
}, 120_000);
afterAll(() => server?.close());

describe('GET /api/import/jobs', () => {
  it("lists the organization's jobs newest first in the status envelope, never another organization's", async () => {
    const res = await list(a.key, '?kind=catalog');
    expect(res.status).toBe(200);
    expect(res.body.data.map((j: any) => j.jobId)).toEqual([...jobsOfA.slice(0, 5)].reverse());
    expect(res.body).toMatchObject({ limit: 50, nextCursor: null, previousCursor: null });
    const status = await server.call('GET', `/api/import/status/${jobsOfA[4]}`, { token: a.key });
    expect(res.body.data[0]).toEqual(status.body);
    const ofB = await list(b.key);
    expect(ofB.body.data.map((j: any) => j.id)).toEqual([bJob]);
    const all = await list(a.key, '?limit=100');
    expect(all.body.data.map((j: any) => j.id)).not.toContain(bJob);
    expect(all.body.data).toHaveLength(7);
  });

  it('filters by status and kind (any case) and by creation time', async () => {
    const failed = await list(a.key, '?status=failed');
    expect(failed.body.data.map((j: any) => [j.id, j.state, j.failureReason])).toEqual([[failedJob, 'FAILED', 'test']]);
    const suppliers = await list(a.key, '?kind=SUPPLIERS&status=COMPLETED');
    expect(suppliers.body.data.map((j: any) => [j.id, j.rejectedRows, j.errors])).toEqual([[jobsOfA[5], 1, [{ row: 2, field: 'code', message: 'Required' }]]]);
    const pending = await list(a.key, '?status=PENDING');
    expect(pending.body.data.map((j: any) => j.kind)).toEqual(['SUPPLIERS']);
    const today = new Date().toISOString().slice(0, 10);
    expect((await list(a.key, `?from=${today}&to=${today}&limit=100`)).body.data).toHaveLength(7);
    expect((await list(a.key, '?to=2020-01-01')).body.data).toEqual([]);
    const sixth = (await server.call('GET', `/api/import/status/${jobsOfA[5]}`, { token: a.key })).body;
    const since = await list(a.key, `?from=${encodeURIComponent(sixth.createdAt)}`);
    expect(since.body.data.map((j: any) => j.id)).toContain(jobsOfA[5]);
    expect(since.body.data.map((j: any) => j.id)).not.toContain(jobsOfA[0]);
  });

  it('pages forward with cursor and back with before, both ways ending in null cursors', async () => {
    const newestFirst = [...(await list(a.key, '?limit=100')).body.data.map((j: any) => j.id)];
    const seen: string[] = [];
    const pages: any[] = [];
    let query = '?limit=3';
    for (;;) {
      const page = (await list(a.key, query)).body;
      pages.push(page);
      seen.push(...page.data.map((j: any) => j.id));
      if (!page.nextCursor) break;
      query = `?limit=3&cursor=${encodeURIComponent(page.nextCursor)}`;
    }
    expect(seen).toEqual(newestFirst);
    expect(pages.map((p) => p.data.length)).toEqual([3, 3, 1]);
    expect(pages[0].previousCursor).toBeNull();
    // Back from the last page: the pages before it, in the same order.
    let back = pages.at(-1);
    const backwards: string[][] = [];
    while (back.previousCursor) {
      back = (await list(a.key, `?limit=3&before=${encodeURIComponent(back.previousCursor)}`)).body;
      backwards.unshift(back.data.map((j: any) => j.id));
    }
    expect(backwards).toEqual([newestFirst.slice(0, 3), newestFirst.slice(3, 6)]);
    expect(back.previousCursor).toBeNull();
  });

  it('refuses bad input with 400 in the documented shape', async () => {
    const wellFormed = encodeURIComponent(Buffer.from('GPC:S:some-id').toString('base64'));
    const cases: [string, Record<string, unknown[]>][] = [
      ['?status=DONE', { status: ['One of PENDING, PROCESSING, COMPLETED, FAILED (any case)'] }],
      ['?kind=widgets', { kind: [expect.stringContaining('One of CATALOG')] }],
      ['?limit=0', { limit: ['Must be a whole number from 1 to 100'] }],
      ['?limit=101', { limit: ['Must be a whole number from 1 to 100'] }],
      ['?from=yesterday', { from: [expect.stringContaining('ISO 8601') ] }],
      ['?from=2026-02-01&to=2026-01-01', { to: ['Must not be before from'] }],
      ['?from=1971-01-01&to=2199-01-01', { to: [expect.any(String) ] }],
      [`?cursor=${wellFormed}&before=${wellFormed}`, { before: ['Not together with cursor'] }],
      ['?cursor=not-a-cursor', { cursor: [expect.stringContaining('Not a cursor of this list')] }],
      ['?state=FAILED', { state: ['Unknown query parameter'] }],
    ];
    for (const [query, details] of cases) {
      const res = await list(a.key, query);
      expect([query, res.status, res.body]).toEqual([query, 400, { error: expect.any(String), code: 'VALIDATION_ERROR', details }]);
    }
    const crafted = await list(a.key, '?cursor=not-a-cursor');
    expect([crafted.status, crafted.body.code, Object.keys(crafted.body.details)]).toEqual([400, 'VALIDATION_ERROR', ['cursor']]);
    const craftedBefore = await list(a.key, '?before=12');
    expect([craftedBefore.status, Object.keys(craftedBefore.body.details)]).toEqual([400, ['before']]);
  });

  it('never pages into another organization: its cursors give nothing of its jobs', async () => {
    const ofB = (await list(b.key, '?limit=1')).body;
    const otherCursor = Buffer.from(`GPC:S:${bJob}`).toString('base64');
    const res = await list(a.key, `?limit=100&cursor=${encodeURIComponent(otherCursor)}`);
    expect(res.status === 200 ? res.body.data.map((j: any) => j.id) : []).not.toContain(bJob);
    expect(ofB.data.map((j: any) => j.id)).toEqual([bJob]);
  });

  it('needs import.read, as a job status does (import:read or import:write); another scope is refused', async () => {
    const reader = await a.keyWith(['import:read']);
    expect((await list(reader)).status).toBe(200);
    expect((await list(await a.keyWith(['import:write']))).status).toBe(200);
    const other = await a.keyWith(['inventory:read']);
    const refused = await list(other);
    const status = await server.call('GET', `/api/import/status/${jobsOfA[1]}`, { token: other });
    expect([refused.status, refused.body.code]).toEqual([status.status, status.body.code]);
    expect(refused.status).toBe(403);
    expect((await list('')).status).toBe(401);
  });

  it('has its fixed path: POST /api/import/jobs is 405, not an import of kind "jobs"', async () => {
    const res = await server.call('POST', '/api/import/jobs', { token: a.key, body: [{}] });
    expect([res.status, res.headers.get('allow')]).toEqual([405, expect.stringContaining('GET')]);
  });
});

describe('GraphQL importJobs', () => {
  const JOBS = `query ($first: Int, $after: String, $last: Int, $before: String, $status: ImportJobState, $kind: ImportKind) {
    importJobs(first: $first, after: $after, last: $last, before: $before, status: $status, kind: $kind) {
      totalCount
      edges { cursor node { id kind state } }
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    }
  }`;

  it('is a Relay connection of the organization’s jobs, newest first, paged both ways', async () => {
    const first = await server.graphql(JOBS, { first: 4 }, a.key);
    expect(first.body.errors).toBeUndefined();
    const page1 = first.body.data.importJobs;
    expect(page1.totalCount).toBe(7);
    expect(page1.pageInfo.hasNextPage).toBe(true);
    const page2 = (await server.graphql(JOBS, { first: 4, after: page1.pageInfo.endCursor }, a.key)).body.data.importJobs;
    expect(page2.pageInfo.hasNextPage).toBe(false);
    const forward = [...page1.edges, ...page2.edges].map((e: any) => e.node.id);
    expect(forward).toHaveLength(7);
    expect(forward).not.toContain(bJob);
    const last = (await server.graphql(JOBS, { last: 3 }, a.key)).body.data.importJobs;
    expect(last.edges.map((e: any) => e.node.id)).toEqual(forward.slice(4));
    const before = (await server.graphql(JOBS, { last: 3, before: last.pageInfo.startCursor }, a.key)).body.data.importJobs;
    expect(before.edges.map((e: any) => e.node.id)).toEqual(forward.slice(1, 4));
  });

  it('filters by status and kind', async () => {
    const res = await server.graphql(JOBS, { first: 10, status: 'COMPLETED', kind: 'CATALOG' }, a.key);
    expect(res.body.data.importJobs.totalCount).toBe(4);
    expect(res.body.data.importJobs.edges.every((e: any) => e.node.state === 'COMPLETED' && e.node.kind === 'CATALOG')).toBe(true);
  });

  it('refuses first above 100 and a bad window with VALIDATION_ERROR, and callers without import.read', async () => {
    const big = await server.graphql(JOBS, { first: 101 }, a.key);
    expect(big.body.errors[0].extensions.code).toBe('VALIDATION_ERROR');
    const window = await server.graphql('{ importJobs(first: 1, from: "2026-02-01", to: "2026-01-01") { totalCount } }', {}, a.key);
    expect([window.body.errors[0].extensions.code, window.body.errors[0].extensions.details]).toEqual(['VALIDATION_ERROR', { to: ['Must not be before from'] }]);
    const other = await a.keyWith(['inventory:read']);
    const refused = await server.graphql(JOBS, { first: 1 }, other);
    expect(refused.body.errors[0].extensions.code).toBe('INSUFFICIENT_SCOPE');
  });
});
