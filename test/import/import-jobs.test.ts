import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocationFor } from '../../src/services/admin/admin.js';
import { CHUNK_SIZE, CHUNK_SIZES } from '../../src/kernel/import-limits.js';
import { importEvents } from '../../src/services/import/jobs/jobs.js';
import { startImportWorkers } from '../../src/services/import/jobs/worker.js';
import type { Tenant } from '../support/fixtures.js';
import type { TestServer } from '../support/server.js';
import { startServerWithTwoTenants } from '../support/two-tenants.js';
import { countStatements } from '../support/statement-count.js';

let server: TestServer;
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants({ IMPORT_WORKERS: '1', IMPORT_POLL_MS: '100' }));
}, 60_000);
afterAll(() => server?.close());

/**
 * server.call, once more when the connection drops before an answer: PGlite runs in this process and
 * blocks its event loop during a chunk, so an idle keep-alive socket can expire just as it is reused
 * (the request then never reached a handler, and repeating it is safe).
 */
async function call(method: string, path: string, options: Parameters<TestServer['call']>[2]) {
  try {
    return await server.call(method, path, options);
  } catch {
    return server.call(method, path, options);
  }
}

/** Polls the status route until the job ends. */
async function waitForJob(token: string, jobId: string) {
  for (let i = 0; i < 600; i++) {
    const res = await call('GET', `/api/import/status/${jobId}`, { token });
    expect(res.status).toBe(200);
    if (res.body.state === 'COMPLETED' || res.body.state === 'FAILED') return { job: res.body };
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`job ${jobId} did not end`);
}

const catalogRows = (n: number, prefix: string) =>
  Array.from({ length: n }, (_, i) => ({ externalId: `${prefix}-${i}`, ...(i % 2 ? { name: `Product ${i}` } : {}), unitCost: i % 7, category: `Cat ${i % 3}` }));

describe('catalog import', () => {
  let jobId: string;
  it('accepts 5,000 rows with 202, applies the good ones and reports the bad ones by row and field', async () => {
    const rows: unknown[] = catalogRows(5000, 'CAT');
    rows[9] = { name: 'no id' }; // row 10
    rows[2999] = { externalId: 'CAT-bad-cost', unitCost: 'lots' }; // row 3000
    rows[4999] = 'not an object'; // row 5000
    // The workers run in this process: record every checkpoint of every job.
    const seen: { id: string; state: string; processedRows: number }[] = [];
    importEvents.on('progress', (job) => seen.push({ id: job.id, state: job.state, processedRows: job.processedRows }));
    const res = await server.call('POST', '/api/import/catalog', { token: a.key, body: rows });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ kind: 'CATALOG', state: 'PENDING', status: 'PENDING', totalRows: 5000, processedRows: 0, rejectedRows: 0 });
    expect(res.body.jobId).toBe(res.body.id);
    expect(res.body.statusUrl).toBe(`/api/import/status/${res.body.jobId}`);
    jobId = res.body.jobId;

    const { job } = await waitForJob(a.key, jobId);
    // PENDING (the 202 above), PROCESSING once a worker takes it, then one checkpoint per chunk of 2,000
    // catalog rows, the last one COMPLETED.
    expect(CHUNK_SIZES.CATALOG ?? CHUNK_SIZE).toBe(2000);
    expect(seen.filter((e) => e.id === jobId)).toEqual([
      { id: jobId, state: 'PROCESSING', processedRows: 0 },
      { id: jobId, state: 'PROCESSING', processedRows: 2000 },
      { id: jobId, state: 'PROCESSING', processedRows: 4000 },
      { id: jobId, state: 'COMPLETED', processedRows: 5000 },
    ]);
    expect(job).toMatchObject({ state: 'COMPLETED', status: 'COMPLETED', totalRows: 5000, processedRows: 5000, rejectedRows: 3, errorCount: 3 });
    expect(job.completedAt).toBeTruthy();
    expect(job.startedAt).toBeTruthy();
    expect(job.errors).toEqual([
      { row: 10, field: 'externalId', message: 'Required' },
      { row: 3000, field: 'unitCost', message: 'Must be a number' },
      { row: 5000, field: '_', message: 'Each row must be a JSON object' },
    ]);
  }, 60_000);

  it('creates the products (name defaults to externalId) and their categories', async () => {
    const list = await server.call('GET', '/api/products?search=CAT-&limit=1', { token: a.key });
    expect(list.body.meta.total).toBe(4997);
    const named = await server.call('GET', '/api/products?search=CAT-4997', { token: a.key });
    expect(named.body.data.map((p: any) => [p.sku, p.name])).toEqual([['CAT-4997', 'Product 4997']]);
    const unnamed = await server.call('GET', '/api/products?search=CAT-4998', { token: a.key });
    expect(unnamed.body.data.map((p: any) => [p.sku, p.name])).toEqual([['CAT-4998', 'CAT-4998']]);
    const categories = await server.app.prisma.category.findMany({ where: { organizationId: a.org.id, name: { startsWith: 'Cat ' } } });
    expect(categories.map((c) => c.name).sort()).toEqual(['Cat 0', 'Cat 1', 'Cat 2']);
  });

  it('updates on re-import instead of duplicating; the last row of an externalId in a request wins', async () => {
    const res = await server.call('POST', '/api/import/catalog', {
      token: a.key,
      body: { rows: [{ externalId: 'CAT-12', name: 'First' }, { externalId: 'CAT-12', name: 'Renamed', unitCost: '2.5' }, { externalId: 'CAT-11' }] },
    });
    expect(res.status).toBe(202);
    const { job } = await waitForJob(a.key, res.body.jobId);
    expect(job).toMatchObject({ state: 'COMPLETED', processedRows: 3, rejectedRows: 0, errors: [] });
    expect(await server.app.prisma.productMaster.count({ where: { organizationId: a.org.id, sku: { startsWith: 'CAT-' } } })).toBe(4997);
    const p12 = await server.app.prisma.productMaster.findFirstOrThrow({ where: { organizationId: a.org.id, sku: 'CAT-12' } });
    expect(p12.name).toBe('Renamed');
    expect(Number(p12.unitCost)).toBe(2.5);
    // A row without a name keeps the existing name.
    const p11 = await server.app.prisma.productMaster.findFirstOrThrow({ where: { organizationId: a.org.id, sku: 'CAT-11' } });
    expect(p11.name).toBe('Product 11');
  }, 30_000);

  it('rejects a unit cost too large for the product column instead of failing the job', async () => {
    const res = await server.call('POST', '/api/import/catalog', {
      token: a.key,
      body: [{ externalId: 'CAT-COST-1', unitCost: 1e10 }, { externalId: 'CAT-COST-2', unitCost: '9999999999' }],
    });
    const { job } = await waitForJob(a.key, res.body.jobId);
    expect(job).toMatchObject({ state: 'COMPLETED', processedRows: 2, rejectedRows: 1, failureReason: null });
    expect(job.errors).toEqual([{ row: 1, field: 'unitCost', message: 'At most 9999999999.9999' }]);
    const kept = await server.app.prisma.productMaster.findFirstOrThrow({ where: { organizationId: a.org.id, sku: 'CAT-COST-2' } });
    expect(Number(kept.unitCost)).toBe(9999999999);
  }, 30_000);

  it('refuses a request with a NUL character in a row (PostgreSQL cannot store it), naming the row and field', async () => {
    const res = await server.call('POST', '/api/import/catalog', { token: a.key, body: [{ externalId: 'CAT-NUL-OK' }, { externalId: 'CAT-NUL', name: 'a\u0000b' }] });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { '1.name': [expect.stringContaining('NUL')] } });
  }, 30_000);

  it('refuses a request with a lone surrogate in a row like a NUL, naming the row and field, before a job is created', async () => {
    const jobs = await server.app.prisma.importJob.count({ where: { organizationId: a.org.id } });
    const res = await server.call('POST', '/api/import/catalog', { token: a.key, body: [{ externalId: 'CAT-SUR-OK' }, { externalId: 'CAT-SUR\ud800', name: 'b\udc00' }] });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { '1.externalId': [expect.stringContaining('lone surrogate')], '1.name': [expect.stringContaining('lone surrogate')] } });
    expect(await server.app.prisma.importJob.count({ where: { organizationId: a.org.id } })).toBe(jobs);
  }, 30_000);

  it('refuses a body that is not rows (the envelope contract) with 400 naming it, before a job is created', async () => {
    const notRows = await server.call('POST', '/api/import/catalog', { token: a.key, body: { items: [] } });
    expect(notRows.status).toBe(400);
    expect(notRows.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { rows: ['The body must be a JSON array of rows or an object {"rows": [...]}'] } });
    const empty = await server.call('POST', '/api/import/catalog', { token: a.key, body: { rows: [] } });
    expect(empty.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { rows: ['At least one row is required'] } });
    const graphql = await server.graphql(
      'mutation { startImport(kind: CATALOG, rows: []) { ... on ValidationError { code fields { field messages } } ... on ImportJob { id } } }',
      {},
      a.key,
    );
    expect(graphql.body.data.startImport).toEqual({ code: 'VALIDATION_ERROR', fields: [{ field: 'rows', messages: ['At least one row is required'] }] });
  }, 30_000);

  it('keeps rows in the caller organization only', async () => {
    const res = await server.call('POST', '/api/import/catalog', { token: b.key, body: [{ externalId: 'CAT-1', name: 'B product' }] });
    const { job } = await waitForJob(b.key, res.body.jobId);
    expect(job.state).toBe('COMPLETED');
    const inB = await server.call('GET', '/api/products?search=CAT-', { token: b.key });
    expect(inB.body.data.map((p: any) => p.sku)).toEqual(['CAT-1']);
    const inA = await server.app.prisma.productMaster.findFirstOrThrow({ where: { organizationId: a.org.id, sku: 'CAT-1' } });
    expect(inA.name).toBe('Product 1');
  }, 30_000);

  it('answers 404 for another organization’s job and for unknown ids', async () => {
    expect((await server.call('GET', `/api/import/status/${jobId}`, { token: b.key })).status).toBe(404);
    const unknown = await server.call('GET', '/api/import/status/00000000-0000-0000-0000-000000000000', { token: a.key });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('NOT_FOUND');
    const gql = await server.graphql('query ($id: ID!) { importJob(id: $id) { id } }', { id: jobId }, b.key);
    expect(gql.body).toEqual({ data: { importJob: null } });
  });
});

describe('limits, body and scopes', () => {
  it('answers 413 for more than 100,000 rows', async () => {
    const rows = Array.from({ length: 100_001 }, () => ({}));
    const res = await server.call('POST', '/api/import/catalog', { token: a.key, body: rows });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('PAYLOAD_TOO_LARGE');
    expect(res.body.error).toMatch(/100000 rows per import request/);
  });

  it('answers 413 for a body over 50 MB', async () => {
    const res = await server.call('POST', '/api/import/catalog', { token: a.key, body: `[${JSON.stringify('x'.repeat(51 * 1024 * 1024))}]` });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('PAYLOAD_TOO_LARGE');
  }, 30_000);

  it('answers 400 for a body that is not an array of rows, or an empty one', async () => {
    for (const body of [{ externalId: 'X' }, '"text"', []]) {
      const res = await server.call('POST', '/api/import/catalog', { token: a.key, body });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(res.body.details.rows).toBeTruthy();
    }
  });

  it('needs import:write to start and import:read to read a job', async () => {
    const readOnly = await a.keyWith(['inventory:read']);
    const denied = await server.call('POST', '/api/import/catalog', { token: readOnly, body: [{ externalId: 'NOPE' }] });
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe('INSUFFICIENT_SCOPE');

    const writer = await a.keyWith(['import:write']);
    const started = await server.call('POST', '/api/import/catalog', { token: writer, body: [{ externalId: 'SCOPED-1' }] });
    expect(started.status).toBe(202);
    const reader = await a.keyWith(['import:read']);
    expect((await server.call('GET', `/api/import/status/${started.body.jobId}`, { token: reader })).status).toBe(200);
    const other = await server.call('GET', `/api/import/status/${started.body.jobId}`, { token: readOnly });
    expect(other.status).toBe(403);
    expect(other.body.code).toBe('INSUFFICIENT_SCOPE');
    expect((await server.call('POST', '/api/import/catalog', { token: reader, body: [{ externalId: 'X' }] })).status).toBe(403);
    expect((await server.call('POST', '/api/import/catalog', { body: [{ externalId: 'X' }] })).status).toBe(401);
    await waitForJob(writer, started.body.jobId);
    expect(await server.app.prisma.productMaster.count({ where: { sku: 'NOPE' } })).toBe(0);
  }, 30_000);
});

describe('inventory import', () => {
  it('sets on hand, reserved and the level minimum through the ledger; rejects unknown SKUs and locations', async () => {
    const east = await createLocationFor(server.operator, { organizationId: a.org.id, code: 'DC-EAST', name: 'East' });
    const seed = await server.call('POST', '/api/import/catalog', { token: a.key, body: [{ externalId: 'INV-1' }, { externalId: 'INV-2' }, { externalId: 'INV-3' }] });
    await waitForJob(a.key, seed.body.jobId);
    const res = await server.call('POST', '/api/import/inventory', {
      token: a.key,
      body: [
        { sku: 'INV-1', locationCode: 'WH1', onHand: 50, reserved: 5, threshold: 10 },
        { sku: 'INV-3', locationCode: `${a.org.id}-${east.id}` }, // defaults: 0, 0, 0
        { sku: 'NOPE', locationCode: 'WH1', onHand: 3 },
        { sku: 'INV-1', locationCode: 'NOWHERE', onHand: 3 },
        { sku: 'INV-2', locationCode: 'WH1', onHand: 2, reserved: 3 },
        { sku: 'INV-2', locationCode: 'DC-EAST', onHand: '7', threshold: 2 },
      ],
    });
    expect(res.status).toBe(202);
    const { job } = await waitForJob(a.key, res.body.jobId);
    expect(job).toMatchObject({ state: 'COMPLETED', processedRows: 6, rejectedRows: 3 });
    expect(job.errors).toEqual([
      { row: 3, field: 'sku', message: 'Unknown SKU NOPE' },
      { row: 4, field: 'locationCode', message: 'Unknown location NOWHERE' },
      { row: 5, field: 'reserved', message: 'Reserved (3) must not exceed onHand (2)' },
    ]);

    const products = await server.app.prisma.productMaster.findMany({ where: { organizationId: a.org.id, sku: { in: ['INV-1', 'INV-2', 'INV-3'] } } });
    const id = (sku: string) => products.find((p) => p.sku === sku)!.id;
    const line1 = await server.app.prisma.stockLine.findFirstOrThrow({ where: { productMasterId: id('INV-1'), locationId: a.warehouse.id } });
    expect([line1.qtyOnHand, line1.qtyReserved]).toEqual([50, 5]);
    const line2 = await server.app.prisma.stockLine.findFirstOrThrow({ where: { productMasterId: id('INV-2'), locationId: east.id } });
    expect([line2.qtyOnHand, line2.qtyReserved]).toEqual([7, 0]);
    const level1 = await server.app.prisma.inventoryLevel.findFirstOrThrow({ where: { productMasterId: id('INV-1'), locationId: a.warehouse.id } });
    expect(level1.minQuantity).toBe(10);
    expect(level1.reorderQuantity).toBeGreaterThanOrEqual(10);
    const level2 = await server.app.prisma.inventoryLevel.findFirstOrThrow({ where: { productMasterId: id('INV-2'), locationId: east.id } });
    expect(level2.minQuantity).toBe(2);
    // A row with no quantities: the line exists with 0 on hand and 0 reserved, and the level's minimum is 0.
    const line3 = await server.app.prisma.stockLine.findFirstOrThrow({ where: { productMasterId: id('INV-3'), locationId: east.id } });
    expect([line3.qtyOnHand, line3.qtyReserved]).toEqual([0, 0]);
    expect((await server.app.prisma.inventoryLevel.findFirstOrThrow({ where: { productMasterId: id('INV-3'), locationId: east.id } })).minQuantity).toBe(0);

    const ledger = await server.call('GET', `/api/inventory/adjustments?bucket=ALL&transactionType=IMPORT&productMasterId=${id('INV-1')}`, { token: a.key });
    expect(ledger.status).toBe(200);
    expect(ledger.body.entries.map((e: any) => [e.bucket, e.deltaQty, e.qtyAfter]).sort()).toEqual([
      ['ON_HAND', 50, 50],
      ['RESERVED', 5, 5],
    ]);

    // Absolute values: importing again moves only the difference; unchanged lines write no ledger row.
    const again = await server.call('POST', '/api/import/inventory', {
      token: a.key,
      body: [{ sku: 'INV-1', locationCode: 'WH1', onHand: 40, reserved: 5, threshold: 1 }, { sku: 'INV-2', locationCode: 'DC-EAST', onHand: 7, threshold: 2 }],
    });
    expect((await waitForJob(a.key, again.body.jobId)).job.state).toBe('COMPLETED');
    const after = await server.call('GET', `/api/inventory/adjustments?bucket=ALL&transactionType=IMPORT`, { token: a.key });
    expect(after.body.total).toBe(4);
    const latest = after.body.entries.find((e: any) => e.productMasterId === id('INV-1') && e.deltaQty === -10);
    expect(latest).toMatchObject({ bucket: 'ON_HAND', qtyBefore: 50, qtyAfter: 40, transactionType: 'IMPORT' });
    const level1b = await server.app.prisma.inventoryLevel.findFirstOrThrow({ where: { id: level1.id } });
    expect(level1b.minQuantity).toBe(1);

    // Another organization cannot name A's products or locations.
    const foreign = await server.call('POST', '/api/import/inventory', { token: b.key, body: [{ sku: 'INV-1', locationCode: 'DC-EAST', onHand: 999 }] });
    const { job: fj } = await waitForJob(b.key, foreign.body.jobId);
    expect(fj.rejectedRows).toBe(1);
    const unchanged = await server.app.prisma.stockLine.findFirstOrThrow({ where: { id: line1.id } });
    expect(unchanged.qtyOnHand).toBe(40);
  }, 60_000);
});

describe('several workers on one database', () => {
  it('share the jobs without applying any chunk twice', async () => {
    // Three more worker loops beside the server's own one, claiming with FOR UPDATE SKIP LOCKED.
    const extra = startImportWorkers(server.app, { count: 3, pollMs: 20 });
    try {
      const locations = await Promise.all(['M1', 'M2', 'M3'].map((code) => createLocationFor(server.operator, { organizationId: a.org.id, code, name: code })));
      const catalog = await call('POST', '/api/import/catalog', { token: a.key, body: catalogRows(5000, 'MULTI') });
      expect((await waitForJob(a.key, catalog.body.jobId)).job).toMatchObject({ state: 'COMPLETED', processedRows: 5000, rejectedRows: 0 });
      const jobs = await Promise.all(
        locations.map((location) =>
          call('POST', '/api/import/inventory', {
            token: a.key,
            body: Array.from({ length: 600 }, (_, i) => ({ sku: `MULTI-${i}`, locationCode: location.code, onHand: i + 1 })),
          }),
        ),
      );
      for (const res of jobs) expect((await waitForJob(a.key, res.body.jobId)).job).toMatchObject({ state: 'COMPLETED', processedRows: 600, rejectedRows: 0 });
      const ledger = await server.app.prisma.stockTransaction.count({ where: { organizationId: a.org.id, locationId: { in: locations.map((l) => l.id) } } });
      expect(ledger).toBe(1800);
      const lines = await server.app.prisma.stockLine.aggregate({ where: { locationId: { in: locations.map((l) => l.id) } }, _sum: { qtyOnHand: true }, _count: true });
      expect(lines).toEqual({ _sum: { qtyOnHand: 3 * ((600 * 601) / 2) }, _count: 1800 });
    } finally {
      await extra.stop();
    }
  }, 120_000);
});

describe('chunks applied at once', () => {
  it('applies the chunks of a job whose keys are each in one chunk on several workers, and completes it once', async () => {
    const extra = startImportWorkers(server.app, { count: 3, pollMs: 20 });
    const size = CHUNK_SIZES.CATALOG ?? CHUNK_SIZE;
    try {
      const events: { id: string; state: string; processedRows: number }[] = [];
      const listen = (job: { id: string; state: string; processedRows: number }) => events.push(job);
      importEvents.on('progress', listen);
      const res = await call('POST', '/api/import/catalog', { token: a.key, body: catalogRows(size * 5, 'PAR') });
      const jobId: string = res.body.jobId;
      const { job } = await waitForJob(a.key, jobId);
      importEvents.off('progress', listen);
      const seen = events.filter((e) => e.id === jobId);
      expect(job).toMatchObject({ state: 'COMPLETED', processedRows: size * 5, rejectedRows: 0 });
      expect((await server.app.prisma.importJob.findUniqueOrThrow({ where: { id: jobId } })).independentChunks).toBe(true);
      expect(await server.app.prisma.productMaster.count({ where: { organizationId: a.org.id, sku: { startsWith: 'PAR-' } } })).toBe(size * 5);
      // Every checkpoint counted its rows once; only the last one completed the job.
      expect(seen.map((j) => j.processedRows).sort((x, y) => x - y)).toEqual([0, 1, 2, 3, 4, 5].map((k) => k * size));
      expect(seen.filter((j) => j.state === 'COMPLETED')).toHaveLength(1);
    } finally {
      await extra.stop();
    }
  }, 120_000);

  it('applies a job with a key in two chunks in order, so the last row of the key wins', async () => {
    const extra = startImportWorkers(server.app, { count: 3, pollMs: 20 });
    const size = CHUNK_SIZES.CATALOG ?? CHUNK_SIZE;
    try {
      const rows = catalogRows(size * 3, 'SEQ') as { externalId: string; name?: string }[];
      rows[0] = { externalId: 'SEQ-KEY', name: 'First' };
      rows[size + 5] = { externalId: 'seq-key ', name: 'The same SKU in another case' };
      rows[size * 3 - 1] = { externalId: 'SEQ-KEY', name: 'Last' };
      const res = await call('POST', '/api/import/catalog', { token: a.key, body: rows });
      const { job } = await waitForJob(a.key, res.body.jobId);
      expect(job).toMatchObject({ state: 'COMPLETED', rejectedRows: 1 });
      expect(job.errors).toEqual([{ row: size + 6, field: 'externalId', message: expect.stringContaining('already exists') }]);
      expect((await server.app.prisma.importJob.findUniqueOrThrow({ where: { id: res.body.jobId } })).independentChunks).toBe(false);
      expect((await server.app.prisma.productMaster.findFirstOrThrow({ where: { organizationId: a.org.id, sku: 'SEQ-KEY' } })).name).toBe('Last');
    } finally {
      await extra.stop();
    }
  }, 120_000);
});

describe('chunk boundaries', () => {
  it('keeps a demand job that names one location by its code and by its normalized form in order: the last row wins', async () => {
    const extra = startImportWorkers(server.app, { count: 3, pollMs: 20 });
    const size = CHUNK_SIZES.DEMAND_HISTORY ?? CHUNK_SIZE;
    try {
      const seed = await call('POST', '/api/import/catalog', { token: a.key, body: [{ externalId: 'DEM-MIX' }] });
      await waitForJob(a.key, seed.body.jobId);
      // One row per week, so that no key repeats in its own form; the last row names the first row's
      // week and location in the other form.
      const week = (i: number) => new Date(Date.UTC(2001, 0, 1) + i * 7 * 86_400_000).toISOString().slice(0, 10);
      const rows = Array.from({ length: size + 1 }, (_, i) => ({ sku: 'DEM-MIX', locationCode: 'WH1', date: week(i), actualDemand: 1 }));
      rows[size] = { sku: 'DEM-MIX', locationCode: `${a.org.id}-${a.warehouse.id}`, date: week(0), actualDemand: 99 };
      const res = await call('POST', '/api/import/demand-history', { token: a.key, body: rows });
      expect((await waitForJob(a.key, res.body.jobId)).job).toMatchObject({ state: 'COMPLETED', rejectedRows: 0 });
      expect((await server.app.prisma.importJob.findUniqueOrThrow({ where: { id: res.body.jobId } })).independentChunks).toBe(false);
      const first = await server.app.prisma.demandHistory.findFirstOrThrow({ where: { organizationId: a.org.id, locationId: a.warehouse.id, weekStart: new Date(week(0)) } });
      expect(first.actualUnits).toBe(99);
    } finally {
      await extra.stop();
    }
  }, 120_000);

  it('closes an order chunk at 1,000 lines, never splitting an order', async () => {
    const extra = startImportWorkers(server.app, { count: 1, pollMs: 20 });
    try {
      const seed = await call('POST', '/api/import/catalog', { token: a.key, body: [{ externalId: 'LINED' }] });
      await waitForJob(a.key, seed.body.jobId);
      const order = (n: number, lines: number) => ({ externalId: `LINED-${n}`, fulfillmentLocationCode: 'WH1', lines: Array.from({ length: lines }, () => ({ sku: 'LINED', quantity: 1 })) });
      // 600 + 600 lines pass 1,000, so the second order starts a chunk; 600 + 300 + 100 make 1,000 and fit;
      // the fifth order's line would pass it.
      const res = await call('POST', '/api/import/orders', { token: a.key, body: [order(1, 600), order(2, 600), order(3, 300), order(4, 100), order(5, 1)] });
      expect((await waitForJob(a.key, res.body.jobId)).job).toMatchObject({ state: 'COMPLETED', processedRows: 5, rejectedRows: 0 });
      const chunks = await server.app.prisma.importJobChunk.findMany({ where: { jobId: res.body.jobId }, orderBy: { index: 'asc' } });
      expect(chunks.map((c) => c.firstRow)).toEqual([1, 2, 5]);
      expect(await server.app.prisma.salesOrderLine.count({ where: { salesOrder: { organizationId: a.org.id, externalId: { startsWith: 'LINED-' } } } })).toBe(1601);
    } finally {
      await extra.stop();
    }
  }, 120_000);
});

describe('GraphQL', () => {
  it('starts an import and reads the job with its row errors', async () => {
    const started = await server.graphql(
      'mutation ($rows: JSON!) { startImport(kind: CATALOG, rows: $rows) { ... on ImportJob { id state totalRows } } }',
      { rows: [{ externalId: 'GQL-1' }, { externalId: '' }] },
      a.key,
    );
    expect(started.body.errors).toBeUndefined();
    const id = started.body.data.startImport.id;
    expect(started.body.data.startImport).toMatchObject({ state: 'PENDING', totalRows: 2 });
    await waitForJob(a.key, id);
    const read = await server.graphql('query ($id: ID!) { importJob(id: $id) { state processedRows rejectedRows errorCount rowErrors(first: 5) { row field message } } }', { id }, a.key);
    expect(read.body.data.importJob).toEqual({ state: 'COMPLETED', processedRows: 2, rejectedRows: 1, errorCount: 1, rowErrors: [{ row: 2, field: 'externalId', message: 'Required' }] });
  }, 30_000);

  it('counts and reads the row errors of the jobs shown only, a few per job', async () => {
    // Another organization's job with errors, which a's list must neither count nor read.
    const theirs = await server.call('POST', '/api/import/catalog', { token: b.key, body: [{ externalId: '' }, { externalId: '' }, { externalId: 'B-OK' }] });
    await waitForJob(b.key, theirs.body.jobId);
    // And one of ours with more errors than a page of them (the newest job: first in the list).
    const ours = await server.call('POST', '/api/import/catalog', { token: a.key, body: [{ externalId: '' }, { externalId: '' }, { externalId: '' }, { externalId: 'A-OK' }] });
    await waitForJob(a.key, ours.body.jobId);
    const query = '{ importJobs(first: 10) { edges { node { id errorCount rowErrors(first: 2) { row field } } } } }';
    const { sql, result } = await countStatements(server, () => server.graphql(query, {}, a.key).then((r) => r.body));
    const jobs = (result as { data: { importJobs: { edges: { node: { id: string; errorCount: number; rowErrors: { row: number }[] } }[] } } }).data.importJobs.edges.map((e) => e.node);
    const stored = await server.app.prisma.importJob.findMany({ where: { organizationId: a.org.id }, include: { rowErrors: { orderBy: [{ rowNumber: 'asc' }, { id: 'asc' }] } } });
    expect(jobs.length).toBe(Math.min(10, stored.length));
    for (const job of jobs) {
      const own = stored.find((s) => s.id === job.id)!;
      expect(job.errorCount).toBe(own.rowErrors.length);
      expect(job.rowErrors.map((e) => e.row)).toEqual(own.rowErrors.slice(0, 2).map((e) => e.rowNumber));
    }
    expect(jobs.some((job) => job.errorCount > 2)).toBe(true);
    // Every read of row errors names the jobs shown (never a count of the whole table, every organization's errors),
    // and the errors themselves are read a few per job, not all of them.
    const errorReads = sql.filter((statement) => /import_row_errors/.test(statement));
    expect(errorReads.length).toBe(2);
    expect(errorReads.filter((statement) => !/unnest\(/.test(statement) || /GROUP BY/i.test(statement))).toEqual([]);
    expect(errorReads.filter((statement) => !/COUNT\(/i.test(statement)).every((statement) => /LIMIT/.test(statement))).toBe(true);
  }, 30_000);

  it('refuses startImport without import:write', async () => {
    const readOnly = await a.keyWith(['import:read']);
    const res = await server.graphql('mutation { startImport(kind: CATALOG, rows: [{externalId: "X"}]) { ... on ImportJob { id } } }', {}, readOnly);
    expect(res.body.errors[0].extensions.code).toBe('INSUFFICIENT_SCOPE');
  });
});
