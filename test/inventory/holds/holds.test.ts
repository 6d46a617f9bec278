import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChannelFor, createLocationFor } from '../../../src/services/admin/admin.js';
import { createProduct, graphqlData } from '../../support/api.js';
import type { Tenant } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';
import { addStock } from '../../support/stock.js';
import { startServerWithTwoTenants } from '../../support/two-tenants.js';
import { expectLedgerBalanced } from '../../support/ledger-balance.js';

// Inventory holds through REST and GraphQL: each scope placed, listed and released; partial releases,
// expiry on read, refusals that change nothing, permissions, tenant isolation, and what a hold does to
// availability, the availability check and a transfer's allocation.
let server: TestServer;
let a: Tenant;
let b: Tenant;
let store: { id: string };
let n = 0;

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants());
  store = await createLocationFor(server.operator, { organizationId: a.org.id, code: 'ST1', name: 'Store' });
});
afterAll(async () => {
  await expectLedgerBalanced(server.app.prisma);
  await server?.close();
});

const call = (method: string, path: string, body?: unknown, token = a.key) => server.call(method, path, { token, body });
const place = (body: Record<string, unknown>, token = a.key) => call('POST', '/api/inventory/holds', { reasonCode: 'qc_inspection', ...body }, token);
const release = (body: Record<string, unknown>, token = a.key) => call('POST', '/api/inventory/holds/release', body, token);
const line = (id: string) => server.app.prisma.stockLine.findUniqueOrThrow({ where: { id } });
const rows = (holdId: string) =>
  server.app.prisma.stockTransaction.findMany({ where: { sourceId: holdId }, orderBy: { seq: 'asc' }, select: { stockLineId: true, transactionType: true, bucket: true, deltaQty: true, reasonCode: true } });

/** A product with lots E (expires first) and L at the warehouse, and lot E at the store too. */
async function stocked(early = 10, late = 20, atStore = 5) {
  const sku = `H-${n++}`;
  const productId = await createProduct(server, a.key, sku);
  const at = { productMasterId: productId, locationId: a.warehouse.id };
  const earlyLine = await addStock(server.app, a.org.id, { ...at, lotCode: `${sku}-E`, expiryDate: '2031-01-01' }, { ON_HAND: early });
  // A quantity of 0 adds no line (the earliest line stands in).
  const lateLine = late ? await addStock(server.app, a.org.id, { ...at, lotCode: `${sku}-L`, expiryDate: '2032-01-01' }, { ON_HAND: late }) : earlyLine;
  const storeLine = atStore ? await addStock(server.app, a.org.id, { productMasterId: productId, locationId: store.id, lotCode: `${sku}-E` }, { ON_HAND: atStore }) : earlyLine;
  return { sku, productId, earlyLine, lateLine, storeLine };
}

describe('inventory holds', () => {
  it('holds part of a stock line, lowers availability and the check, releases in parts, refuses a second release', async () => {
    const { sku, productId, earlyLine } = await stocked();
    const placed = await place({ scope: 'STOCK_LINE', stockLineId: earlyLine.id, quantity: 4, note: 'dented' });
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    expect(placed.body).toMatchObject({
      scope: 'STOCK_LINE', status: 'ACTIVE', stockLineId: earlyLine.id, lotId: earlyLine.lotId, productMasterId: productId, locationId: a.warehouse.id,
      reasonCode: 'QC_INSPECTION', note: 'dented', totalQuantity: 4, totalHeld: 4, totalReleased: 0, createdByType: 'API_KEY',
    });
    expect(placed.body.lines).toEqual([expect.objectContaining({ stockLineId: earlyLine.id, quantity: 4, releasedQuantity: 0, heldQuantity: 4 })]);
    expect(await line(earlyLine.id)).toMatchObject({ qtyOnHand: 10, qtyOnHold: 4 });
    expect(await rows(placed.body.id)).toEqual([{ stockLineId: earlyLine.id, transactionType: 'HOLD', bucket: 'ON_HOLD', deltaQty: 4, reasonCode: 'QC_INSPECTION' }]);

    const availability = await call('GET', `/api/inventory/availability?productMasterId=${productId}&locationId=${a.warehouse.id}&lotId=${earlyLine.lotId}`);
    expect(availability.body.data[0]).toMatchObject({ qtyOnHand: 10, qtyOnHold: 4, qtyAvailable: 6 });
    const check = await call('POST', '/api/inventory/availability/check', { items: [{ sku, locationId: a.warehouse.id, quantity: 27 }] });
    expect(check.body.results[0]).toMatchObject({ availableQuantity: 26, isAvailable: false });

    const listed = await call('GET', `/api/inventory/holds?stockLineId=${earlyLine.id}`);
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ total: 1, limit: 50, offset: 0 });
    expect(listed.body.holds).toEqual([placed.body]);
    expect(listed.body.data).toEqual(listed.body.holds);

    const part = await release({ holdId: placed.body.id, quantity: 1, note: 'one checked' });
    expect(part.status, JSON.stringify(part.body)).toBe(200);
    expect(part.body).toMatchObject({ status: 'ACTIVE', totalHeld: 3, totalReleased: 1, releaseNote: 'one checked', releasedAt: null });
    const over = await release({ holdId: placed.body.id, quantity: 4 });
    expect(over.status).toBe(400);
    expect(over.body.details.quantity).toBeDefined();
    const rest = await release({ holdId: placed.body.id });
    expect(rest.body).toMatchObject({ status: 'RELEASED', totalHeld: 0, totalReleased: 4 });
    expect(rest.body.releasedAt).toBeTruthy();
    const again = await release({ holdId: placed.body.id });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('INVALID_STATE');
    expect(await line(earlyLine.id)).toMatchObject({ qtyOnHand: 10, qtyOnHold: 0 });
    expect((await rows(placed.body.id)).map((r) => [r.transactionType, r.deltaQty])).toEqual([['HOLD', 4], ['RELEASE_HOLD', -1], ['RELEASE_HOLD', -3]]);
  });

  it('holds a lot everywhere or at one location, and a product at a location first-expiring first', async () => {
    const { productId, earlyLine, lateLine, storeLine } = await stocked();
    const everywhere = await place({ scope: 'LOT', lotId: earlyLine.lotId });
    expect(everywhere.status, JSON.stringify(everywhere.body)).toBe(201);
    expect(everywhere.body).toMatchObject({ scope: 'LOT', locationId: null, productMasterId: productId, totalQuantity: 15 });
    expect((await line(storeLine.id)).qtyOnHold).toBe(5);
    expect((await line(earlyLine.id)).qtyOnHold).toBe(10);
    expect((await release({ holdId: everywhere.body.id })).status).toBe(200);

    const atStore = await place({ scope: 'LOT', lotId: earlyLine.lotId, locationId: store.id, quantity: 2 });
    expect(atStore.body.lines.map((l: { stockLineId: string; quantity: number }) => [l.stockLineId, l.quantity])).toEqual([[storeLine.id, 2]]);

    const product = await place({ scope: 'PRODUCT_AT_LOCATION', productMasterId: productId, locationId: a.warehouse.id, quantity: 12 });
    expect(product.status).toBe(201);
    const byLine = Object.fromEntries(product.body.lines.map((l: { stockLineId: string; quantity: number }) => [l.stockLineId, l.quantity]));
    expect(byLine).toEqual({ [earlyLine.id]: 10, [lateLine.id]: 2 });

    const filtered = await call('GET', `/api/inventory/holds?locationId=${store.id}&productMasterId=${productId}&status=active`);
    expect(filtered.body.holds.map((h: { id: string }) => h.id)).toEqual([atStore.body.id]);
    const byLot = await call('GET', `/api/inventory/holds?lotId=${lateLine.lotId}`);
    expect(byLot.body.holds.map((h: { id: string }) => h.id)).toEqual([product.body.id]);
    const released = await call('GET', `/api/inventory/holds?productMasterId=${productId}&status=RELEASED`);
    expect(released.body.holds.map((h: { id: string }) => h.id)).toEqual([everywhere.body.id]);
  });

  it('quarantines expired and recalled lots too, which no pick would take', async () => {
    const sku = `H-${n++}`;
    const productId = await createProduct(server, a.key, sku);
    const at = { productMasterId: productId, locationId: a.warehouse.id };
    const expired = await addStock(server.app, a.org.id, { ...at, lotCode: `${sku}-X`, expiryDate: '2020-01-01' }, { ON_HAND: 3 });
    const recalled = await addStock(server.app, a.org.id, { ...at, lotCode: `${sku}-R`, expiryDate: '2033-01-01', recalled: true }, { ON_HAND: 2 });
    const good = await addStock(server.app, a.org.id, { ...at, lotCode: `${sku}-G`, expiryDate: '2034-01-01' }, { ON_HAND: 4 });
    const placed = await place({ scope: 'PRODUCT_AT_LOCATION', productMasterId: productId, locationId: a.warehouse.id, quantity: 6 });
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    // First expiry first: the expired lot, then the recalled one, then one unit of the good lot.
    expect(placed.body.lines.map((l: { stockLineId: string; quantity: number }) => [l.stockLineId, l.quantity]).sort()).toEqual(
      [[expired.id, 3], [recalled.id, 2], [good.id, 1]].sort(),
    );
    expect(await line(good.id)).toMatchObject({ qtyOnHand: 4, qtyOnHold: 1 });
  });

  it('keeps held units from a transfer shipment', async () => {
    const { productId } = await stocked(10, 20, 0);
    expect((await place({ scope: 'PRODUCT_AT_LOCATION', productMasterId: productId, locationId: a.warehouse.id, quantity: 25 })).status).toBe(201);
    const draft = await call('POST', '/api/inventory/transfers', { sourceLocationId: a.warehouse.id, destLocationId: store.id, lines: [{ productMasterId: productId, quantity: 6 }] });
    const ship = await call('POST', `/api/inventory/transfers/${draft.body.id}`, { action: 'ship' });
    expect(ship.status).toBe(400);
    expect(ship.body.code).toBe('INSUFFICIENT_STOCK');
    const draft5 = await call('POST', '/api/inventory/transfers', { sourceLocationId: a.warehouse.id, destLocationId: store.id, lines: [{ productMasterId: productId, quantity: 5 }] });
    expect((await call('POST', `/api/inventory/transfers/${draft5.body.id}`, { action: 'ship' })).status).toBe(200);
  });

  it('lowers channel ATP by the held units at once, and gives them back on release', async () => {
    const { sku, productId } = await stocked(10, 20, 0);
    const channel = await createChannelFor(server.operator, { organizationId: a.org.id, name: `Web ${sku}`, type: 'ONLINE' });
    const policy = await graphqlData(server, a.key, `mutation ($input: SetAllocationPolicyInput!) { setAllocationPolicy(input: $input) { ... on AllocationPolicy { id } } }`, {
      input: { channelId: channel.id, locationId: a.warehouse.id, mode: 'SHARE', sharePct: 0.5, lowAtpThreshold: 0 },
    });
    expect(policy.setAllocationPolicy.id).toBeDefined();
    const atp = async () => {
      const res = await call('GET', `/api/inventory/channel-location?locationId=${a.warehouse.id}&sku=${sku}&channelId=${channel.id}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const [product] = res.body.products;
      expect(product.productMasterId).toBe(productId);
      return { available: product.totalAvailable, atp: product.channels.find((c: { channelId: string }) => c.channelId === channel.id).atp };
    };
    expect(await atp()).toEqual({ available: 30, atp: 15 });
    const held = await place({ scope: 'PRODUCT_AT_LOCATION', productMasterId: productId, locationId: a.warehouse.id, quantity: 12 });
    expect(held.status).toBe(201);
    expect(await atp()).toEqual({ available: 18, atp: 9 });
    expect((await release({ holdId: held.body.id, quantity: 4 })).status).toBe(200);
    expect(await atp()).toEqual({ available: 22, atp: 11 });
    expect((await release({ holdId: held.body.id })).status).toBe(200);
    expect(await atp()).toEqual({ available: 30, atp: 15 });
  });

  it('refuses more than available, or nothing available, and writes nothing', async () => {
    const { productId, earlyLine } = await stocked(3, 0, 0);
    const before = await server.app.prisma.inventoryHold.count();
    const ledgerBefore = await server.app.prisma.stockTransaction.count();
    const short = await place({ scope: 'PRODUCT_AT_LOCATION', productMasterId: productId, locationId: a.warehouse.id, quantity: 4 });
    expect(short.status).toBe(400);
    expect(short.body.code).toBe('INSUFFICIENT_STOCK');
    expect((await place({ scope: 'LOT', lotId: earlyLine.lotId, locationId: store.id })).body.code).toBe('INSUFFICIENT_STOCK');
    const bad = await place({ scope: 'STOCK_LINE', lotId: earlyLine.lotId, colour: 'red' });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.details).sort()).toEqual(['colour', 'lotId', 'stockLineId']);
    const past = await place({ scope: 'STOCK_LINE', stockLineId: earlyLine.id, expiresAt: '2020-01-01T00:00:00Z' });
    expect(past.body.details.expiresAt).toBeDefined();
    expect(await server.app.prisma.inventoryHold.count()).toBe(before);
    expect(await server.app.prisma.stockTransaction.count()).toBe(ledgerBefore);
    expect(await line(earlyLine.id)).toMatchObject({ qtyOnHand: 3, qtyOnHold: 0 });
  });

  it('an expired hold releases itself on the first read, once', async () => {
    const { earlyLine } = await stocked();
    const placed = await place({ scope: 'STOCK_LINE', stockLineId: earlyLine.id, quantity: 3, expiresAt: '2099-01-01T00:00:00Z' });
    await server.app.prisma.inventoryHold.update({ where: { id: placed.body.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const reads = await Promise.all([
      call('GET', `/api/inventory/holds?stockLineId=${earlyLine.id}`),
      graphqlData(server, a.key, 'query ($id: ID!) { inventoryHold(id: $id) { status totalHeld } }', { id: placed.body.id }),
    ]);
    expect(reads[0].body.holds[0]).toMatchObject({ status: 'EXPIRED', totalHeld: 0, releaseNote: 'Expired' });
    expect(reads[1].inventoryHold).toEqual({ status: 'EXPIRED', totalHeld: 0 });
    await call('GET', '/api/inventory/holds');
    expect((await rows(placed.body.id)).map((r) => [r.transactionType, r.deltaQty])).toEqual([['HOLD', 3], ['RELEASE_HOLD', -3]]);
    expect((await line(earlyLine.id)).qtyOnHold).toBe(0);
    expect((await release({ holdId: placed.body.id })).status).toBe(409);
  });

  it('needs inventory.read to list and inventory.write to place or release', async () => {
    const { earlyLine } = await stocked();
    const reader = await a.keyWith(['inventory:read']);
    const held = await place({ scope: 'STOCK_LINE', stockLineId: earlyLine.id, quantity: 1 });
    expect((await call('GET', '/api/inventory/holds', undefined, reader)).status).toBe(200);
    expect((await place({ scope: 'STOCK_LINE', stockLineId: earlyLine.id, quantity: 1 }, reader)).status).toBe(403);
    expect((await release({ holdId: held.body.id }, reader)).status).toBe(403);
    const none = await a.keyWith(['forecast:read']);
    expect((await call('GET', '/api/inventory/holds', undefined, none)).status).toBe(403);
  });

  it("never shows or touches another organization's holds and stock", async () => {
    const { earlyLine } = await stocked();
    const held = await place({ scope: 'STOCK_LINE', stockLineId: earlyLine.id, quantity: 1 });
    const foreign = await place({ scope: 'STOCK_LINE', stockLineId: earlyLine.id, quantity: 1 }, b.key);
    expect(foreign.status).toBe(400);
    expect(foreign.body.details.stockLineId).toBeDefined();
    const foreignRelease = await release({ holdId: held.body.id }, b.key);
    expect(foreignRelease.status).toBe(400);
    expect(foreignRelease.body.details.holdId).toBeDefined();
    expect((await call('GET', `/api/inventory/holds?lotId=${earlyLine.lotId}`, undefined, b.key)).status).toBe(404);
    expect((await call('GET', `/api/inventory/holds?stockLineId=${earlyLine.id}`, undefined, b.key)).status).toBe(404);
    expect((await call('GET', '/api/inventory/holds', undefined, b.key)).body.total).toBe(0);
    const lookup = await graphqlData(server, b.key, 'query ($id: ID!) { inventoryHold(id: $id) { id } node(id: $id) { id } }', { id: held.body.id });
    expect(lookup).toEqual({ inventoryHold: null, node: null });
    expect((await line(earlyLine.id)).qtyOnHold).toBe(1);
  });

  it('GraphQL: a connection, the lookup and the mutations', async () => {
    const { earlyLine } = await stocked();
    const placed = await graphqlData(
      server,
      a.key,
      `mutation ($input: InventoryHoldPlaceInput!) { placeInventoryHold(input: $input) { ... on InventoryHold { id status totalHeld lines { stockLine { id } heldQuantity } } } }`,
      { input: { scope: 'STOCK_LINE', stockLineId: earlyLine.id, quantity: 2, reasonCode: 'DAMAGE' } },
    );
    const id = placed.placeInventoryHold.id;
    expect(placed.placeInventoryHold).toEqual({ id, status: 'ACTIVE', totalHeld: 2, lines: [{ stockLine: { id: earlyLine.id }, heldQuantity: 2 }] });
    const page = await graphqlData(server, a.key, 'query ($s: ID) { inventoryHolds(stockLineId: $s, first: 5) { totalCount edges { node { id } } } }', { s: earlyLine.id });
    expect(page.inventoryHolds).toEqual({ totalCount: 1, edges: [{ node: { id } }] });
    const released = await graphqlData(server, a.key, `mutation ($input: InventoryHoldReleaseInput!) { releaseInventoryHold(input: $input) { ... on InventoryHold { status } } }`, { input: { holdId: id } });
    expect(released.releaseInventoryHold).toEqual({ status: 'RELEASED' });
  });
});
