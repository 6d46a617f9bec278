import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorContext } from '../../../src/context.js';
import { nextDueOrganization, startStockSnapshotLoop, takeStockSnapshot } from '../../../src/services/dashboard/inventory-summary/stock-snapshots.js';
import { createProduct, graphqlData } from '../../support/api.js';
import { createTenant, type Tenant } from '../../support/fixtures.js';
import { expectLedgerBalanced } from '../../support/ledger-balance.js';
import type { TestServer } from '../../support/server.js';
import { addStock } from '../../support/stock.js';
import { startServerWithTwoTenants } from '../../support/two-tenants.js';

// The inventory summary widget: figures of a location now, and as of past moments rebuilt from the ledger
// (with and without stock snapshots) giving the very figures the widget gave at those moments.
let server: TestServer;
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants());
});
afterAll(() => server?.close());

const DAY = 86_400_000;
const call = (method: string, path: string, body?: unknown, token = a.key) => server.call(method, path, { token, body });
const widget = (query: string, token = a.key) => call('GET', `/api/dashboard/widgets/inventory-summary?${query}`, undefined, token);
const isoDay = (offsetDays: number) => new Date(Date.now() + offsetDays * DAY).toISOString().slice(0, 10);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const location = (code: string, tenant = a) => server.app.prisma.location.create({ data: { organizationId: tenant.org.id, code, name: code } });
const withCost = async (sku: string, unitCost: number | null) => {
  const id = await createProduct(server, a.key, sku);
  if (unitCost !== null) await server.app.prisma.productMaster.update({ where: { id }, data: { unitCost } });
  return id;
};
const level = (productMasterId: string, locationId: string, minQuantity: number, maxQuantity: number) =>
  server.app.prisma.inventoryLevel.create({ data: { organizationId: a.org.id, productMasterId, locationId, minQuantity, reorderQuantity: minQuantity, maxQuantity } });
const ok = async (res: { status: number; body: any }, status = 200) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body;
};
/** The figures without the fields that say when and how they were computed. */
const figures = (body: Record<string, unknown>) => {
  const { asOf: _asOf, computedFrom: _from, ...rest } = body;
  return rest;
};

describe('inventory summary now', () => {
  it('gives exact figures on crafted stock: buckets, available, value, in transit, min/max, out of stock, expiring soon', async () => {
    const store = await location('SUM-STORE');
    const [p1, p2, p3, p4, p5] = await Promise.all([withCost('SUM-1', 2.5), withCost('SUM-2', 1), withCost('SUM-3', 0.5), withCost('SUM-4', null), withCost('SUM-5', 1)]);
    await level(p1!, store.id, 5, 20);
    await level(p2!, store.id, 10, 100);
    await level(p3!, store.id, 0, 5);
    await level(p4!, store.id, 1, 10);
    const expiringSoon = isoDay(10);
    await addStock(server.app, a.org.id, { productMasterId: p1!, locationId: store.id, lotCode: 'L1', expiryDate: expiringSoon }, { ON_HAND: 10, RESERVED: 2, ON_HOLD: 1 });
    await addStock(server.app, a.org.id, { productMasterId: p2!, locationId: store.id }, { ON_HAND: 3 });
    await addStock(server.app, a.org.id, { productMasterId: p3!, locationId: store.id }, { ON_HAND: 8 });
    await addStock(server.app, a.org.id, { productMasterId: p5!, locationId: store.id, lotCode: 'OLD', expiryDate: '2020-01-01' }, { ON_HAND: 4 });
    // A lot expiring after the window, elsewhere: counted nowhere here.
    await addStock(server.app, a.org.id, { productMasterId: p1!, locationId: a.warehouse.id, lotCode: 'L1', expiryDate: expiringSoon }, { ON_HAND: 5 });
    // 3 units of P1 shipped from the warehouse to the store, 1 received: 2 in transit.
    const sent = await ok(await call('POST', '/api/inventory/transfers', { sourceLocationId: a.warehouse.id, destLocationId: store.id, lines: [{ productMasterId: p1, quantity: 3 }] }), 201);
    const shipped = await ok(await call('POST', `/api/inventory/transfers/${sent.id}`, { action: 'ship' }));
    await ok(await call('POST', `/api/inventory/transfers/${sent.id}`, { action: 'receive', lines: [{ lineId: shipped.lines[0].id, quantity: 1 }] }));

    const body = await ok(await widget(`locationId=${store.id}`));
    expect(body).toEqual({
      locationId: store.id,
      asOf: expect.any(String),
      onHand: 26,
      available: 19,
      reserved: 2,
      onHold: 1,
      picked: 0,
      recalled: 0,
      expired: 0,
      inTransit: 2,
      value: 38.5,
      inTransitValue: 5,
      productsBelowMin: 2,
      productsAboveMax: 1,
      productsOutOfStock: 2,
      lotsExpiringSoon: 1,
      unitsExpiringSoon: 11,
      expiringWithinDays: 30,
      computedFrom: { method: 'STOCK_LINES', snapshotId: null, snapshotAt: null, ledgerRows: 0 },
    });
    // Available is the availability endpoints' figure.
    const availability = await ok(await call('GET', `/api/inventory/availability?locationId=${store.id}`));
    expect((availability.data as { qtyAvailable: number }[]).reduce((sum, l) => sum + l.qtyAvailable, 0)).toBe(19);

    // The same as of now, from the ledger; the warehouse's figures are its own.
    expect(figures(await ok(await widget(`locationId=${store.id}&asOf=${new Date().toISOString()}`)))).toEqual(figures(body));
    const warehouse = await ok(await widget(`locationId=${a.warehouse.id}`));
    expect(warehouse).toMatchObject({ onHand: 2, inTransit: 0 });
    await expectLedgerBalanced(server.app.prisma);
  });
});

describe('inventory summary as of a moment', () => {
  it('gives, for every moment recorded while stock changed, the figures the widget gave then: from the ledger alone and from snapshots', async () => {
    const here = await location('ASOF-HERE');
    const there = await location('ASOF-THERE');
    const [p1, p2] = await Promise.all([withCost('ASOF-1', 3), withCost('ASOF-2', 2)]);
    await level(p1!, here.id, 15, 18);
    await level(p2!, here.id, 2, 50);
    const moments: { at: string; body: Record<string, unknown> }[] = [];
    const record = async () => {
      await pause(5);
      const at = new Date().toISOString();
      const body = await ok(await widget(`locationId=${here.id}`));
      moments.push({ at, body });
      await pause(5);
    };

    await record();
    // Receipt.
    const line = await addStock(server.app, a.org.id, { productMasterId: p1!, locationId: here.id, lotCode: 'A', expiryDate: isoDay(20) }, { ON_HAND: 20 });
    await addStock(server.app, a.org.id, { productMasterId: p2!, locationId: there.id }, { ON_HAND: 9 });
    await record();
    // Reservation.
    await addStock(server.app, a.org.id, { productMasterId: p1!, locationId: here.id, lotCode: 'A' }, { RESERVED: 5 });
    await record();
    // Hold.
    const hold = await ok(await call('POST', '/api/inventory/holds', { scope: 'STOCK_LINE', stockLineId: line.id, quantity: 3, reasonCode: 'QC' }), 201);
    await record();
    // Adjustment.
    await ok(await call('POST', '/api/inventory/adjust', { inventoryItemId: line.id, delta: -2, reasonCodeId: 'LOST' }));
    await record();
    // A transfer shipping out of here, and one shipping here.
    const out = await ok(await call('POST', '/api/inventory/transfers', { sourceLocationId: here.id, destLocationId: there.id, lines: [{ productMasterId: p1, quantity: 4, lotId: line.lotId }] }), 201);
    await ok(await call('POST', `/api/inventory/transfers/${out.id}`, { action: 'ship' }));
    const inbound = await ok(await call('POST', '/api/inventory/transfers', { sourceLocationId: there.id, destLocationId: here.id, lines: [{ productMasterId: p2, quantity: 6 }] }), 201);
    const shipped = await ok(await call('POST', `/api/inventory/transfers/${inbound.id}`, { action: 'ship' }));
    await record();
    // Part of the inbound transfer received, the rest still on the way.
    await ok(await call('POST', `/api/inventory/transfers/${inbound.id}`, { action: 'receive', lines: [{ lineId: shipped.lines[0].id, quantity: 4 }] }));
    await record();
    // The hold released, another receipt.
    await ok(await call('POST', '/api/inventory/holds/release', { holdId: hold.id }));
    await addStock(server.app, a.org.id, { productMasterId: p1!, locationId: here.id, lotCode: 'A' }, { ON_HAND: 7 });
    await record();

    // The moments differ from each other: each change shows.
    expect(new Set(moments.map((m) => JSON.stringify(figures(m.body)))).size).toBe(moments.length);
    expect(moments[5]!.body).toMatchObject({ onHand: 14, reserved: 5, onHold: 3, available: 6, inTransit: 6, productsBelowMin: 2, productsOutOfStock: 1 });
    expect(moments[6]!.body).toMatchObject({ onHand: 18, inTransit: 2, productsBelowMin: 1, productsOutOfStock: 0 });

    const replay = async (expectSnapshot: (index: number) => string | null) => {
      for (const [index, moment] of moments.entries()) {
        const asOf = await ok(await widget(`locationId=${here.id}&asOf=${moment.at}`));
        expect(figures(asOf), `moment ${index}`).toEqual(figures(moment.body));
        expect(asOf.asOf).toBe(moment.at);
        expect(asOf.computedFrom.method).toBe('LEDGER');
        expect(asOf.computedFrom.snapshotAt, `moment ${index}`).toBe(expectSnapshot(index));
      }
    };
    // No snapshot yet: every answer rebuilt from the first ledger row.
    await replay(() => null);

    // Snapshots taken mid-way (at moments 3 and 5): the same figures, read from them.
    const ctx = operatorContext(server.app.prisma, 'test-setup');
    const first = await takeStockSnapshot(ctx, a.org.id, { at: new Date(moments[3]!.at) });
    const second = await takeStockSnapshot(ctx, a.org.id, { at: new Date(moments[5]!.at) });
    expect(first).toMatchObject({ takenAt: new Date(moments[3]!.at) });
    expect(second!.ledgerRows).toBeGreaterThan(0);
    const snapshotOf = (index: number) => (index >= 5 ? moments[5]!.at : index >= 3 ? moments[3]!.at : null);
    await replay(snapshotOf);
    const last = await ok(await widget(`locationId=${here.id}&asOf=${moments[7]!.at}`));
    expect(last.computedFrom.snapshotId).toBe(second!.id);
    const fromStart = await server.app.prisma.stockTransaction.count({ where: { organizationId: a.org.id, locationId: here.id } });
    expect(last.computedFrom.ledgerRows).toBeLessThan(fromStart);

    // The other organization's snapshots and stock change nothing here.
    const theirs = await location('ASOF-B', b);
    const theirProduct = await createProduct(server, b.key, 'ASOF-B1');
    await addStock(server.app, b.org.id, { productMasterId: theirProduct, locationId: theirs.id }, { ON_HAND: 50 });
    await pause(5);
    await takeStockSnapshot(ctx, b.org.id, { at: new Date() });
    await replay(snapshotOf);
    await expectLedgerBalanced(server.app.prisma);
  });
});

describe('inventory summary refusals', () => {
  it('refuses a missing locationId or a bad asOf with 400 naming it, a foreign location with 404, a caller without inventory.read with 403', async () => {
    const missing = await ok(await call('GET', '/api/dashboard/widgets/inventory-summary'), 400);
    expect(missing.details.locationId).toBeDefined();
    const notDate = await ok(await widget(`locationId=${a.warehouse.id}&asOf=yesterday`), 400);
    expect(notDate.details.asOf).toBeDefined();
    const future = await ok(await widget(`locationId=${a.warehouse.id}&asOf=${new Date(Date.now() + DAY).toISOString()}`), 400);
    expect(future.details.asOf).toEqual(['Must not be in the future']);
    const ancient = await ok(await widget(`locationId=${a.warehouse.id}&asOf=1990-01-01T00:00:00Z`), 400);
    expect(ancient.details.asOf).toBeDefined();
    expect((await ok(await widget(`locationId=${a.warehouse.id}&other=1`), 400)).details.other).toBeDefined();
    expect((await widget(`locationId=${b.warehouse.id}`)).status).toBe(404);
    expect((await widget(`locationId=${b.warehouse.id}&asOf=${new Date().toISOString()}`)).status).toBe(404);
    expect((await widget('locationId=no-such-location')).status).toBe(404);
    const forecastOnly = await a.keyWith(['forecast:read']);
    expect((await widget(`locationId=${a.warehouse.id}`, forecastOnly)).status).toBe(403);
    const reader = await a.keyWith(['inventory:read']);
    expect((await widget(`locationId=${a.warehouse.id}`, reader)).status).toBe(200);
  });
});

describe('inventory summary through GraphQL', () => {
  it('answers the query field with the location linked, and refuses a future asOf', async () => {
    const data = await graphqlData(server, a.key, `query ($id: ID!, $asOf: DateTime) {
      inventorySummary(locationId: $id, asOf: $asOf) { locationId location { id } onHand available computedFrom { method } }
    }`, { id: a.warehouse.id, asOf: new Date().toISOString() });
    expect(data.inventorySummary).toMatchObject({ locationId: a.warehouse.id, location: { id: a.warehouse.id }, computedFrom: { method: 'LEDGER' } });
    const res = await server.graphql(`query ($id: ID!, $asOf: DateTime) { inventorySummary(locationId: $id, asOf: $asOf) { onHand } }`, { id: a.warehouse.id, asOf: new Date(Date.now() + DAY).toISOString() }, a.key);
    expect(res.body.errors[0].extensions.code).toBe('VALIDATION_ERROR');
  });
});

describe('stock snapshots', () => {
  it('are due after enough ledger rows, taken by the loop off the request path, once per cut, and change no answer', async () => {
    const ctx = operatorContext(server.app.prisma, 'test-setup');
    const policy = { everyRows: 1, everyHours: 24, settleSeconds: 0.001 };
    const c = await createTenant(server.app.prisma);
    const product = await createProduct(server, c.key, 'SNAP-1');
    await addStock(server.app, c.org.id, { productMasterId: product, locationId: c.warehouse.id }, { ON_HAND: 12, RESERVED: 2 });
    await pause(20);
    const before = await ok(await widget(`locationId=${c.warehouse.id}&asOf=${new Date().toISOString()}`, c.key));

    const loop = startStockSnapshotLoop(server.app, { count: 1, pollMs: 50, policy, log: (m) => { throw new Error(m); } });
    try {
      for (let i = 0; i < 100 && (await nextDueOrganization(ctx, policy)) !== null; i++) await pause(50);
    } finally {
      await loop.stop();
    }
    expect(await nextDueOrganization(ctx, policy)).toBeNull();
    const latest = await server.app.prisma.stockSnapshot.findFirstOrThrow({ where: { organizationId: c.org.id }, orderBy: { takenAt: 'desc' } });
    const copied = await server.app.prisma.stockLineSnapshot.findMany({ where: { snapshotId: latest.id } });
    expect(copied.map((l) => [l.locationId, l.qtyOnHand, l.qtyReserved])).toEqual([[c.warehouse.id, 12, 2]]);
    expect(latest).toMatchObject({ lineCount: 1, ledgerRows: 2 });
    // The same cut twice: the second finds nothing to do.
    expect(await takeStockSnapshot(ctx, c.org.id, { at: latest.takenAt })).toBeNull();

    await pause(5);
    const after = await ok(await widget(`locationId=${c.warehouse.id}&asOf=${new Date().toISOString()}`, c.key));
    expect(figures(after)).toEqual(figures(before));
    expect(after.computedFrom).toMatchObject({ snapshotId: latest.id, ledgerRows: 0 });

    // Due again once the rows since reach the lines the snapshot copied (a copy costs at most a line per row).
    await addStock(server.app, c.org.id, { productMasterId: product, locationId: c.warehouse.id }, { ON_HAND: 1 });
    await pause(20);
    expect(await nextDueOrganization(ctx, policy)).toBe(c.org.id);
  });
});
