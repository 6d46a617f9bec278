import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct } from '../support/api.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { runWithPermissions } from '../support/graphql.js';
import { importRows, waitForJob } from '../support/import.js';
import { startTestServer, type TestServer } from '../support/server.js';

// Import rows with numbers a double cannot hold (1e309 parses to Infinity, which JSON.stringify would
// store as null, a blank field), text the database cannot hold, and repeated stock lines.
let server: TestServer;
let a: Tenant;

beforeAll(async () => {
  server = await startTestServer({ IMPORT_WORKERS: '1', IMPORT_POLL_MS: '20' });
  a = await createTenant(server.app.prisma);
});
afterAll(() => server?.close());

async function healthy() {
  expect((await fetch(`${server.url}/health`, { signal: AbortSignal.timeout(5000) })).status).toBe(200);
}

/** POST raw JSON text to an import path; the job once it has ended. */
async function importText(path: string, text: string) {
  const res = await server.call('POST', `/api/import/${path}`, { token: a.key, body: text });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return waitForJob(server, a.key, res.body.jobId);
}

const onHandOf = async (sku: string) => {
  const product = await server.app.prisma.productMaster.findFirstOrThrow({ where: { organizationId: a.org.id, sku } });
  const line = await server.app.prisma.stockLine.findFirstOrThrow({ where: { productMasterId: product.id, locationId: a.warehouse.id, lotId: null, binId: null } });
  return { onHand: line.qtyOnHand, reserved: line.qtyReserved, lineId: line.id };
};

describe('numbers too large for a double', () => {
  it('inventory onHand 1e309 rejects the row with its field; on hand stays 200', async () => {
    await createProduct(server, a.key, 'INF-1');
    await importRows(server, a.key, 'inventory', [{ sku: 'INF-1', locationCode: 'WH1', onHand: 200 }]);
    const job = await importText('inventory', '[{"sku":"INF-1","locationCode":"WH1","onHand":1e309},{"sku":"INF-1","locationCode":"WH1","reserved":-1e309,"onHand":200}]');
    expect(job).toMatchObject({ state: 'COMPLETED', processedRows: 2, rejectedRows: 2 });
    expect(job.errors).toEqual([
      { row: 1, field: 'onHand', message: 'Must be a finite number' },
      { row: 2, field: 'reserved', message: 'Must be a finite number' },
    ]);
    expect((await onHandOf('INF-1')).onHand).toBe(200);
    await healthy();
  });

  it('catalog unitCost 1e309 rejects the row and keeps the stored cost; 1e309 as an externalId is not taken as the text "Infinity"', async () => {
    await importRows(server, a.key, 'catalog', [{ externalId: 'INF-COST', unitCost: 12.5 }]);
    const job = await importText('catalog', '[{"externalId":"INF-COST","unitCost":1e309},{"externalId":1e309},{"externalId":"INF-OK","unitCost":1e300}]');
    expect(job.errors).toEqual([
      { row: 1, field: 'unitCost', message: 'Must be a finite number' },
      { row: 2, field: 'externalId', message: expect.stringContaining('Must be a string') },
      { row: 3, field: 'unitCost', message: 'At most 9999999999.9999' },
    ]);
    const product = await server.app.prisma.productMaster.findFirstOrThrow({ where: { organizationId: a.org.id, sku: 'INF-COST' } });
    expect(Number(product.unitCost)).toBe(12.5);
    expect(await server.app.prisma.productMaster.count({ where: { organizationId: a.org.id, sku: { in: ['Infinity', 'INF-OK'] } } })).toBe(0);
    await healthy();
  });

  it('numbers in the lines of orders and purchase orders, and demand units, are rejected by field', async () => {
    await createProduct(server, a.key, 'INF-LINE');
    await importRows(server, a.key, 'suppliers', [{ code: 'SUP-INF' }]);
    const po = await importText('purchase-orders', '[{"number":"PO-INF","supplierCode":"SUP-INF","destinationLocationCode":"WH1","lines":[{"sku":"INF-LINE","quantity":1e309}]}]');
    expect(po.errors).toEqual([{ row: 1, field: 'lines.0.quantity', message: 'Must be a finite number' }]);
    const orders = await importText('orders', '[{"externalId":"SO-INF","fulfillmentLocationCode":"WH1","lines":[{"sku":"INF-LINE","quantity":1e309}]}]');
    expect(orders.errors).toEqual([{ row: 1, field: 'lines.0.quantity', message: 'Must be a finite number' }]);
    const demand = await importText('demand-history', '[{"sku":"INF-LINE","locationCode":"WH1","date":"2026-01-05","actualDemand":1e309}]');
    expect(demand.errors).toEqual([{ row: 1, field: 'actualDemand', message: 'Must be a finite number' }]);
    await healthy();
  });

  it('a quantity beyond int4 and a date beyond 2200 are rejected by field', async () => {
    await createProduct(server, a.key, 'BIG-1');
    const job = await importText('inventory', '[{"sku":"BIG-1","locationCode":"WH1","onHand":2147483648},{"sku":"BIG-1","locationCode":"WH1","threshold":1e20}]');
    expect(job.errors).toEqual([
      { row: 1, field: 'onHand', message: 'At most 2147483647' },
      { row: 2, field: 'threshold', message: 'At most 2147483647' },
    ]);
    const demand = await importText('demand-history', '[{"sku":"BIG-1","locationCode":"WH1","date":"+099999-12-05"},{"sku":"BIG-1","locationCode":"WH1","date":"1969-12-31"}]');
    expect(demand.errors).toEqual([
      { row: 1, field: 'date', message: 'Must be an ISO date (YYYY-MM-DD)' },
      { row: 2, field: 'date', message: 'The year must be from 1970 to 2200' },
    ]);
    await healthy();
  });
});

describe('rows that reach the appliers without the HTTP input check', () => {
  it('a NUL character in a row is a row rejection, not a failed job', async () => {
    // In-process GraphQL has no HTTP door: the appliers must still refuse what PostgreSQL cannot store.
    const result = await runWithPermissions(server.app, a.org, ['import.write'], 'mutation ($rows: JSON!) { startImport(kind: CATALOG, rows: $rows) { ... on ImportJob { id } } }', {
      rows: [{ externalId: 'NUL-ROW', name: 'a\u0000b' }, { externalId: 'NUL-OK' }, { externalId: 'NUL\u0000SKU' }],
    });
    expect(result.errors).toBeUndefined();
    const job = await waitForJob(server, a.key, (result.data as any).startImport.id);
    expect(job).toMatchObject({ state: 'COMPLETED', processedRows: 3, rejectedRows: 2 });
    expect(job.errors.map((e) => [e.row, e.field])).toEqual([
      [1, 'name'],
      [3, 'externalId'],
    ]);
  });
});

describe('text the database cannot store, in rows that reach the appliers without the HTTP input check', () => {
  const startImport = async (kind: string, rows: unknown[]) => {
    const result = await runWithPermissions(server.app, a.org, ['import.write'], `mutation ($rows: JSON!) { startImport(kind: ${kind}, rows: $rows) { ... on ImportJob { id } } }`, { rows });
    expect(result.errors).toBeUndefined();
    return waitForJob(server, a.key, (result.data as any).startImport.id);
  };

  it('a lone surrogate in a catalog name or SKU, a demand channel or an order id rejects its row with the field; the good rows of the chunk go in', async () => {
    const catalog = await startImport('CATALOG', [{ externalId: 'SUR-OK-1' }, { externalId: 'SUR-NAME', name: 'a\ud800' }, { externalId: 'SUR\udc00SKU' }, { externalId: 'SUR-OK-2' }]);
    expect(catalog).toMatchObject({ state: 'COMPLETED', processedRows: 4, rejectedRows: 2 });
    expect(catalog.errors).toEqual([
      { row: 2, field: 'name', message: expect.stringContaining('lone surrogate') },
      { row: 3, field: 'externalId', message: expect.stringContaining('lone surrogate') },
    ]);
    const skus = (await server.app.prisma.productMaster.findMany({ where: { organizationId: a.org.id, sku: { startsWith: 'SUR' } } })).map((p) => p.sku).sort();
    expect(skus).toEqual(['SUR-OK-1', 'SUR-OK-2']);

    const demand = await startImport('DEMAND_HISTORY', [
      { sku: 'SUR-OK-1', locationCode: 'WH1', date: '2026-01-05', channel: 'W\ud800B', actualDemand: 3 },
      { sku: 'SUR-OK-1', locationCode: 'WH1', date: '2026-01-05', channel: 'WEB', actualDemand: 4 },
    ]);
    expect(demand).toMatchObject({ state: 'COMPLETED', processedRows: 2, rejectedRows: 1 });
    expect(demand.errors).toEqual([{ row: 1, field: 'channel', message: expect.stringContaining('lone surrogate') }]);
    expect(await server.app.prisma.demandHistory.count({ where: { organizationId: a.org.id, channel: 'WEB' } })).toBe(1);

    const orders = await startImport('ORDERS', [
      { externalId: 'SO-\ud800', fulfillmentLocationCode: 'WH1', lines: [{ sku: 'SUR-OK-1', quantity: 1 }] },
      { externalId: 'SO-SUR-OK', fulfillmentLocationCode: 'WH1', lines: [{ sku: 'SUR-OK-1', quantity: 1 }] },
    ]);
    expect(orders).toMatchObject({ state: 'COMPLETED', processedRows: 2, rejectedRows: 1 });
    expect(orders.errors).toEqual([{ row: 1, field: 'externalId', message: expect.stringContaining('lone surrogate') }]);
    await healthy();
  });

  it('a row the database refuses for a reason no contract knows is rejected alone; the other rows of its chunk are applied', async () => {
    // A real refusal by the database, of one SKU only: what any constraint the contracts do not mirror would do.
    const db = server.app.prisma;
    await db.$executeRawUnsafe(`CREATE FUNCTION refuse_one_sku() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.sku = 'DB-REFUSES' THEN RAISE EXCEPTION 'this row is refused'; END IF; RETURN NEW; END $$`);
    await db.$executeRawUnsafe('CREATE TRIGGER refuse_one_sku BEFORE INSERT OR UPDATE ON product_masters FOR EACH ROW EXECUTE FUNCTION refuse_one_sku()');
    try {
      const job = await startImport('CATALOG', [{ externalId: 'DB-OK-1' }, { externalId: 'DB-REFUSES' }, { externalId: 'DB-OK-2', name: 'Second' }]);
      expect(job).toMatchObject({ state: 'COMPLETED', processedRows: 3, rejectedRows: 1, failureReason: null });
      expect(job.errors).toEqual([{ row: 2, field: '_', message: expect.stringContaining('The database refused this row') }]);
      const stored = await db.productMaster.findMany({ where: { organizationId: a.org.id, sku: { startsWith: 'DB-' } }, orderBy: { sku: 'asc' } });
      expect(stored.map((p) => [p.sku, p.name])).toEqual([
        ['DB-OK-1', 'DB-OK-1'],
        ['DB-OK-2', 'Second'],
      ]);
    } finally {
      await db.$executeRawUnsafe('DROP TRIGGER refuse_one_sku ON product_masters');
      await db.$executeRawUnsafe('DROP FUNCTION refuse_one_sku()');
    }
    await healthy();
  });
});

describe('inventory rows for the same stock line in one request', () => {
  it('each row writes its own ledger rows, in row order, chained', async () => {
    await createProduct(server, a.key, 'LEDGER-1');
    const job = await importRows(server, a.key, 'inventory', [
      { sku: 'LEDGER-1', locationCode: 'WH1', onHand: 10 },
      { sku: 'LEDGER-1', locationCode: 'WH1', onHand: 25, reserved: 5 },
      { sku: 'LEDGER-1', locationCode: 'WH1', onHand: 25, reserved: 5 },
      { sku: 'LEDGER-1', locationCode: 'WH1', onHand: 7, reserved: 0, threshold: 3 },
    ]);
    expect(job.rejectedRows).toBe(0);
    const { lineId, onHand, reserved } = await onHandOf('LEDGER-1');
    expect({ onHand, reserved }).toEqual({ onHand: 7, reserved: 0 });
    const ledger = await server.app.prisma.stockTransaction.findMany({ where: { stockLineId: lineId }, orderBy: [{ createdAt: 'asc' }, { seq: 'asc' }] });
    expect(ledger.map((t) => [t.comment, t.bucket, t.deltaQty, t.qtyBefore, t.qtyAfter])).toEqual([
      ['Import row 1', 'ON_HAND', 10, 0, 10],
      ['Import row 2', 'ON_HAND', 15, 10, 25],
      ['Import row 2', 'RESERVED', 5, 0, 5],
      // row 3 changes nothing: no ledger row
      ['Import row 4', 'ON_HAND', -18, 25, 7],
      ['Import row 4', 'RESERVED', -5, 5, 0],
    ]);
    expect(ledger.every((t) => t.transactionType === 'IMPORT')).toBe(true);
    const level = await server.app.prisma.inventoryLevel.findFirstOrThrow({ where: { locationId: a.warehouse.id, productMaster: { sku: 'LEDGER-1' } } });
    expect(level.minQuantity).toBe(3);
  });

  it('a row that breaks the quantity rule for the line as the earlier rows left it is rejected alone', async () => {
    await createProduct(server, a.key, 'LEDGER-2');
    const job = await importRows(server, a.key, 'inventory', [
      { sku: 'LEDGER-2', locationCode: 'WH1', onHand: 10, reserved: 4 },
      { sku: 'LEDGER-2', locationCode: 'WH1', onHand: 3, reserved: 4 },
      { sku: 'LEDGER-2', locationCode: 'WH1', onHand: 12, reserved: 4 },
    ]);
    expect(job.errors).toEqual([{ row: 2, field: 'reserved', message: 'Reserved (4) must not exceed onHand (3)' }]);
    expect(await onHandOf('LEDGER-2')).toMatchObject({ onHand: 12, reserved: 4 });
  });
});
