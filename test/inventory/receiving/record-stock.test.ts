import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type Tenant } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';
import { addStock } from '../../support/stock.js';
import { startServerWithTwoTenants } from '../../support/two-tenants.js';
import { graphqlRefusal } from '../../support/api.js';
import { REFUSAL } from '../../support/graphql.js';
import { expectLedgerBalanced } from '../../support/ledger-balance.js';

// POST /api/inventory/record-stock (received), POST and GET /api/inventory/adjustments/record-stock (counted, count sheet).
let server: TestServer;
let a: Tenant;
let b: Tenant;
let n = 0;

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants());
});
afterAll(() => server?.close());

const LINE_KEYS = ['binCode', 'binId', 'expiryDate', 'id', 'locationId', 'lotCode', 'lotId', 'productMasterId', 'qtyAvailable', 'qtyExpired', 'qtyOnHand', 'qtyOnHold', 'qtyPicked', 'qtyRecalled', 'qtyReserved'];

const product = async (tenant = a, sku = `RS-${n++}`) => (await server.call('POST', '/api/products', { token: tenant.key, body: { sku, name: `Product ${sku}` } })).body.id as string;
const receive = (lines: unknown, token = a.key) => server.call('POST', '/api/inventory/record-stock', { token, body: { lines } });
const count = (body: unknown, token = a.key) => server.call('POST', '/api/inventory/adjustments/record-stock', { token, body });
/** Rows in the tables a batch writes, to show a failed one wrote nothing. */
const footprint = async (organizationId: string) => {
  const db = server.app.prisma;
  const [lots, bins, lines, ledger, onHand] = await Promise.all([
    db.lot.count({ where: { organizationId } }),
    db.bin.count({ where: { organizationId } }),
    db.stockLine.count({ where: { organizationId } }),
    db.stockTransaction.count({ where: { organizationId } }),
    db.stockLine.aggregate({ where: { organizationId }, _sum: { qtyOnHand: true } }),
  ]);
  return { lots, bins, lines, ledger, onHand: onHand._sum.qtyOnHand ?? 0 };
};

describe('POST /api/inventory/record-stock', () => {
  it('adds received quantities, creating lots with their expiry, bins and lines, one RECEIPT row per line', async () => {
    const p1 = await product();
    const p2 = await product();
    const res = await receive([
      { productMasterId: p1, locationId: a.warehouse.id, quantity: 10 },
      { productMasterId: p1, locationId: a.warehouse.id, quantity: 5, lotCode: 'LOT-A', expiryDate: '2031-01-31', binCode: 'B-01' },
      { productMasterId: p2, locationId: a.warehouse.id, quantity: 3, lotCode: 'LOT-A', binCode: 'B-01', comment: 'PO 12' },
    ]);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['lines']);
    expect(res.body.lines).toHaveLength(3);
    for (const line of res.body.lines) expect(Object.keys(line).sort()).toEqual(LINE_KEYS);
    expect(res.body.lines[0]).toMatchObject({ productMasterId: p1, locationId: a.warehouse.id, lotId: null, lotCode: null, binId: null, qtyOnHand: 10, qtyAvailable: 10 });
    expect(res.body.lines[1]).toMatchObject({ productMasterId: p1, lotCode: 'LOT-A', expiryDate: '2031-01-31', binCode: 'B-01', qtyOnHand: 5, qtyReserved: 0 });
    expect(res.body.lines[2]).toMatchObject({ productMasterId: p2, lotCode: 'LOT-A', expiryDate: null, binCode: 'B-01', qtyOnHand: 3 });
    // the lot code is per product; the bin is per location
    expect(res.body.lines[1].lotId).not.toBe(res.body.lines[2].lotId);
    expect(res.body.lines[1].binId).toBe(res.body.lines[2].binId);

    const again = await receive([
      { productMasterId: p1, locationId: a.warehouse.id, quantity: 7, lotCode: 'LOT-A', expiryDate: '2031-01-31', binCode: 'B-01' },
      { productMasterId: p1, locationId: a.warehouse.id, quantity: 1, lotCode: 'LOT-A', binCode: 'B-01' },
    ]);
    expect(again.status).toBe(200);
    // both entries show the line after the whole batch
    expect(again.body.lines.map((l: any) => [l.id, l.qtyOnHand])).toEqual([[res.body.lines[1].id, 13], [res.body.lines[1].id, 13]]);

    const history = await server.call('GET', `/api/inventory/adjustments?productMasterId=${p1}&transactionType=RECEIPT`, { token: a.key });
    expect(history.body.entries.map((e: any) => [e.deltaQty, e.qtyBefore, e.qtyAfter])).toEqual([[1, 12, 13], [7, 5, 12], [5, 0, 5], [10, 0, 10]]);
    expect(history.body.entries[0]).toMatchObject({ reasonCode: 'RECEIVED', sourceType: 'RECORD_STOCK' });
    const p2Row = (await server.call('GET', `/api/inventory/adjustments?productMasterId=${p2}`, { token: a.key })).body.entries[0];
    expect(p2Row.comment).toBe('PO 12');
  });

  it('answers 400 with per-line details and writes nothing when any line is bad', async () => {
    const p1 = await product();
    await receive([{ productMasterId: p1, locationId: a.warehouse.id, quantity: 1, lotCode: 'DATED', expiryDate: '2030-06-30' }]);
    const foreignProduct = await product(b);
    const good = { productMasterId: p1, locationId: a.warehouse.id, quantity: 4, lotCode: `FRESH-${n++}`, binCode: `NEW-BIN-${n++}` };
    const before = await footprint(a.org.id);
    const cases: [unknown[], string][] = [
      [[good, good, { ...good, productMasterId: 'nope' }], 'lines.2.productMasterId'],
      [[good, { ...good, productMasterId: foreignProduct }], 'lines.1.productMasterId'],
      [[good, { ...good, locationId: b.warehouse.id }], 'lines.1.locationId'],
      [[good, { ...good, lotCode: 'DATED', expiryDate: '2030-07-01' }], 'lines.1.expiryDate'],
      [[good, { ...good, lotCode: 'NEWER', expiryDate: '2030-07-01' }, { ...good, lotCode: 'NEWER', expiryDate: '2030-07-02' }], 'lines.2.expiryDate'],
      [[{ ...good, lotCode: undefined, expiryDate: '2030-07-01' }], 'lines.0.expiryDate'],
      [[{ ...good, expiryDate: '2030-02-30' }], 'lines.0.expiryDate'],
      [[{ ...good, expiryDate: '30/07/2030' }], 'lines.0.expiryDate'],
      [[{ ...good, quantity: 0 }], 'lines.0.quantity'],
      [[{ ...good, quantity: -3 }], 'lines.0.quantity'],
      [[{ ...good, quantity: 1.5 }], 'lines.0.quantity'],
      [[{ ...good, productMasterId: undefined }], 'lines.0.productMasterId'],
      [[{ ...good, lotCode: '  ' }], 'lines.0.lotCode'],
      [[], 'lines'],
    ];
    for (const [lines, field] of cases) {
      const res = await receive(lines);
      expect(res.status, field).toBe(400);
      expect(Object.keys(res.body.details), field).toContain(field);
    }
    const dated = await receive([{ ...good, lotCode: 'DATED', expiryDate: '2030-07-01' }]);
    expect(dated.body.details['lines.0.expiryDate'][0]).toMatch(/already exists with expiry date 2030-06-30/);
    expect((await server.call('POST', '/api/inventory/record-stock', { token: a.key, body: {} })).body.details.lines).toEqual(['Required']);
    expect(await footprint(a.org.id)).toEqual(before);
  });

  it('refuses a receipt that would take on hand past the largest storable quantity', async () => {
    const p1 = await product();
    const line = await addStock(server.app, a.org.id, { productMasterId: p1, locationId: a.warehouse.id }, { ON_HAND: 2_147_483_000 });
    const res = await receive([{ productMasterId: p1, locationId: a.warehouse.id, quantity: 1000 }]);
    expect(res.status).toBe(400);
    expect(res.body.details['lines.0.quantity'][0]).toMatch(/may not exceed/);
    expect((await server.app.prisma.stockLine.findUniqueOrThrow({ where: { id: line.id } })).qtyOnHand).toBe(2_147_483_000);
  });

  it('takes at most 1000 lines', async () => {
    const p1 = await product();
    const line = { productMasterId: p1, locationId: a.warehouse.id, quantity: 1 };
    const before = await footprint(a.org.id);
    const tooMany = await receive(Array.from({ length: 1001 }, () => line));
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.details.lines[0]).toMatch(/At most 1000/);
    expect(await footprint(a.org.id)).toEqual(before);
    const most = await receive(Array.from({ length: 1000 }, (_, i) => ({ ...line, binCode: `BIN-${i % 50}` })));
    expect(most.status).toBe(200);
    expect(most.body.lines).toHaveLength(1000);
    expect(most.body.lines.every((l: any) => l.qtyOnHand === 20)).toBe(true);
  }, 120_000);

  it('needs inventory.write, and refuses another organization\'s products and locations', async () => {
    const p1 = await product();
    const lines = [{ productMasterId: p1, locationId: a.warehouse.id, quantity: 1 }];
    expect((await receive(lines, await a.keyWith(['inventory:read']))).status).toBe(403);
    expect((await server.call('POST', '/api/inventory/record-stock', { body: { lines } })).status).toBe(401);
    const before = await footprint(a.org.id);
    const foreign = await receive(lines, b.key);
    expect(foreign.status).toBe(400);
    expect(foreign.body.details).toMatchObject({ 'lines.0.productMasterId': ['Product not found'], 'lines.0.locationId': ['Location not found'] });
    const gql = await graphqlRefusal(server, b.key, `mutation ($lines: [RecordStockLineInput!]!) { recordStock(input: { lines: $lines }) { ... on RecordStockResult { lines { qtyOnHand } } ${REFUSAL} } }`, { lines });
    expect(gql).toMatchObject({ type: 'ValidationError', code: 'VALIDATION_ERROR', details: { 'lines.0.productMasterId': ['Product not found'] } });
    expect(await footprint(a.org.id)).toEqual(before);
    const own = await server.graphql(`mutation ($lines: [RecordStockLineInput!]!) { recordStock(input: { lines: $lines }) { ... on RecordStockResult { lines { qtyOnHand stockLine { product { id } } } } } }`, { lines }, a.key);
    expect(own.body.data.recordStock.lines).toEqual([{ qtyOnHand: 1, stockLine: { product: { id: p1 } } }]);
  });
});

describe('POST /api/inventory/adjustments/record-stock (counted)', () => {
  it('sets counted quantities with COUNT rows, creating what is missing and skipping unchanged lines', async () => {
    const p1 = await product();
    const existing = await addStock(server.app, a.org.id, { productMasterId: p1, locationId: a.warehouse.id, lotCode: 'C-1', binCode: 'C-BIN' }, { ON_HAND: 20, RESERVED: 2 });
    const same = await addStock(server.app, a.org.id, { productMasterId: p1, locationId: a.warehouse.id }, { ON_HAND: 8 });
    const res = await count({
      lines: [
        { productMasterId: p1, locationId: a.warehouse.id, lotCode: 'C-1', binCode: 'C-BIN', quantity: 17 },
        { productMasterId: p1, locationId: a.warehouse.id, quantity: 8 },
        { productMasterId: p1, locationId: a.warehouse.id, lotCode: 'C-2', expiryDate: '2032-02-02', quantity: 5, comment: 'found pallet' },
      ],
      comment: 'cycle count 7',
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['changed', 'counted', 'lines', 'transactions']);
    expect(res.body).toMatchObject({ counted: 3, changed: 2 });
    expect(res.body.lines.map((l: any) => [l.id, l.qtyOnHand, l.qtyAvailable])).toEqual([[existing.id, 17, 15], [same.id, 8, 8], [expect.any(String), 5, 5]]);
    expect(res.body.lines[2]).toMatchObject({ lotCode: 'C-2', expiryDate: '2032-02-02', binId: null });
    expect(res.body.transactions.map((t: any) => [t.inventoryItemId, t.transactionType, t.deltaQty, t.qtyBefore, t.qtyAfter, t.reasonCode, t.comment])).toEqual([
      [existing.id, 'COUNT', -3, 20, 17, 'COUNT_CORRECTION', 'cycle count 7'],
      [res.body.lines[2].id, 'COUNT', 5, 0, 5, 'COUNT_CORRECTION', 'found pallet'],
    ]);
    expect(await server.app.prisma.stockTransaction.count({ where: { stockLineId: same.id } })).toBe(1);
    const history = await server.call('GET', `/api/inventory/adjustments?transactionType=COUNT&productMasterId=${p1}`, { token: a.key });
    expect(history.body.total).toBe(2);

    const lost = await count({ lines: [{ productMasterId: p1, locationId: a.warehouse.id, quantity: 0 }], reasonCodeId: 'LOST' });
    expect(lost.status).toBe(200);
    expect(lost.body.transactions[0]).toMatchObject({ reasonCode: 'LOST', deltaQty: -8 });
  });

  it('refuses counts below the reserved parts, wrong reason directions and repeated lines, writing nothing', async () => {
    const p1 = await product();
    await addStock(server.app, a.org.id, { productMasterId: p1, locationId: a.warehouse.id, lotCode: 'R-1' }, { ON_HAND: 10, RESERVED: 6 });
    await addStock(server.app, a.org.id, { productMasterId: p1, locationId: a.warehouse.id }, { ON_HAND: 10 });
    const before = await footprint(a.org.id);
    const below = await count({ lines: [{ productMasterId: p1, locationId: a.warehouse.id, quantity: 12 }, { productMasterId: p1, locationId: a.warehouse.id, lotCode: 'R-1', quantity: 5 }] });
    expect(below.status).toBe(400);
    expect(below.body.code).toBe('INSUFFICIENT_STOCK');
    expect(Object.keys(below.body.details)).toEqual(['lines.1.quantity']);
    const direction = await count({ lines: [{ productMasterId: p1, locationId: a.warehouse.id, quantity: 12 }, { productMasterId: p1, locationId: a.warehouse.id, lotCode: 'NEW-LOT', quantity: 3 }], reasonCodeId: 'DAMAGED' });
    expect(direction.status).toBe(400);
    expect(Object.keys(direction.body.details).sort()).toEqual(['lines.0.reasonCodeId', 'lines.1.reasonCodeId']);
    const repeated = await count({ lines: [{ productMasterId: p1, locationId: a.warehouse.id, quantity: 1 }, { productMasterId: p1, locationId: a.warehouse.id, quantity: 2 }] });
    expect(repeated.status).toBe(400);
    expect(repeated.body.details['lines.1'][0]).toMatch(/line 0/);
    for (const [body, field] of [
      [{ lines: [{ productMasterId: p1, locationId: a.warehouse.id, quantity: -1 }] }, 'lines.0.quantity'],
      [{ lines: [{ productMasterId: p1, locationId: a.warehouse.id, quantity: 1 }], reasonCodeId: 'NOPE' }, 'reasonCodeId'],
      [{ lines: [{ productMasterId: 'nope', locationId: a.warehouse.id, quantity: 1 }] }, 'lines.0.productMasterId'],
      [{ lines: Array.from({ length: 1001 }, () => ({ productMasterId: p1, locationId: a.warehouse.id, quantity: 1 })) }, 'lines'],
    ] as const) {
      const res = await count(body);
      expect(res.status, field).toBe(400);
      expect(Object.keys(res.body.details), field).toContain(field);
    }
    expect(await footprint(a.org.id)).toEqual(before);
  });

  it('needs a root cause for large losses in healthcare organizations', async () => {
    const clinic = await createTenant(server.app.prisma, { industry: 'HEALTHCARE' });
    await server.app.prisma.organization.update({ where: { id: clinic.org.id }, data: { largeAdjustmentThreshold: 5 } });
    const p1 = await product(clinic);
    await addStock(server.app, clinic.org.id, { productMasterId: p1, locationId: clinic.warehouse.id }, { ON_HAND: 10 });
    await addStock(server.app, clinic.org.id, { productMasterId: p1, locationId: clinic.warehouse.id, lotCode: 'H' }, { ON_HAND: 10 });
    const lines = [{ productMasterId: p1, locationId: clinic.warehouse.id, quantity: 5 }, { productMasterId: p1, locationId: clinic.warehouse.id, lotCode: 'H', quantity: 6 }];
    const missing = await count({ lines }, clinic.key);
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.body.details)).toEqual(['lines.0.rootCause']);
    const perLine = await count({ lines: [{ ...lines[0], rootCause: 'broken vials' }, lines[1]] }, clinic.key);
    expect(perLine.status).toBe(200);
    expect(perLine.body.transactions[0].rootCause).toBe('broken vials');
    const batch = await count({ lines: [{ ...lines[0], quantity: 0 }], rootCause: 'expired stock removed' }, clinic.key);
    expect(batch.body.transactions[0]).toMatchObject({ deltaQty: -5, rootCause: 'expired stock removed' });
  });

  it('needs inventory.adjust and keeps to the organization', async () => {
    const p1 = await product();
    const line = await addStock(server.app, a.org.id, { productMasterId: p1, locationId: a.warehouse.id }, { ON_HAND: 4 });
    const lines = [{ productMasterId: p1, locationId: a.warehouse.id, quantity: 9 }];
    expect((await count({ lines }, await a.keyWith(['inventory:read']))).status).toBe(403);
    expect((await server.call('POST', '/api/inventory/adjustments/record-stock', { body: { lines } })).status).toBe(401);
    const foreign = await count({ lines }, b.key);
    expect(foreign.status).toBe(400);
    expect(Object.keys(foreign.body.details).sort()).toEqual(['lines.0.locationId', 'lines.0.productMasterId']);
    const gql = await graphqlRefusal(server, b.key, `mutation ($lines: [RecordCountLineInput!]!) { recordCount(input: { lines: $lines }) { ... on RecordCountResult { changed } ${REFUSAL} } }`, { lines });
    expect(gql.code).toBe('VALIDATION_ERROR');
    expect((await server.app.prisma.stockLine.findUniqueOrThrow({ where: { id: line.id } })).qtyOnHand).toBe(4);
    const own = await server.graphql(`mutation ($lines: [RecordCountLineInput!]!) { recordCount(input: { lines: $lines }) { ... on RecordCountResult { changed transactions { deltaQty } lines { qtyOnHand } } } }`, { lines }, a.key);
    expect(own.body.data.recordCount).toEqual({ changed: 1, transactions: [{ deltaQty: 5 }], lines: [{ qtyOnHand: 9 }] });
  });
});

describe('GET /api/inventory/adjustments/record-stock (count sheet)', () => {
  it('lists the lines of a location by SKU, lot and bin with their on hand', async () => {
    const org = await createTenant(server.app.prisma);
    const pb = await product(org, 'B-SKU');
    const pa = await product(org, 'A-SKU');
    const store = (await server.graphql('mutation { createLocation(input: { code: "S", name: "Store" }) { ... on Location { id } } }', {}, org.key)).body.data.createLocation.id;
    await receive([
      { productMasterId: pb, locationId: org.warehouse.id, quantity: 2, lotCode: 'L2', expiryDate: '2030-01-01', binCode: 'X' },
      { productMasterId: pb, locationId: org.warehouse.id, quantity: 1, lotCode: 'L1' },
      { productMasterId: pa, locationId: org.warehouse.id, quantity: 3 },
      { productMasterId: pa, locationId: store, quantity: 9 },
    ], org.key);
    const sheet = async (query: string) => server.call('GET', `/api/inventory/adjustments/record-stock${query}`, { token: org.key });

    const res = await sheet(`?locationId=${org.warehouse.id}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['lines', 'location', 'locationId', 'pagination', 'total']);
    expect(res.body.location).toMatchObject({ id: org.warehouse.id, code: 'WH1' });
    expect(res.body.lines.map((l: any) => [l.sku, l.lotCode, l.binCode, l.qtyOnHand])).toEqual([['A-SKU', null, null, 3], ['B-SKU', 'L1', null, 1], ['B-SKU', 'L2', 'X', 2]]);
    expect(Object.keys(res.body.lines[0]).sort()).toEqual(['binCode', 'binId', 'expiryDate', 'inventoryItemId', 'lotCode', 'lotId', 'productMasterId', 'productName', 'qtyAvailable', 'qtyOnHand', 'sku']);
    expect(res.body.lines[2]).toMatchObject({ productMasterId: pb, productName: 'Product B-SKU', expiryDate: '2030-01-01' });
    expect(res.body.pagination).toEqual({ limit: 500, offset: 0, hasMore: false, total: 3 });

    expect((await sheet(`?locationId=${org.warehouse.id}&productMasterId=${pb}`)).body.total).toBe(2);
    const page = await sheet(`?locationId=${org.warehouse.id}&limit=1&offset=1`);
    expect(page.body.lines.map((l: any) => l.lotCode)).toEqual(['L1']);
    expect(page.body.pagination).toEqual({ limit: 1, offset: 1, hasMore: true, total: 3 });

    const missing = await sheet('');
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('locationId is required');
    expect((await sheet(`?locationId=${org.warehouse.id}&limit=1001`)).status).toBe(400);
    expect((await sheet('?locationId=nope')).status).toBe(404);
    const foreign = await server.call('GET', `/api/inventory/adjustments/record-stock?locationId=${org.warehouse.id}`, { token: b.key });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe('Location not found');
    const gqlForeign = await server.graphql('query ($id: ID!) { countSheet(locationId: $id) { totalCount } }', { id: org.warehouse.id }, b.key);
    expect(gqlForeign.body.errors[0].extensions.code).toBe('NOT_FOUND');
    expect((await server.call('GET', `/api/inventory/adjustments/record-stock?locationId=${org.warehouse.id}`, { token: await org.keyWith(['inventory:read']) })).status).toBe(403);
  });

  it('answers in the same number of queries for 2 or 40 lines', async () => {
    const org = await createTenant(server.app.prisma);
    const lines = [];
    for (let i = 0; i < 20; i++) {
      const id = await product(org, `QS-${String(i).padStart(2, '0')}`);
      lines.push({ productMasterId: id, locationId: org.warehouse.id, quantity: 1, lotCode: 'L', binCode: 'B' }, { productMasterId: id, locationId: org.warehouse.id, quantity: 1 });
    }
    expect((await receive(lines, org.key)).status).toBe(200);
    const queries = async (limit: number) => {
      server.queries.length = 0;
      const res = await server.call('GET', `/api/inventory/adjustments/record-stock?locationId=${org.warehouse.id}&limit=${limit}`, { token: org.key });
      expect(res.body.lines).toHaveLength(limit);
      return server.queries.length;
    };
    expect(await queries(40)).toBe(await queries(2));
  });
});

describe('the ledger', () => {
  it('accounts for the quantities of every stock line the file touched', () => expectLedgerBalanced(server.app.prisma));
});
