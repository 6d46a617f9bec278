import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocationFor } from '../../src/services/admin/admin.js';
import { DRY_RUN_ERRORS, MAX_ROWS } from '../../src/kernel/import-limits.js';
import { REFUSAL, refusalOf } from '../support/graphql.js';
import { importRows, waitForJob } from '../support/import.js';
import { addStock } from '../support/stock.js';
import type { Tenant } from '../support/fixtures.js';
import type { TestServer } from '../support/server.js';
import { startServerWithTwoTenants } from '../support/two-tenants.js';

let server: TestServer;
let a: Tenant;
let b: Tenant;

/** What a dry run must leave as it was: every table an import writes, counted for both organizations. */
async function counts() {
  const db = server.app.prisma;
  return {
    jobs: await db.importJob.count(),
    chunks: await db.importJobChunk.count(),
    products: await db.productMaster.count(),
    categories: await db.category.count(),
    stockLines: await db.stockLine.count(),
    ledger: await db.stockTransaction.count(),
    levels: await db.inventoryLevel.count(),
    suppliers: await db.supplier.count(),
    purchaseOrders: await db.purchaseOrder.count(),
    salesOrders: await db.salesOrder.count(),
    demand: await db.demandHistory.count(),
  };
}

const dryRun = (token: string, path: string, body: unknown, query = '?dryRun=true') => server.call('POST', `/api/import/${path}${query}`, { token, body });

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants({ IMPORT_WORKERS: '1', IMPORT_POLL_MS: '100' }));
  await importRows(server, a.key, 'catalog', [{ externalId: 'A-1' }, { externalId: 'A-2' }, { externalId: 'Mixed-Case' }]);
  await importRows(server, b.key, 'catalog', [{ externalId: 'B-ONLY' }]);
  await importRows(server, b.key, 'suppliers', [{ code: 'SUP-B' }]);
  await importRows(server, a.key, 'suppliers', [{ code: 'SUP-A' }]);
  await createLocationFor(server.operator, { organizationId: b.org.id, code: 'B-DC', name: 'B only' });
  // 5 units of A-1 at WH1, 3 of them on hold: an inventory row may not set on hand below 3.
  const product = await server.app.prisma.productMaster.findFirstOrThrow({ where: { organizationId: a.org.id, sku: 'A-1' } });
  await addStock(server.app, a.org.id, { productMasterId: product.id, locationId: a.warehouse.id }, { ON_HAND: 5 });
  await addStock(server.app, a.org.id, { productMasterId: product.id, locationId: a.warehouse.id }, { ON_HOLD: 3 }, 'HOLD');
}, 120_000);
afterAll(() => server?.close());

describe('POST /api/import/<kind>?dryRun=true', () => {
  it('judges catalog rows as the import would and writes nothing', async () => {
    const before = await counts();
    const res = await dryRun(a.key, 'catalog', [
      { externalId: 'NEW-1', category: 'Brand new' },
      { name: 'no id' },
      { externalId: 'NEW-2', unitCost: 'lots' },
      { externalId: 'mixed-case' },
      'not an object',
    ]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      dryRun: true,
      kind: 'CATALOG',
      totalRows: 5,
      validRows: 1,
      rejectedRows: 4,
      errorCount: 4,
      errors: [
        { row: 2, field: 'externalId', message: 'Required' },
        { row: 3, field: 'unitCost', message: 'Must be a number' },
        { row: 4, field: 'externalId', message: expect.stringContaining('Mixed-Case') },
        { row: 5, field: '_', message: 'Each row must be a JSON object' },
      ],
    });
    expect(await counts()).toEqual(before);
  });

  it('resolves inventory references in the caller organization only and checks the quantity rule, writing nothing', async () => {
    const before = await counts();
    const res = await dryRun(a.key, 'inventory', [
      { sku: 'A-1', locationCode: 'WH1', onHand: 10, reserved: 2 },
      { sku: 'B-ONLY', locationCode: 'WH1', onHand: 1 },
      { sku: 'A-2', locationCode: 'B-DC', onHand: 1 },
      { sku: 'A-2', locationCode: `${b.org.id}-${b.warehouse.id}`, onHand: 1 },
      { sku: 'A-1', locationCode: 'WH1', onHand: 2 },
      { sku: 'NOPE', locationCode: 'WH1' },
      { sku: 'A-2', locationCode: `${a.org.id}-${a.warehouse.id}`, onHand: 4, reserved: 5 },
      { sku: 'A-2', locationCode: 'WH1', onHand: -1 },
    ]);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ dryRun: true, kind: 'INVENTORY', totalRows: 8, validRows: 1, rejectedRows: 7, errorCount: 7 });
    expect(res.body.errors).toEqual([
      { row: 2, field: 'sku', message: 'Unknown SKU B-ONLY' },
      { row: 3, field: 'locationCode', message: 'Unknown location B-DC' },
      { row: 4, field: 'locationCode', message: `Unknown location ${b.org.id}-${b.warehouse.id}` },
      { row: 5, field: 'onHand', message: 'onHand 2 is below reserved (0) plus the units on hold, picked, recalled or expired (3)' },
      { row: 6, field: 'sku', message: 'Unknown SKU NOPE' },
      { row: 7, field: 'reserved', message: 'Reserved (5) must not exceed onHand (4)' },
      { row: 8, field: 'onHand', message: expect.any(String) },
    ]);
    expect(await counts()).toEqual(before);
  });

  it('follows the request’s earlier rows of one stock line, as the import applies them in order', async () => {
    // Row 1 would reserve 6 of 10; row 2 then sets on hand to 8 with reserved 6 and 3 on hold: 9 > 8.
    const rows = [
      { sku: 'A-1', locationCode: 'WH1', onHand: 10, reserved: 6 },
      { sku: 'A-1', locationCode: 'WH1', onHand: 8, reserved: 6 },
    ];
    const res = await dryRun(a.key, 'inventory', rows);
    expect(res.body.errors).toEqual([{ row: 2, field: 'onHand', message: 'onHand 8 is below reserved (6) plus the units on hold, picked, recalled or expired (3)' }]);
  });

  it('answers the errors the real import then records, row for row', async () => {
    const rows = [
      { number: 'PO-1', supplierCode: 'SUP-A', destinationLocationCode: 'WH1', lines: [{ sku: 'A-1', quantity: 5 }] },
      { number: 'PO-2', supplierCode: 'SUP-B', destinationLocationCode: 'B-DC', lines: [{ sku: 'A-1', quantity: 5 }, { sku: 'B-ONLY', quantity: 1 }] },
      { number: 'PO-3', supplierCode: 'SUP-A', destinationLocationCode: 'WH1', lines: [{ sku: 'A-2', quantity: 0 }] },
      { number: 'PO-4', supplierCode: 'SUP-A', destinationLocationCode: 'WH1', lines: [] },
    ];
    const before = await counts();
    const dry = await dryRun(a.key, 'purchase-orders', rows);
    expect(dry.status).toBe(200);
    expect(await counts()).toEqual(before);
    expect(dry.body.errors.map((e: any) => [e.row, e.field])).toEqual([
      [2, 'supplierCode'],
      [2, 'destinationLocationCode'],
      [2, 'lines.1.sku'],
      [3, 'lines.0.quantity'],
      [4, 'lines'],
    ]);
    const job = await importRows(server, a.key, 'purchase-orders', rows);
    expect(job.errors).toEqual(dry.body.errors);
    expect([job.rejectedRows, (job.totalRows as number) - job.rejectedRows]).toEqual([dry.body.rejectedRows, dry.body.validRows]);
  });

  it('judges suppliers, orders and demand history rows too', async () => {
    const before = await counts();
    const suppliers = await dryRun(a.key, 'suppliers', [{ code: 'S-NEW' }, { code: '' }, { code: 'S-2', leadTimeDays: 'soon' }]);
    expect(suppliers.body).toMatchObject({ kind: 'SUPPLIERS', totalRows: 3, validRows: 1, rejectedRows: 2 });
    expect(suppliers.body.errors.map((e: any) => [e.row, e.field])).toEqual([
      [2, 'code'],
      [3, 'leadTimeDays'],
    ]);
    const orders = await dryRun(a.key, 'orders', [
      { externalId: 'SO-1', fulfillmentLocationCode: 'WH1', lines: [{ sku: 'A-2', quantity: 1 }] },
      { externalId: 'SO-2', fulfillmentLocationCode: 'B-DC', lines: [{ sku: 'B-ONLY', quantity: 1 }] },
    ]);
    expect(orders.body.errors).toEqual([
      { row: 2, field: 'fulfillmentLocationCode', message: 'Unknown location B-DC' },
      { row: 2, field: 'lines.0.sku', message: 'Unknown SKU B-ONLY' },
    ]);
    expect(orders.body).toMatchObject({ validRows: 1, rejectedRows: 1, errorCount: 2 });
    const demand = await dryRun(a.key, 'demand-history', [
      { sku: 'A-1', locationCode: 'WH1', date: '2026-01-07', actualDemand: 3 },
      { sku: 'B-ONLY', locationCode: 'B-DC', date: '2026-01-07' },
      { sku: 'A-1', locationCode: 'WH1', date: '2026-02-30' },
    ]);
    expect(demand.body.errors.map((e: any) => [e.row, e.field])).toEqual([
      [2, 'sku'],
      [2, 'locationCode'],
      [3, 'date'],
    ]);
    expect(await counts()).toEqual(before);
  });

  it('says all rows are valid when they are, and dryRun=false imports as before', async () => {
    const rows = [{ externalId: 'OK-1' }, { externalId: 'OK-2', unitCost: '2.5' }];
    const before = await counts();
    const res = await dryRun(a.key, 'catalog', { rows });
    expect(res.body).toEqual({ dryRun: true, kind: 'CATALOG', totalRows: 2, validRows: 2, rejectedRows: 0, errorCount: 0, errors: [] });
    expect(await counts()).toEqual(before);
    const real = await dryRun(a.key, 'catalog', rows, '?dryRun=false');
    expect(real.status).toBe(202);
    expect((await waitForJob(server, a.key, real.body.jobId)).state).toBe('COMPLETED');
  });

  it('lists the first errors and counts them all', async () => {
    const rows = Array.from({ length: DRY_RUN_ERRORS + 500 }, (_, i) => ({ externalId: i % 2 ? `BIG-${i}` : '' }));
    const res = await dryRun(a.key, 'catalog', rows);
    expect(res.body).toMatchObject({ totalRows: rows.length, validRows: rows.length / 2, rejectedRows: rows.length / 2, errorCount: rows.length / 2 });
    expect(res.body.errors).toHaveLength(rows.length / 2);
    const many = Array.from({ length: 2 * DRY_RUN_ERRORS + 10 }, () => ({ externalId: '' }));
    const capped = await dryRun(a.key, 'catalog', many);
    expect([capped.body.errorCount, capped.body.errors.length, capped.body.errors.at(-1).row]).toEqual([many.length, DRY_RUN_ERRORS, DRY_RUN_ERRORS]);
  });

  it('refuses bad input as the import does: 400 in the documented shape, 413 beyond the row limit', async () => {
    const bad = await dryRun(a.key, 'catalog', [{ externalId: 'X' }], '?dryRun=maybe');
    expect([bad.status, bad.body]).toEqual([400, { error: expect.any(String), code: 'VALIDATION_ERROR', details: { dryRun: ['Must be true or false'] } }]);
    const unknown = await dryRun(a.key, 'catalog', [{ externalId: 'X' }], '?dryrun=true');
    expect([unknown.status, unknown.body.code, unknown.body.details]).toEqual([400, 'VALIDATION_ERROR', { dryrun: ['Unknown query parameter'] }]);
    const empty = await dryRun(a.key, 'catalog', []);
    expect([empty.status, empty.body.details]).toEqual([400, { rows: ['At least one row is required'] }]);
    const nul = await dryRun(a.key, 'catalog', [{ externalId: 'a\u0000b' }]);
    expect([nul.status, nul.body.code, Object.keys(nul.body.details)]).toEqual([400, 'VALIDATION_ERROR', ['0.externalId']]);
    const before = await counts();
    const tooMany = await dryRun(a.key, 'suppliers', Array.from({ length: MAX_ROWS + 1 }, () => ({})));
    expect([tooMany.status, tooMany.body.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    expect(await counts()).toEqual(before);
  }, 60_000);

  it('needs what the import needs: import:write', async () => {
    const reader = await a.keyWith(['import:read']);
    const res = await dryRun(reader, 'catalog', [{ externalId: 'X' }]);
    expect([res.status, res.body.code]).toEqual([403, 'INSUFFICIENT_SCOPE']);
    const writer = await a.keyWith(['import:write']);
    expect((await dryRun(writer, 'catalog', [{ externalId: 'X' }])).status).toBe(200);
    expect((await dryRun('', 'catalog', [{ externalId: 'X' }])).status).toBe(401);
  });
});

describe('GraphQL validateImport', () => {
  const VALIDATE = `mutation ($kind: ImportKind!, $rows: JSON!) {
    validateImport(kind: $kind, rows: $rows) {
      __typename
      ... on ImportValidation { kind totalRows validRows rejectedRows errorCount rowErrors(first: 10) { row rowNumber field message } }
      ${REFUSAL}
    }
  }`;

  it('answers what REST answers and writes nothing', async () => {
    const rows = [{ sku: 'A-2', locationCode: 'WH1', onHand: 1 }, { sku: 'B-ONLY', locationCode: 'WH1' }];
    const before = await counts();
    const res = await server.graphql(VALIDATE, { kind: 'INVENTORY', rows }, a.key);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.validateImport).toEqual({
      __typename: 'ImportValidation',
      kind: 'INVENTORY',
      totalRows: 2,
      validRows: 1,
      rejectedRows: 1,
      errorCount: 1,
      rowErrors: [{ row: 2, rowNumber: 2, field: 'sku', message: 'Unknown SKU B-ONLY' }],
    });
    const rest = await dryRun(a.key, 'inventory', rows);
    expect(rest.body.errors).toEqual([{ row: 2, field: 'sku', message: 'Unknown SKU B-ONLY' }]);
    expect(await counts()).toEqual(before);
  });

  it('refuses rows that are not rows with a typed ValidationError', async () => {
    const res = await server.graphql(VALIDATE, { kind: 'CATALOG', rows: 'nope' }, a.key);
    expect(refusalOf(res.body.data.validateImport)).toMatchObject({ type: 'ValidationError', code: 'VALIDATION_ERROR' });
  });

  it('needs import.write', async () => {
    const reader = await a.keyWith(['import:read']);
    const res = await server.graphql(VALIDATE, { kind: 'CATALOG', rows: [{ externalId: 'X' }] }, reader);
    expect(res.body.data?.validateImport ?? null).toBeNull();
    expect(res.body.errors[0].extensions.code).toBe('INSUFFICIENT_SCOPE');
  });
});
