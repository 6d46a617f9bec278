import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocationFor } from '../../src/services/admin/admin.js';
import { createProduct, graphqlData } from '../support/api.js';
import type { Tenant } from '../support/fixtures.js';
import type { TestServer } from '../support/server.js';
import { addStock } from '../support/stock.js';
import { importRows as importAndWait, waitForJob as waitForImport } from '../support/import.js';
import { startServerWithTwoTenants } from '../support/two-tenants.js';
import { expectLedgerBalanced } from '../support/ledger-balance.js';

// Several workers, so that order imports of different jobs really run side by side on PostgreSQL.

let server: TestServer;
let a: Tenant;
let b: Tenant;
let dc: { id: string };
let bDc: { id: string };
const P: Record<string, string> = {};

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

const waitForJob = (token: string, jobId: string) => waitForImport(server, token, jobId);
/** POST /api/import/<path>, then the job once it has ended. */
const importRows = (path: string, rows: unknown[], token = a.key) => importAndWait(server, token, path, rows);

const gql = (query: string, variables: Record<string, unknown> = {}, token = a.key) => graphqlData(server, token, query, variables);

const product = (token: string, sku: string) => createProduct(server, token, sku);

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants({ IMPORT_WORKERS: '4', IMPORT_POLL_MS: '50' }));
  dc = await createLocationFor(server.operator, { organizationId: a.org.id, code: 'DC-EAST', name: 'East DC' });
  bDc = await createLocationFor(server.operator, { organizationId: b.org.id, code: 'B-DC', name: 'Their DC' });
  for (const sku of ['SKU-A', 'SKU-B', 'FEFO', 'MULTI', 'HOT', 'LOWERED']) P[sku] = await product(a.key, sku);
  P.theirs = await product(b.key, 'B-ONLY');
  await importRows('suppliers', [{ code: 'B-SUP' }], b.key);
}, 60_000);
afterAll(() => server?.close());

describe('supplier import', () => {
  const SUPPLIERS = `query ($search: String) { suppliers(first: 50, search: $search) { edges { node { code name email phone leadTimeDays } } } }`;
  const suppliers = async (token = a.key, search?: string) => (await gql(SUPPLIERS, { search }, token)).suppliers.edges.map((e: any) => e.node);

  it('upserts by code with name defaulting to the code, and rejects bad rows by field while good rows go in', async () => {
    const job = await importRows('suppliers', [
      { code: 'SUP-1' },
      { code: 'SUP-2', name: 'Acme', email: 'orders@acme.test', phone: '+1 555', leadTimeDays: '7' },
      { code: '' },
      { code: 'SUP-3', leadTimeDays: -1, email: 'nope' },
      'not an object',
    ]);
    expect(job).toMatchObject({ processedRows: 5, rejectedRows: 3 });
    expect(job.errors).toEqual([
      { row: 3, field: 'code', message: 'Required' },
      { row: 4, field: 'email', message: 'Must be an email address' },
      { row: 4, field: 'leadTimeDays', message: 'Must be 0 or more' },
      { row: 5, field: '_', message: 'Each row must be a JSON object' },
    ]);
    expect(await suppliers(a.key, 'SUP-')).toEqual([
      { code: 'SUP-1', name: 'SUP-1', email: null, phone: null, leadTimeDays: null },
      { code: 'SUP-2', name: 'Acme', email: 'orders@acme.test', phone: '+1 555', leadTimeDays: 7 },
    ]);
  });

  it('updates on re-import (absent fields keep their values), never duplicates', async () => {
    await importRows('suppliers', [{ code: 'SUP-1', name: 'First' }, { code: 'SUP-1', name: 'Renamed' }, { code: 'SUP-2', leadTimeDays: 9 }]);
    expect(await suppliers(a.key, 'SUP-')).toEqual([
      { code: 'SUP-1', name: 'Renamed', email: null, phone: null, leadTimeDays: null },
      { code: 'SUP-2', name: 'Acme', email: 'orders@acme.test', phone: '+1 555', leadTimeDays: 9 },
    ]);
  });

  it('keeps organizations apart and needs procurement.read', async () => {
    expect((await suppliers(b.key)).map((s: any) => s.code)).toEqual(['B-SUP']);
    expect((await suppliers(a.key)).map((s: any) => s.code)).not.toContain('B-SUP');
    const denied = await server.graphql(SUPPLIERS, {}, await a.keyWith(['inventory:read']));
    expect(denied.body.errors[0].extensions.code).toBe('INSUFFICIENT_SCOPE');
    expect((await suppliers(await a.keyWith(['procurement:*']), 'SUP-')).length).toBe(2);
  });
});

const PURCHASE_ORDERS = `query ($status: PurchaseOrderStatus, $locationId: ID) {
  purchaseOrders(first: 50, status: $status, locationId: $locationId) { edges { node {
    number status expectedAt supplier { code } destinationLocation { code }
    lines { lineNumber quantity receivedQuantity unitCost expectedAt product { sku } }
  } } } }`;
const purchaseOrders = async (vars: Record<string, unknown> = {}, token = a.key) =>
  (await gql(PURCHASE_ORDERS, vars, token)).purchaseOrders.edges.map((e: any) => e.node);

describe('purchase order import', () => {
  it('creates orders (status PENDING by default, lines expected on the header date) and rejects unknown references by field', async () => {
    const job = await importRows('purchase-orders', [
      {
        number: 'PO-1', supplierCode: 'SUP-1', destinationLocationCode: 'DC-EAST', expectedAt: '2026-12-01',
        lines: [{ sku: 'SKU-A', quantity: 10, unitCost: 2.5 }, { sku: 'SKU-B', quantity: '5', expectedAt: '2026-12-15' }],
      },
      { number: 'PO-2', supplierCode: 'SUP-2', destinationLocationCode: `${a.org.id}-${dc.id}`, status: 'APPROVED', lines: [{ sku: 'SKU-A', quantity: 1 }] },
      { number: 'PO-3', supplierCode: 'NOPE', destinationLocationCode: 'DC-EAST', lines: [{ sku: 'SKU-A', quantity: 1 }, { sku: 'SKU-A', quantity: 1 }, { sku: 'GHOST', quantity: 1 }] },
      { number: 'PO-4', supplierCode: 'B-SUP', destinationLocationCode: 'B-DC', lines: [{ sku: 'B-ONLY', quantity: 1 }] },
      { number: 'PO-5', supplierCode: 'SUP-1', destinationLocationCode: `${b.org.id}-${bDc.id}`, status: 'LOST', lines: [] },
      { number: 'PO-6', supplierCode: 'SUP-1', destinationLocationCode: 'DC-EAST', lines: [{ sku: 'SKU-A', quantity: 0, unitCost: -1 }] },
    ]);
    expect(job).toMatchObject({ processedRows: 6, rejectedRows: 4 });
    expect(job.errors).toEqual([
      { row: 3, field: 'supplierCode', message: 'Unknown supplier code NOPE' },
      { row: 3, field: 'lines.2.sku', message: 'Unknown SKU GHOST' },
      { row: 4, field: 'supplierCode', message: 'Unknown supplier code B-SUP' },
      { row: 4, field: 'destinationLocationCode', message: 'Unknown location B-DC' },
      { row: 4, field: 'lines.0.sku', message: 'Unknown SKU B-ONLY' },
      { row: 5, field: 'status', message: 'Must be one of PENDING, APPROVED, SENT, PARTIALLY_RECEIVED, RECEIVED, CANCELLED' },
      { row: 5, field: 'lines', message: 'At least one line is required' },
      { row: 6, field: 'lines.0.quantity', message: 'Must be greater than 0' },
      { row: 6, field: 'lines.0.unitCost', message: 'Must be 0 or more' },
    ]);
    expect(await purchaseOrders()).toEqual([
      {
        number: 'PO-1', status: 'PENDING', expectedAt: '2026-12-01', supplier: { code: 'SUP-1' }, destinationLocation: { code: 'DC-EAST' },
        lines: [
          { lineNumber: 1, quantity: 10, receivedQuantity: 0, unitCost: 2.5, expectedAt: '2026-12-01', product: { sku: 'SKU-A' } },
          { lineNumber: 2, quantity: 5, receivedQuantity: 0, unitCost: null, expectedAt: '2026-12-15', product: { sku: 'SKU-B' } },
        ],
      },
      {
        number: 'PO-2', status: 'APPROVED', expectedAt: null, supplier: { code: 'SUP-2' }, destinationLocation: { code: 'DC-EAST' },
        lines: [{ lineNumber: 1, quantity: 1, receivedQuantity: 0, unitCost: null, expectedAt: null, product: { sku: 'SKU-A' } }],
      },
    ]);
  });

  it('re-importing a number updates the header and replaces the lines, never duplicating the order', async () => {
    await importRows('purchase-orders', [{ number: 'PO-1', supplierCode: 'SUP-2', destinationLocationCode: 'DC-EAST', status: 'SENT', lines: [{ sku: 'SKU-B', quantity: 3 }] }]);
    await importRows('purchase-orders', [{ number: 'PO-1', supplierCode: 'SUP-2', destinationLocationCode: 'DC-EAST', lines: [{ sku: 'SKU-B', quantity: 4 }] }]);
    expect(await server.app.prisma.purchaseOrder.count({ where: { organizationId: a.org.id, number: 'PO-1' } })).toBe(1);
    const [po1] = await purchaseOrders({ status: 'SENT' });
    expect(po1).toEqual({
      number: 'PO-1', status: 'SENT', expectedAt: '2026-12-01', supplier: { code: 'SUP-2' }, destinationLocation: { code: 'DC-EAST' },
      lines: [{ lineNumber: 1, quantity: 4, receivedQuantity: 0, unitCost: null, expectedAt: '2026-12-01', product: { sku: 'SKU-B' } }],
    });
    expect(await server.app.prisma.purchaseOrderLine.count({ where: { purchaseOrder: { organizationId: a.org.id, number: 'PO-1' } } })).toBe(1);
  });

  it('filters by status and location, answers 404 for a foreign location, and reads lines without N+1', async () => {
    expect((await purchaseOrders({ status: 'APPROVED' })).map((po: any) => po.number)).toEqual(['PO-2']);
    expect((await purchaseOrders({ locationId: a.warehouse.id }))).toEqual([]);
    const foreign = await server.graphql(PURCHASE_ORDERS, { locationId: bDc.id }, a.key);
    expect(foreign.body.errors[0].extensions.code).toBe('NOT_FOUND');
    expect(await purchaseOrders({}, b.key)).toEqual([]);

    const rows = Array.from({ length: 12 }, (_, i) => ({ number: `BULK-${i}`, supplierCode: 'SUP-1', destinationLocationCode: 'WH1', lines: [{ sku: 'SKU-A', quantity: 1 }, { sku: 'SKU-B', quantity: 2 }] }));
    await importRows('purchase-orders', rows);
    // Only the reads of the documents count: the import workers poll beside the request.
    const reads = () => server.queries.filter((q) => /"(purchase_orders|purchase_order_lines|suppliers|locations|product_masters)"/.test(q)).length;
    server.queries.length = 0;
    expect((await purchaseOrders()).length).toBe(14);
    const few = reads();
    expect(few).toBe(5); // orders, their lines, products, suppliers, locations: one batched query each
    await importRows('purchase-orders', rows.map((r) => ({ ...r, number: `MORE-${r.number}` })));
    server.queries.length = 0;
    expect((await purchaseOrders()).length).toBe(26);
    expect(reads()).toBe(few);
  });

  it('applies rows of one number in one request one after the other: the last wins, absent fields keep what came before', async () => {
    await importRows('purchase-orders', [
      { number: 'PO-DUP', supplierCode: 'SUP-1', destinationLocationCode: 'DC-EAST', status: 'APPROVED', expectedAt: '2027-01-04', lines: [{ sku: 'SKU-A', quantity: 1 }] },
      { number: 'PO-DUP', supplierCode: 'SUP-2', destinationLocationCode: 'DC-EAST', lines: [{ sku: 'SKU-B', quantity: 2 }, { sku: 'SKU-A', quantity: 3, expectedAt: '2027-02-01' }] },
    ]);
    const [dup] = (await purchaseOrders({ status: 'APPROVED' })).filter((po: any) => po.number === 'PO-DUP');
    expect(dup).toEqual({
      number: 'PO-DUP', status: 'APPROVED', expectedAt: '2027-01-04', supplier: { code: 'SUP-2' }, destinationLocation: { code: 'DC-EAST' },
      lines: [
        { lineNumber: 1, quantity: 2, receivedQuantity: 0, unitCost: null, expectedAt: '2027-01-04', product: { sku: 'SKU-B' } },
        { lineNumber: 2, quantity: 3, receivedQuantity: 0, unitCost: null, expectedAt: '2027-02-01', product: { sku: 'SKU-A' } },
      ],
    });
    // Cancelled, then back to the default? No: an absent status keeps the stored one.
    await importRows('purchase-orders', [{ number: 'PO-DUP', supplierCode: 'SUP-2', destinationLocationCode: 'DC-EAST', status: 'CANCELLED', lines: [{ sku: 'SKU-B', quantity: 2 }] }]);
    await importRows('purchase-orders', [{ number: 'PO-DUP', supplierCode: 'SUP-2', destinationLocationCode: 'DC-EAST', lines: [{ sku: 'SKU-B', quantity: 2 }] }]);
    expect((await purchaseOrders({ status: 'CANCELLED' })).map((po: any) => [po.number, po.expectedAt])).toEqual([['PO-DUP', '2027-01-04']]);
  });

  it('rejects a date before 1970 by row and field while the good rows go in (the job does not fail)', async () => {
    const job = await importRows('purchase-orders', [
      { number: 'PO-OLD', supplierCode: 'SUP-1', destinationLocationCode: 'DC-EAST', expectedAt: '0000-01-01', lines: [{ sku: 'SKU-A', quantity: 1 }] },
      { number: 'PO-OLD-LINE', supplierCode: 'SUP-1', destinationLocationCode: 'DC-EAST', lines: [{ sku: 'SKU-A', quantity: 1, expectedAt: '1969-12-31' }] },
      { number: 'PO-1970', supplierCode: 'SUP-1', destinationLocationCode: 'DC-EAST', expectedAt: '1970-01-01', lines: [{ sku: 'SKU-A', quantity: 1 }] },
    ]);
    expect(job).toMatchObject({ processedRows: 3, rejectedRows: 2 });
    expect(job.errors).toEqual([
      { row: 1, field: 'expectedAt', message: 'The year must be from 1970 to 2200' },
      { row: 2, field: 'lines.0.expectedAt', message: 'The year must be from 1970 to 2200' },
    ]);
    expect((await purchaseOrders()).filter((o: any) => o.number.startsWith('PO-OLD') || o.number === 'PO-1970').map((o: any) => [o.number, o.expectedAt])).toEqual([['PO-1970', '1970-01-01']]);
  });
});

const SALES_ORDERS = `query ($locationId: ID) { salesOrders(first: 50, locationId: $locationId) { edges { node {
  externalId status fulfillmentLocation { code }
  lines { lineNumber requestedQty reservedQty backorderedQty product { sku } allocations { stockLineId quantity } }
} } } }`;

describe('order import', () => {
  const L: Record<string, { id: string }> = {};
  const order = async (externalId: string, token = a.key) =>
    (await gql(SALES_ORDERS, { locationId: dc.id }, token)).salesOrders.edges.map((e: any) => e.node).find((o: any) => o.externalId === externalId);
  const availability = async (sku: string) => {
    const res = await server.call('GET', `/api/inventory/availability?productMasterId=${P[sku]}&locationId=${dc.id}`, { token: a.key });
    expect(res.status).toBe(200);
    return res.body.totals as { totalAvailable: number; totalReserved: number };
  };
  const reservedOn = async () => {
    const lines = await server.app.prisma.stockLine.findMany({ where: { productMasterId: P.FEFO }, orderBy: { id: 'asc' } });
    return Object.fromEntries(Object.entries(L).map(([name, l]) => [name, lines.find((x) => x.id === l.id)!.qtyReserved]));
  };

  beforeAll(async () => {
    const at = { productMasterId: P.FEFO!, locationId: dc.id };
    L.expired = await addStock(server.app, a.org.id, { ...at, lotCode: 'EXP', expiryDate: day(-1) }, { ON_HAND: 10 });
    L.late = await addStock(server.app, a.org.id, { ...at, lotCode: 'LATE', expiryDate: day(60) }, { ON_HAND: 5 });
    L.soon = await addStock(server.app, a.org.id, { ...at, lotCode: 'SOON', expiryDate: day(10) }, { ON_HAND: 4 });
    L.plain = await addStock(server.app, a.org.id, at, { ON_HAND: 3 });
    L.recalled = await addStock(server.app, a.org.id, { ...at, lotCode: 'BAD', expiryDate: day(5), recalled: true }, { ON_HAND: 6 });
    // Stock elsewhere never serves an order of DC-EAST.
    await addStock(server.app, a.org.id, { productMasterId: P.FEFO!, locationId: a.warehouse.id }, { ON_HAND: 100 });
  });

  it('reserves first-expiring lots first, skipping expired and recalled lots, and availability reflects it', async () => {
    expect(await availability('FEFO')).toMatchObject({ totalAvailable: 12, totalReserved: 0 });
    const job = await importRows('orders', [{ externalId: 'SO-1', fulfillmentLocationCode: 'DC-EAST', lines: [{ sku: 'FEFO', quantity: 7 }] }]);
    expect(job).toMatchObject({ processedRows: 1, rejectedRows: 0 });
    expect(await reservedOn()).toEqual({ expired: 0, late: 3, soon: 4, plain: 0, recalled: 0 });
    expect(await availability('FEFO')).toMatchObject({ totalAvailable: 5, totalReserved: 7 });
    const so1 = await order('SO-1');
    expect(so1).toMatchObject({ status: 'ALLOCATED', fulfillmentLocation: { code: 'DC-EAST' } });
    expect(so1.lines).toEqual([
      { lineNumber: 1, requestedQty: 7, reservedQty: 7, backorderedQty: 0, product: { sku: 'FEFO' }, allocations: expect.arrayContaining([{ stockLineId: L.soon!.id, quantity: 4 }, { stockLineId: L.late!.id, quantity: 3 }]) },
    ]);
    const ledger = await server.app.prisma.stockTransaction.findMany({ where: { sourceType: 'SALES_ORDER', productMasterId: P.FEFO }, orderBy: { createdAt: 'asc' } });
    expect(ledger.map((t) => [t.transactionType, t.bucket, t.deltaQty, t.stockLineId])).toEqual([
      ['ORDER_RESERVE', 'RESERVED', 4, L.soon!.id],
      ['ORDER_RESERVE', 'RESERVED', 3, L.late!.id],
    ]);
  });

  it('records the shortfall as backordered: PARTIALLY_ALLOCATED, then OPEN when nothing is left', async () => {
    await importRows('orders', [
      { externalId: 'SO-2', fulfillmentLocationCode: `${a.org.id}-${dc.id}`, lines: [{ sku: 'FEFO', quantity: 10 }] },
      { externalId: 'SO-3', fulfillmentLocationCode: 'DC-EAST', lines: [{ sku: 'FEFO', quantity: 2 }] },
    ]);
    expect(await order('SO-2')).toMatchObject({ status: 'PARTIALLY_ALLOCATED', lines: [{ requestedQty: 10, reservedQty: 5, backorderedQty: 5 }] });
    expect(await order('SO-3')).toMatchObject({ status: 'OPEN', lines: [{ requestedQty: 2, reservedQty: 0, backorderedQty: 2, allocations: [] }] });
    expect(await reservedOn()).toEqual({ expired: 0, late: 5, soon: 4, plain: 3, recalled: 0 });
    expect(await availability('FEFO')).toMatchObject({ totalAvailable: 0, totalReserved: 12 });
  });

  it('re-importing the same order releases and reserves again: same reservations, no duplicate order', async () => {
    const before = await order('SO-1');
    await importRows('orders', [{ externalId: 'SO-1', fulfillmentLocationCode: 'DC-EAST', lines: [{ sku: 'FEFO', quantity: 7 }] }]);
    expect(await server.app.prisma.salesOrder.count({ where: { organizationId: a.org.id, externalId: 'SO-1' } })).toBe(1);
    const after = await order('SO-1');
    expect(after.status).toBe('ALLOCATED');
    const allocs = (o: any) => o.lines.flatMap((l: any) => l.allocations).sort((x: any, y: any) => x.stockLineId.localeCompare(y.stockLineId));
    expect(allocs(after)).toEqual(allocs(before));
    expect(await reservedOn()).toEqual({ expired: 0, late: 5, soon: 4, plain: 3, recalled: 0 });
    const so1 = await server.app.prisma.salesOrder.findFirstOrThrow({ where: { organizationId: a.org.id, externalId: 'SO-1' } });
    const ledger = await server.app.prisma.stockTransaction.findMany({ where: { sourceType: 'SALES_ORDER', sourceId: so1.id }, orderBy: { createdAt: 'asc' } });
    // The first import's two reservations, then the re-import: release both, reserve both again.
    const moves = (list: typeof ledger) => list.map((t) => `${t.transactionType} ${t.deltaQty} ${t.stockLineId}`).sort();
    expect(ledger.length).toBe(6);
    expect(moves(ledger.slice(2))).toEqual(
      [`ORDER_RELEASE -3 ${L.late!.id}`, `ORDER_RELEASE -4 ${L.soon!.id}`, `ORDER_RESERVE 3 ${L.late!.id}`, `ORDER_RESERVE 4 ${L.soon!.id}`].sort(),
    );

    // A smaller order gives stock back: availability rises by what it no longer holds.
    await importRows('orders', [{ externalId: 'SO-1', fulfillmentLocationCode: 'DC-EAST', lines: [{ sku: 'FEFO', quantity: 2 }] }]);
    expect(await order('SO-1')).toMatchObject({ status: 'ALLOCATED', lines: [{ requestedQty: 2, reservedQty: 2, backorderedQty: 0, allocations: [{ stockLineId: L.soon!.id, quantity: 2 }] }] });
    expect(await availability('FEFO')).toMatchObject({ totalAvailable: 5, totalReserved: 7 });
  });

  it('re-imports an order whose reservation an inventory import has lowered: releases what is left, reserves again', async () => {
    const at = { productMasterId: P.LOWERED!, locationId: dc.id };
    const line = await addStock(server.app, a.org.id, at, { ON_HAND: 10 });
    await importRows('orders', [{ externalId: 'SO-LOW', fulfillmentLocationCode: 'DC-EAST', lines: [{ sku: 'LOWERED', quantity: 4 }] }]);
    const reserved = async () => (await server.app.prisma.stockLine.findUniqueOrThrow({ where: { id: line.id } })).qtyReserved;
    expect(await reserved()).toBe(4);
    // The stock system's own count says 1 unit is reserved on the line: the order's 4 are no longer all there.
    expect(await importRows('inventory', [{ sku: 'LOWERED', locationCode: 'DC-EAST', onHand: 10, reserved: 1 }])).toMatchObject({ rejectedRows: 0 });
    const job = await importRows('orders', [
      { externalId: 'SO-LOW', fulfillmentLocationCode: 'DC-EAST', lines: [{ sku: 'LOWERED', quantity: 4 }] },
      { externalId: 'SO-LOW-2', fulfillmentLocationCode: 'DC-EAST', lines: [{ sku: 'LOWERED', quantity: 2 }] },
    ]);
    expect(job).toMatchObject({ processedRows: 2, rejectedRows: 0 });
    // Released the 1 that was left, then reserved 4 and 2 again.
    expect(await reserved()).toBe(6);
    expect(await order('SO-LOW-2')).toMatchObject({ status: 'ALLOCATED', lines: [{ requestedQty: 2, reservedQty: 2 }] });
  });

  it('writes one ledger row per change with the quantities as each left the line, when one chunk moves a line several times', async () => {
    P.SERIES = await product(a.key, 'SERIES');
    const line = await addStock(server.app, a.org.id, { productMasterId: P.SERIES!, locationId: dc.id }, { ON_HAND: 10 });
    await importRows('orders', [{ externalId: 'SO-S1', fulfillmentLocationCode: 'DC-EAST', lines: [{ sku: 'SERIES', quantity: 3 }] }]);
    // One chunk: release SO-S1's 3, reserve 4 for it again, then 5 for SO-S2, all on the one line.
    await importRows('orders', [
      { externalId: 'SO-S1', fulfillmentLocationCode: 'DC-EAST', lines: [{ sku: 'SERIES', quantity: 4 }] },
      { externalId: 'SO-S2', fulfillmentLocationCode: 'DC-EAST', lines: [{ sku: 'SERIES', quantity: 5 }] },
    ]);
    const ids = Object.fromEntries(
      (await server.app.prisma.salesOrder.findMany({ where: { organizationId: a.org.id, externalId: { in: ['SO-S1', 'SO-S2'] } } })).map((o) => [o.id, o.externalId]),
    );
    const ledger = await server.app.prisma.stockTransaction.findMany({ where: { stockLineId: line.id, sourceType: 'SALES_ORDER' }, orderBy: [{ createdAt: 'asc' }, { seq: 'asc' }] });
    expect(ledger.map((t) => [t.transactionType, t.bucket, t.deltaQty, t.qtyBefore, t.qtyAfter, ids[t.sourceId!]])).toEqual([
      ['ORDER_RESERVE', 'RESERVED', 3, 0, 3, 'SO-S1'],
      ['ORDER_RELEASE', 'RESERVED', -3, 3, 0, 'SO-S1'],
      ['ORDER_RESERVE', 'RESERVED', 4, 0, 4, 'SO-S1'],
      ['ORDER_RESERVE', 'RESERVED', 5, 4, 9, 'SO-S2'],
    ]);
    expect((await server.app.prisma.stockLine.findUniqueOrThrow({ where: { id: line.id } })).qtyReserved).toBe(9);
  });

  it('rejects rows with unknown or foreign references by field while good rows go in', async () => {
    await addStock(server.app, a.org.id, { productMasterId: P.MULTI!, locationId: dc.id }, { ON_HAND: 4 });
    const job = await importRows('orders', [
      { externalId: 'SO-M', fulfillmentLocationCode: 'DC-EAST', lines: [{ sku: 'MULTI', quantity: 3 }, { sku: 'SKU-A', quantity: 1 }, { sku: 'MULTI', quantity: 2 }] },
      { externalId: 'SO-X', fulfillmentLocationCode: 'B-DC', lines: [{ sku: 'MULTI', quantity: 1 }, { sku: 'B-ONLY', quantity: 1 }] },
      { externalId: '', fulfillmentLocationCode: 'DC-EAST', lines: [{ sku: 'MULTI', quantity: 1.5 }] },
    ]);
    expect(job).toMatchObject({ processedRows: 3, rejectedRows: 2 });
    expect(job.errors).toEqual([
      { row: 2, field: 'fulfillmentLocationCode', message: 'Unknown location B-DC' },
      { row: 2, field: 'lines.1.sku', message: 'Unknown SKU B-ONLY' },
      { row: 3, field: 'externalId', message: 'Required' },
      { row: 3, field: 'lines.0.quantity', message: 'Must be a whole number' },
    ]);
    expect(await order('SO-M')).toMatchObject({
      status: 'PARTIALLY_ALLOCATED',
      lines: [
        { lineNumber: 1, requestedQty: 3, reservedQty: 3, backorderedQty: 0 },
        { lineNumber: 2, requestedQty: 1, reservedQty: 0, backorderedQty: 1 },
        { lineNumber: 3, requestedQty: 2, reservedQty: 1, backorderedQty: 1 },
      ],
    });
    expect(await server.app.prisma.salesOrder.count({ where: { externalId: 'SO-X' } })).toBe(0);
    expect((await gql(SALES_ORDERS, {}, b.key)).salesOrders.edges).toEqual([]);
    const foreign = await server.graphql(SALES_ORDERS, { locationId: bDc.id }, a.key);
    expect(foreign.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });

  it('never over-reserves when order imports run at the same time', async () => {
    const hot = await addStock(server.app, a.org.id, { productMasterId: P.HOT!, locationId: dc.id }, { ON_HAND: 10 });
    const jobs = await Promise.all(
      Array.from({ length: 6 }, async (_, i) => {
        const res = await server.call('POST', '/api/import/orders', { token: a.key, body: [{ externalId: `HOT-${i}`, fulfillmentLocationCode: 'DC-EAST', lines: [{ sku: 'HOT', quantity: 4 }] }] });
        expect(res.status).toBe(202);
        return res.body.jobId as string;
      }),
    );
    for (const jobId of jobs) expect((await waitForJob(a.key, jobId)).state).toBe('COMPLETED');
    const lines = await server.app.prisma.salesOrderLine.findMany({ where: { productMasterId: P.HOT } });
    expect(lines.length).toBe(6);
    expect(lines.reduce((s, l) => s + l.reservedQty, 0)).toBe(10);
    expect(lines.reduce((s, l) => s + l.backorderedQty, 0)).toBe(14);
    expect((await server.app.prisma.stockLine.findUniqueOrThrow({ where: { id: hot.id } })).qtyReserved).toBe(10);
    const allocated = await server.app.prisma.salesOrderAllocation.aggregate({ where: { stockLineId: hot.id }, _sum: { quantity: true } });
    expect(allocated._sum.quantity).toBe(10);
  }, 60_000);
});

describe('the ledger', () => {
  it('accounts for the quantities of every stock line the file touched', () => expectLedgerBalanced(server.app.prisma));
});
