import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocationFor } from '../../../src/services/admin/admin.js';
import type { Tenant } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';
import { addStock } from '../../support/stock.js';
import { startServerWithTwoTenants } from '../../support/two-tenants.js';
import { countStatements } from '../../support/statement-count.js';

let server: TestServer;
let a: Tenant;
let b: Tenant;
let atp: { id: string };
let store: { id: string };
const L: Record<string, { id: string; lotId: string | null; binId: string | null }> = {};

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const product = async (token: string, sku: string) => {
  const res = await server.call('POST', '/api/products', { token, body: { sku, name: `Product ${sku}` } });
  expect(res.status).toBe(201);
  return res.body as { id: string };
};

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants());
  atp = await product(a.key, 'ATP-1');
  store = await createLocationFor(server.operator, { organizationId: a.org.id, code: 'ST1', name: 'Store' });
  const at = { productMasterId: atp.id, locationId: a.warehouse.id };
  L.plain = await addStock(server.app, a.org.id, at, { ON_HAND: 20, RESERVED: 5, ON_HOLD: 3, PICKED: 2, RECALLED: 1, EXPIRED: 1 });
  L.expired = await addStock(server.app, a.org.id, { ...at, lotCode: 'OLD', expiryDate: day(-1) }, { ON_HAND: 10 });
  L.today = await addStock(server.app, a.org.id, { ...at, lotCode: 'TODAY', expiryDate: day(0), binCode: 'B1' }, { ON_HAND: 6 });
  L.recalled = await addStock(server.app, a.org.id, { ...at, lotCode: 'BAD', expiryDate: day(30), recalled: true }, { ON_HAND: 4 });
  L.store = await addStock(server.app, a.org.id, { productMasterId: atp.id, locationId: store.id, binCode: 'S1' }, { ON_HAND: 7 });
  // Another organization with the same SKU and stock must never count for A.
  const theirs = await product(b.key, 'ATP-1');
  await addStock(server.app, b.org.id, { productMasterId: theirs.id, locationId: b.warehouse.id }, { ON_HAND: 1000 });
});
afterAll(() => server?.close());

const LINE_KEYS = ['binId', 'expiryDate', 'id', 'locationId', 'lotId', 'productMasterId', 'qtyAvailable', 'qtyExpired', 'qtyOnHand', 'qtyOnHold', 'qtyPicked', 'qtyRecalled', 'qtyReserved'];
const ids = (list: { id: string }[]) => list.map((line) => line.id);
const availability = (query: string, token = a.key) => server.call('GET', `/api/inventory/availability?${query}`, { token });

describe('GET /api/inventory/availability (stock lines)', () => {
  it('answers the lines with totals, leaving out lots that expired before today and recalled lots', async () => {
    const res = await availability(`productMasterId=${atp.id}&locationId=${a.warehouse.id}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['count', 'data', 'totals', 'type']);
    expect(res.body.type).toBe('stockLines');
    expect(res.body.count).toBe(2);
    expect(ids(res.body.data)).toEqual([L.plain!.id, L.today!.id]);
    for (const line of res.body.data) expect(Object.keys(line).sort()).toEqual(LINE_KEYS);
    expect(res.body.data[0]).toEqual({
      id: L.plain!.id, productMasterId: atp.id, locationId: a.warehouse.id, lotId: null, binId: null, expiryDate: null,
      qtyOnHand: 20, qtyAvailable: 8, qtyReserved: 5, qtyOnHold: 3, qtyPicked: 2, qtyRecalled: 1, qtyExpired: 1,
    });
    // a lot expiring today is still usable today
    expect(res.body.data[1]).toMatchObject({ lotId: L.today!.lotId, binId: L.today!.binId, expiryDate: day(0), qtyAvailable: 6 });
    expect(res.body.totals).toEqual({ totalOnHand: 26, totalAvailable: 14, totalReserved: 5, totalOnHold: 3, totalPicked: 2, totalRecalled: 1, totalExpired: 1 });
  });

  it('counts expired, recalled and on-hold stock only with their include flag', async () => {
    const base = `productMasterId=${atp.id}&locationId=${a.warehouse.id}`;
    const expired = await availability(`${base}&includeExpired=true`);
    expect(ids(expired.body.data)).toEqual([L.plain!.id, L.expired!.id, L.today!.id]);
    expect(expired.body.data.map((l: any) => l.qtyAvailable)).toEqual([9, 10, 6]);
    expect(expired.body.totals).toMatchObject({ totalOnHand: 36, totalAvailable: 25 });

    const recalled = await availability(`${base}&includeRecalled=1`);
    expect(ids(recalled.body.data)).toEqual([L.plain!.id, L.today!.id, L.recalled!.id]);
    expect(recalled.body.totals.totalAvailable).toBe(9 + 6 + 4);

    const onHold = await availability(`${base}&includeOnHold=true`);
    expect(ids(onHold.body.data)).toEqual([L.plain!.id, L.today!.id]);
    expect(onHold.body.totals.totalAvailable).toBe(11 + 6);

    const all = await availability(`${base}&includeOnHold=true&includeRecalled=true&includeExpired=true`);
    expect(all.body.count).toBe(4);
    expect(all.body.totals.totalAvailable).toBe(13 + 10 + 6 + 4);

    const off = await availability(`${base}&includeExpired=false&includeRecalled=false&includeOnHold=false`);
    expect(off.body.totals.totalAvailable).toBe(14);
  });

  it('filters by location, lot and bin, and takes productId as an alias', async () => {
    expect(ids((await availability(`locationId=${store.id}`)).body.data)).toEqual([L.store!.id]);
    expect(ids((await availability(`lotId=${L.today!.lotId}`)).body.data)).toEqual([L.today!.id]);
    expect(ids((await availability(`binId=${L.store!.binId}`)).body.data)).toEqual([L.store!.id]);
    // a filter on an excluded lot names it but still leaves it out
    expect((await availability(`lotId=${L.expired!.lotId}`)).body).toMatchObject({ count: 0, data: [], totals: { totalOnHand: 0 } });
    const byProduct = await availability(`productMasterId=${atp.id}`);
    expect(ids(byProduct.body.data)).toEqual([L.plain!.id, L.today!.id, L.store!.id]);
    const alias = await availability(`productId=${atp.id}`);
    expect(alias.body).toEqual(byProduct.body);
    const both = await availability(`productId=${atp.id}&productMasterId=${atp.id}`);
    expect(both.body).toEqual(byProduct.body);
  });

  it('never shows available below zero: a fully spoken-for line has 0', async () => {
    const p = await product(a.key, 'FULL');
    const full = await addStock(server.app, a.org.id, { productMasterId: p.id, locationId: a.warehouse.id }, { ON_HAND: 5, RESERVED: 2, ON_HOLD: 1, PICKED: 1, RECALLED: 1 });
    const res = await availability(`productMasterId=${p.id}`);
    expect(res.body.data[0]).toMatchObject({ id: full.id, qtyOnHand: 5, qtyAvailable: 0 });
    const empty = await addStock(server.app, a.org.id, { productMasterId: p.id, locationId: store.id }, { ON_HAND: 1 });
    await server.call('POST', `/api/inventory/availability/${empty.id}`, { token: a.key, body: { action: 'RESERVE', quantity: 1 } });
    const again = await availability(`productMasterId=${p.id}`);
    expect(again.body.data.map((l: any) => l.qtyAvailable)).toEqual([0, 0]);
    expect(again.body.totals.totalAvailable).toBe(0);
  });

  it('answers 400 for no filter, a productId that contradicts productMasterId, or a bad flag', async () => {
    const none = await availability('');
    expect(none.status).toBe(400);
    expect(none.body.error).toBe('productMasterId or locationId is required');
    expect(Object.keys(none.body.details)).toEqual(['productMasterId', 'locationId']);
    const other = await product(a.key, 'OTHER');
    const clash = await availability(`productId=${other.id}&productMasterId=${atp.id}`);
    expect(clash.status).toBe(400);
    expect(clash.body.details.productId).toBeDefined();
    for (const flag of ['includeExpired', 'includeRecalled', 'includeOnHold', 'summary', 'includeStockLines']) {
      const bad = await availability(`locationId=${store.id}&${flag}=maybe`);
      expect(bad.status, flag).toBe(400);
      expect(bad.body.details[flag], flag).toBeDefined();
    }
  });
});

describe('GET /api/inventory/availability (summary)', () => {
  it('answers the aggregate, with the lines only when includeStockLines is true', async () => {
    const res = await availability(`productMasterId=${atp.id}&locationId=${a.warehouse.id}&summary=true`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      type: 'summary',
      data: { productMasterId: atp.id, locationId: a.warehouse.id, totalOnHand: 26, totalAvailable: 14, totalReserved: 5, totalOnHold: 3, totalPicked: 2, totalRecalled: 1, totalExpired: 1 },
    });
    const withLines = await availability(`productMasterId=${atp.id}&locationId=${a.warehouse.id}&summary=true&includeStockLines=true`);
    expect(ids(withLines.body.data.stockLines)).toEqual([L.plain!.id, L.today!.id]);
    expect(withLines.body.data.stockLines[0]).toMatchObject({ id: L.plain!.id, qtyOnHand: 20, qtyAvailable: 8 });
    const flagged = await availability(`productMasterId=${atp.id}&summary=true&includeExpired=true&includeOnHold=true`);
    expect(flagged.body.data).toMatchObject({ productMasterId: atp.id, locationId: null, totalOnHand: 43, totalAvailable: 12 + 10 + 6 + 7 });
    // includeStockLines without summary changes nothing
    const lines = await availability(`locationId=${store.id}&includeStockLines=true`);
    expect(lines.body.type).toBe('stockLines');
  });
});

describe('POST /api/inventory/availability/check', () => {
  const check = (items: unknown, token = a.key) => server.call('POST', '/api/inventory/availability/check', { token, body: { items } });

  it('answers each item in request order; unknown SKUs have 0 available', async () => {
    const res = await check([
      { sku: 'ATP-1', locationId: a.warehouse.id, quantity: 14 },
      { sku: 'ATP-1', locationId: a.warehouse.id, quantity: 15 },
      { sku: 'ATP-1', locationId: store.id, quantity: 7 },
      { sku: 'NO-SUCH-SKU', locationId: a.warehouse.id, quantity: 1 },
    ]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      results: [
        { sku: 'ATP-1', locationId: a.warehouse.id, requestedQuantity: 14, availableQuantity: 14, isAvailable: true },
        { sku: 'ATP-1', locationId: a.warehouse.id, requestedQuantity: 15, availableQuantity: 14, isAvailable: false },
        { sku: 'ATP-1', locationId: store.id, requestedQuantity: 7, availableQuantity: 7, isAvailable: true },
        { sku: 'NO-SUCH-SKU', locationId: a.warehouse.id, requestedQuantity: 1, availableQuantity: 0, isAvailable: false },
      ],
    });
    // B has 1000 of its own ATP-1 at its own warehouse
    const theirs = await check([{ sku: 'ATP-1', locationId: b.warehouse.id, quantity: 1000 }], b.key);
    expect(theirs.body.results.map((r: any) => r.availableQuantity)).toEqual([1000]);
  });

  it('takes a location code or its normalized form <organizationId>-<locationId> as well as an id, within the organization', async () => {
    const res = await check([
      { sku: 'ATP-1', locationId: 'WH1', quantity: 14 },
      { sku: 'ATP-1', locationId: `${a.org.id}-${a.warehouse.id}`, quantity: 15 },
      { sku: 'ATP-1', locationId: 'ST1', quantity: 7 },
      { sku: 'NO-SUCH-SKU', locationId: 'ST1', quantity: 1 },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.results).toEqual([
      { sku: 'ATP-1', locationId: 'WH1', requestedQuantity: 14, availableQuantity: 14, isAvailable: true },
      { sku: 'ATP-1', locationId: `${a.org.id}-${a.warehouse.id}`, requestedQuantity: 15, availableQuantity: 14, isAvailable: false },
      { sku: 'ATP-1', locationId: 'ST1', requestedQuantity: 7, availableQuantity: 7, isAvailable: true },
      { sku: 'NO-SUCH-SKU', locationId: 'ST1', requestedQuantity: 1, availableQuantity: 0, isAvailable: false },
    ]);
    // B's warehouse has the same code WH1: B's code names B's own warehouse.
    const theirs = await check([{ sku: 'ATP-1', locationId: 'WH1', quantity: 1000 }], b.key);
    expect(theirs.body.results[0].availableQuantity).toBe(1000);
  });

  it('refuses the batch with 400 naming each item whose location is not the organization’s (nothing is answered as 0 available)', async () => {
    const res = await check([
      { sku: 'ATP-1', locationId: 'WH1', quantity: 1 },
      { sku: 'ATP-1', locationId: 'no-such-location', quantity: 1 },
      { sku: 'ATP-1', locationId: b.warehouse.id, quantity: 1 },
      { sku: 'ATP-1', locationId: `${b.org.id}-${b.warehouse.id}`, quantity: 1 },
      { sku: 'ATP-1', locationId: `${a.org.id}-${b.warehouse.id}`, quantity: 1 },
      { sku: 'ATP-1', locationId: 'wh1', quantity: 1 },
      { sku: 'ATP-1', locationId: 'no-such-location', quantity: 2 },
    ]);
    const unknown = ['Unknown location: give the id or the code of a location of your organization'];
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'Unknown location',
      code: 'VALIDATION_ERROR',
      details: Object.fromEntries([1, 2, 3, 4, 5, 6].map((i) => [`items.${i}.locationId`, unknown])),
    });
    // A's warehouse, named by B: unknown to B.
    const theirs = await check([{ sku: 'ATP-1', locationId: a.warehouse.id, quantity: 1 }], b.key);
    expect([theirs.status, theirs.body.details]).toEqual([400, { 'items.0.locationId': unknown }]);
    expect((await fetch(`${server.url}/health`, { signal: AbortSignal.timeout(5_000) })).status).toBe(200);
  });

  it('answers 400 with details for invalid items', async () => {
    const cases: [unknown, string][] = [
      [undefined, 'items'],
      [[{ sku: 'ATP-1', locationId: store.id }], 'items.0.quantity'],
      [[{ sku: 'ATP-1', quantity: 1 }], 'items.0.locationId'],
      [[{ locationId: store.id, quantity: 1 }], 'items.0.sku'],
      [[{ sku: 'ATP-1', locationId: store.id, quantity: 1 }, { sku: 'ATP-1', locationId: store.id, quantity: 0 }], 'items.1.quantity'],
      [[{ sku: 'ATP-1', locationId: store.id, quantity: -3 }], 'items.0.quantity'],
      [[{ sku: 'ATP-1', locationId: store.id, quantity: 1.5 }], 'items.0.quantity'],
      [[{ sku: 'ATP-1', locationId: store.id, quantity: '2' }], 'items.0.quantity'],
      [[{ sku: ' ', locationId: store.id, quantity: 1 }], 'items.0.sku'],
      [[], 'items'],
    ];
    for (const [items, field] of cases) {
      const res = await check(items);
      expect(res.status, field).toBe(400);
      expect(res.body.details?.[field], `${field}: ${JSON.stringify(res.body)}`).toBeDefined();
    }
  });

  it('takes up to 1000 items and refuses more', async () => {
    const item = { sku: 'ATP-1', locationId: store.id, quantity: 1 };
    const max = await check(Array.from({ length: 1000 }, () => item));
    expect(max.status).toBe(200);
    expect(max.body.results).toHaveLength(1000);
    const over = await check(Array.from({ length: 1001 }, () => item));
    expect(over.status).toBe(400);
    expect(over.body.details.items).toEqual(['At most 1000 items']);
  });

  it('reads the stock of a whole batch in the same number of queries whatever its size', async () => {
    const skus: string[] = [];
    for (let i = 0; i < 30; i++) {
      const p = await product(a.key, `BATCH-${i}`);
      await addStock(server.app, a.org.id, { productMasterId: p.id, locationId: a.warehouse.id, lotCode: 'X', expiryDate: day(10) }, { ON_HAND: i + 1 });
      skus.push(`BATCH-${i}`);
    }
    const counted = async (n: number) => {
      const { statements, result: res } = await countStatements(server, () => check(skus.slice(0, n).map((sku) => ({ sku, locationId: a.warehouse.id, quantity: 5 }))));
      expect(res.status).toBe(200);
      return { queries: statements, results: res.body.results };
    };
    const two = await counted(2);
    const thirty = await counted(30);
    expect(thirty.queries).toBe(two.queries);
    expect(thirty.queries).toBeLessThanOrEqual(2);
    expect(thirty.results.filter((r: any) => r.isAvailable)).toHaveLength(26);
  });

  it('needs inventory.read', async () => {
    expect((await server.call('POST', '/api/inventory/availability/check', { body: { items: [] } })).status).toBe(401);
    const forecastOnly = await a.keyWith(['forecast:read']);
    expect((await check([{ sku: 'ATP-1', locationId: store.id, quantity: 1 }], forecastOnly)).status).toBe(403);
  });
});

describe('GET /api/inventory/availability/:id', () => {
  it('answers one line in the availability naming; an excluded lot has 0 available unless included', async () => {
    const plain = await server.call('GET', `/api/inventory/availability/${L.plain!.id}`, { token: a.key });
    expect(plain.status).toBe(200);
    expect(Object.keys(plain.body).sort()).toEqual(LINE_KEYS);
    expect(plain.body).toMatchObject({ id: L.plain!.id, qtyOnHand: 20, qtyAvailable: 8 });
    const expired = await server.call('GET', `/api/inventory/availability/${L.expired!.id}`, { token: a.key });
    expect(expired.body).toMatchObject({ qtyOnHand: 10, qtyAvailable: 0, expiryDate: day(-1) });
    const included = await server.call('GET', `/api/inventory/availability/${L.expired!.id}?includeExpired=true`, { token: a.key });
    expect(included.body.qtyAvailable).toBe(10);
    const recalled = await server.call('GET', `/api/inventory/availability/${L.recalled!.id}?includeRecalled=true`, { token: a.key });
    expect(recalled.body.qtyAvailable).toBe(4);
  });

  it('is 404 for an unknown id or another organization\'s line', async () => {
    expect((await server.call('GET', '/api/inventory/availability/nope', { token: a.key })).status).toBe(404);
    const foreign = await server.call('GET', `/api/inventory/availability/${L.plain!.id}`, { token: b.key });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('NOT_FOUND');
  });
});

describe('tenant isolation of availability filters', () => {
  it('a filter naming another organization\'s product, location, lot or bin is 404', async () => {
    for (const query of [`productMasterId=${atp.id}`, `productId=${atp.id}`, `locationId=${a.warehouse.id}`, `lotId=${L.today!.lotId}`, `binId=${L.today!.binId}`, 'locationId=unknown']) {
      const res = await availability(`${query}&summary=true`, b.key);
      expect(res.status, query).toBe(404);
      expect(res.body.code).toBe('NOT_FOUND');
    }
    const own = await availability(`locationId=${b.warehouse.id}`, b.key);
    expect(own.body.totals.totalOnHand).toBe(1000);
  });

  it('GraphQL availability, availabilityLine and checkAvailability stay inside the organization', async () => {
    const query = `query ($p: ID, $id: ID!) {
      availability(productMasterId: $p) { type count totals { totalAvailable } lines { id: stockLineId } }
      availabilityLine(id: $id) { id: stockLineId }
    }`;
    const own = await server.graphql(query, { p: atp.id, id: L.plain!.id }, a.key);
    expect(own.body.data.availability).toMatchObject({ type: 'stockLines', count: 3, totals: { totalAvailable: 8 + 6 + 7 } });
    expect(own.body.data.availabilityLine.id).toBe(L.plain!.id);
    const foreignList = await server.graphql(`query ($p: ID) { availability(productMasterId: $p) { count } }`, { p: atp.id }, b.key);
    expect(foreignList.body.errors[0].extensions.code).toBe('NOT_FOUND');
    const foreignLine = await server.graphql(`query ($id: ID!) { availabilityLine(id: $id) { id: stockLineId } }`, { id: L.plain!.id }, b.key);
    expect(foreignLine.body).toEqual({ data: { availabilityLine: null } });
    const summary = await server.graphql(`query ($l: ID, $p: ID) { availability(locationId: $l, productMasterId: $p, summary: true, includeStockLines: true) { type lines { id: stockLineId } summary { locationId totalOnHand stockLines { id: stockLineId } } } }`,
      { l: store.id, p: atp.id },
      a.key,
    );
    expect(summary.body.data.availability).toEqual({ type: 'summary', lines: null, summary: { locationId: store.id, totalOnHand: 7, stockLines: [{ id: L.store!.id }] } });
    const checked = await server.graphql(
      `query ($l: String!) { checkAvailability(input: { items: [{ sku: "ATP-1", locationId: $l, quantity: 1 }] }) { availableQuantity isAvailable } }`,
      { l: a.warehouse.id },
      b.key,
    );
    expect(checked.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION_ERROR', details: { 'items.0.locationId': [expect.any(String)] } });
  });
});
