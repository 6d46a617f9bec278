import { operatorContext } from '../../../src/context.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChannelFor, createLocationFor } from '../../../src/services/admin/admin.js';
import { MAX_INT, MAX_PLANNING_DAYS } from '../../../src/kernel/input-limits.js';
import { graphqlData } from '../../support/api.js';
import type { Tenant } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';
import { addStock } from '../../support/stock.js';
import { startServerWithTwoTenants } from '../../support/two-tenants.js';

// Numbers end to end: each stock line holds at most 2,147,483,647 units (int4), but sums over lines, lots,
// transfer lines and locations pass it. The largest quantities the API accepts are written, then every
// view that sums them is read over REST and GraphQL: exact totals, never a 500.
const M = MAX_INT;

let server: TestServer;
let a: Tenant;
let store: { id: string };
let dc: { id: string };
let productId: string;
let categoryId: string;
let binId: string;
const ch = {} as { web: string; store: string };
/** T1: two lines of M shipped, in transit. T2: two lines of M shipped and received at the store. */
const t: Record<string, any> = {};
const lots: { id: string; lotId: string | null; binId: string | null }[] = [];

const call = (method: string, path: string, body?: unknown) => server.call(method, path, { token: a.key, body });
const get = async (path: string) => {
  const res = await call('GET', path);
  expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body;
};
const gql = (query: string, variables: Record<string, unknown> = {}) => graphqlData(server, a.key, query, variables);
const transferCount = () => server.app.prisma.inventoryTransfer.count({ where: { organizationId: a.org.id } });

async function transfer(to: string, quantities: number[]) {
  const res = await call('POST', '/api/inventory/transfers', {
    sourceLocationId: a.warehouse.id,
    destLocationId: to,
    lines: quantities.map((quantity) => ({ productMasterId: productId, quantity })),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

async function act(id: string, body: Record<string, unknown>) {
  const res = await call('POST', `/api/inventory/transfers/${id}`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

beforeAll(async () => {
  ({ server, a } = await startServerWithTwoTenants());
  const db = server.app.prisma;
  store = await createLocationFor(operatorContext(db, 'test-setup'), { organizationId: a.org.id, code: 'ST-BIG', name: 'Store' });
  dc = await createLocationFor(operatorContext(db, 'test-setup'), { organizationId: a.org.id, code: 'DC-BIG', name: 'Distribution' });
  ch.web = (await createChannelFor(operatorContext(db, 'test-setup'), { organizationId: a.org.id, name: 'Web', type: 'ONLINE' })).id;
  ch.store = (await createChannelFor(operatorContext(db, 'test-setup'), { organizationId: a.org.id, name: 'Zz store', type: 'RETAIL' })).id;
  const policy = await gql(
    'mutation ($input: SetAllocationPolicyInput!) { setAllocationPolicy(input: $input) { ... on AllocationPolicy { id } } }',
    { input: { channelId: ch.web, locationId: a.warehouse.id, mode: 'SHARE', sharePct: 0.5, lowAtpThreshold: M } },
  );
  expect(policy.setAllocationPolicy.id).toBeTruthy();
  categoryId = (await gql('mutation { createCategory(input: {name: "Bulk"}) { ... on Category { id } } }')).createCategory.id;
  const product = await call('POST', '/api/products', { sku: 'BIG-1', name: 'Bulk grain', unitCost: 2, categoryId });
  expect(product.status, JSON.stringify(product.body)).toBe(201);
  productId = product.body.id;

  // Eight lots of M at the warehouse, all in bin B1; the last two with all but one unit reserved.
  for (let i = 0; i < 8; i++) {
    const deltas = i >= 6 ? { ON_HAND: M, RESERVED: M - 1 } : { ON_HAND: M };
    lots.push(await addStock(server.app, a.org.id, { productMasterId: productId, locationId: a.warehouse.id, lotCode: `LOT-${i}`, expiryDate: `2099-01-0${i + 1}`, binCode: 'B1' }, deltas));
  }
  binId = lots[0]!.binId!;
  // Levels at the bounds: the warehouse holds more than its maximum, the distribution centre needs M.
  for (const [locationId, q] of [[a.warehouse.id, { minQuantity: 0, reorderQuantity: 0, maxQuantity: M }], [dc.id, { minQuantity: M, reorderQuantity: M, maxQuantity: M }]] as const) {
    const level = await call('POST', '/api/inventory-levels', { productMasterId: productId, locationId, ...q });
    expect(level.status, JSON.stringify(level.body)).toBe(200);
  }

  // FEFO: T1 ships lots 0 and 1 and stays in transit; T2 ships lots 2 and 3 and is received at the store.
  t.one = await transfer(store.id, [M, M]);
  t.one = await act(t.one.id, { action: 'ship' });
  t.two = await transfer(store.id, [M, M]);
  await act(t.two.id, { action: 'ship' });
  t.two = await act(t.two.id, { action: 'receive' });
});
afterAll(() => server?.close());

// What the warehouse holds after the set-up: lots 4 to 7.
const WH = { onHand: 4 * M, reserved: 2 * (M - 1), available: 2 * M + 2 };

describe('defect 3: a transfer whose total passes Int', () => {
  it('is created (201) with its exact total, and the list, the transfer and cancel keep answering', async () => {
    const before = await transferCount();
    const created = await transfer(store.id, [1_100_000_000, 1_100_000_000]);
    expect(created).toMatchObject({ status: 'DRAFT', totalQuantity: 2_200_000_000, totalShipped: 0, totalReceived: 0 });
    expect(await transferCount()).toBe(before + 1);
    const list = await get('/api/inventory/transfers?limit=100');
    expect(list.transfers.find((x: any) => x.id === created.id)).toMatchObject({ totalQuantity: 2_200_000_000 });
    expect((await get(`/api/inventory/transfers/${created.id}`)).totalQuantity).toBe(2_200_000_000);
    expect(await act(created.id, { action: 'cancel' })).toMatchObject({ status: 'CANCELLED', totalQuantity: 2_200_000_000 });
    const data = await gql('query ($id: ID!) { inventoryTransfer(id: $id) { totalQuantity } inventoryTransfersPage(limit: 100) { transfers { id totalQuantity } } }', { id: created.id });
    expect(data.inventoryTransfer.totalQuantity).toBe(2_200_000_000);
  });

  it('the largest transfer the API accepts (500 lines of 2,147,483,647) is representable', async () => {
    const created = await transfer(store.id, Array.from({ length: 500 }, () => M));
    expect(created.totalQuantity).toBe(500 * M);
    expect((await act(created.id, { action: 'cancel' })).status).toBe('CANCELLED');
    // The largest row that can be stored does not break the list (newest first).
    expect((await get('/api/inventory/transfers')).transfers[0]).toMatchObject({ id: created.id, totalQuantity: 500 * M });
    const data = await gql('{ inventoryTransfersPage(limit: 1) { transfers { id totalQuantity } } }');
    expect(data.inventoryTransfersPage.transfers).toEqual([{ id: created.id, totalQuantity: 500 * M }]);
  });

  it('a refused transfer leaves nothing behind (REST and GraphQL)', async () => {
    const before = await transferCount();
    const res = await call('POST', '/api/inventory/transfers', {
      sourceLocationId: a.warehouse.id,
      destLocationId: store.id,
      lines: [{ productMasterId: productId, quantity: M }, { productMasterId: productId, quantity: M + 1 }],
    });
    expect(res.status).toBe(400);
    expect(res.body.details).toHaveProperty(['lines.1.quantity']);
    const refused = await server.graphql(
      'mutation ($input: InventoryTransferCreateInput!) { createInventoryTransfer(input: $input) { __typename } }',
      { input: { sourceLocationId: a.warehouse.id, destLocationId: store.id, lines: [{ productMasterId: productId, quantity: M + 1 }] } },
      a.key,
    );
    expect(refused.body.errors?.[0]?.message, JSON.stringify(refused.body)).toMatch(/input\.lines\[0\]\.quantity/);
    expect(await transferCount()).toBe(before);
    expect((await call('GET', '/api/inventory/transfers')).status).toBe(200);
  });
});

describe('defect 4: stock totals above 2,147,483,647 at one location', () => {
  it('availability: lines and totals, and the summary', async () => {
    const lines = await get(`/api/inventory/availability?productMasterId=${productId}&locationId=${a.warehouse.id}`);
    // Lots 0 to 3 were shipped: their lines stay, empty.
    expect(lines.count).toBe(8);
    expect(lines.data.map((l: any) => l.qtyOnHand)).toEqual([0, 0, 0, 0, M, M, M, M]);
    expect(lines.totals).toMatchObject({ totalOnHand: WH.onHand, totalAvailable: WH.available, totalReserved: WH.reserved });
    const summary = await get(`/api/inventory/availability?productMasterId=${productId}&locationId=${a.warehouse.id}&summary=true&includeStockLines=true`);
    expect(summary.data).toMatchObject({ totalOnHand: WH.onHand, totalAvailable: WH.available, totalReserved: WH.reserved });
    expect(summary.data.stockLines).toHaveLength(8);
    const data = await gql(
      `query ($p: ID, $l: ID) { availability(productMasterId: $p, locationId: $l, summary: true) { count totals { totalOnHand totalAvailable totalReserved }
        summary { totalOnHand totalAvailable } } }`,
      { p: productId, l: a.warehouse.id },
    );
    expect(data.availability.totals).toEqual({ totalOnHand: WH.onHand, totalAvailable: WH.available, totalReserved: WH.reserved });
    expect(data.availability.summary).toEqual({ totalOnHand: WH.onHand, totalAvailable: WH.available });
  });

  it('the availability check', async () => {
    const res = await call('POST', '/api/inventory/availability/check', {
      items: [{ sku: 'BIG-1', locationId: a.warehouse.id, quantity: M }, { sku: 'BIG-1', locationId: 'ST-BIG', quantity: 1 }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.results).toEqual([
      { sku: 'BIG-1', locationId: a.warehouse.id, requestedQuantity: M, availableQuantity: WH.available, isAvailable: true },
      { sku: 'BIG-1', locationId: 'ST-BIG', requestedQuantity: 1, availableQuantity: 2 * M, isAvailable: true },
    ]);
    const data = await gql('query ($input: AvailabilityCheckInput!) { checkAvailability(input: $input) { availableQuantity } }', {
      input: { items: [{ sku: 'BIG-1', locationId: a.warehouse.id, quantity: 1 }] },
    });
    expect(data.checkAvailability).toEqual([{ availableQuantity: WH.available }]);
  });

  it('channel ATP: the channel-location page, the drilldown and the channel summary', async () => {
    const page = await get(`/api/inventory/channel-location?locationId=${a.warehouse.id}`);
    const [row] = page.products;
    expect(row).toMatchObject({ productMasterId: productId, totalOnHand: WH.onHand, totalReserved: WH.reserved, totalAvailable: WH.available, minAtp: WH.available / 2, maxAtp: WH.available });
    expect(row.channels.map((c: any) => [c.channelId, c.atp, c.available, c.severity])).toEqual([
      [ch.web, WH.available / 2, WH.available, 'OK'],
      [ch.store, WH.available, WH.available, 'OK'],
    ]);
    const drill = await get(`/api/inventory/channel-location/drilldown?locationId=${a.warehouse.id}&productMasterId=${productId}`);
    expect(drill.product).toMatchObject({ totalOnHand: WH.onHand, totalAvailable: WH.available });
    expect(drill.stockLines.map((l: any) => l.qtyOnHand)).toEqual([0, 0, 0, 0, M, M, M, M]);
    const summary = await get('/api/inventory/channel/summary');
    const totals = Object.fromEntries(summary.channels.map((c: any) => [c.channelId, c.totalAtp]));
    // The store holds 2M (lots 2 and 3, received) where no policy restricts either channel.
    expect(totals).toEqual({ [ch.web]: WH.available / 2 + 2 * M, [ch.store]: WH.available + 2 * M });
    const data = await gql(
      `query ($l: ID, $p: ID) {
        channelLocationAtpPage(locationId: $l) { products { totalOnHand totalReserved totalAvailable minAtp maxAtp channels { atp onHand reserved available } } }
        channelLocationDrilldown(locationId: $l, productMasterId: $p) { product { totalAvailable } channels { atp } }
        channelSummary { channelId totalAtp } }`,
      { l: a.warehouse.id, p: productId },
    );
    expect(data.channelLocationAtpPage.products[0]).toMatchObject({ totalOnHand: WH.onHand, totalAvailable: WH.available, maxAtp: WH.available });
    expect(data.channelLocationAtpPage.products[0].channels[1]).toEqual({ atp: WH.available, onHand: WH.onHand, reserved: WH.reserved, available: WH.available });
    expect(data.channelLocationDrilldown.channels).toEqual([{ atp: WH.available / 2 }, { atp: WH.available }]);
    expect(Object.fromEntries(data.channelSummary.map((c: any) => [c.channelId, c.totalAtp]))).toEqual(totals);
  });

  it('the bins of the location', async () => {
    const bins = await get(`/api/inventory/transfers/bins?locationId=${a.warehouse.id}`);
    expect(bins.bins).toEqual([expect.objectContaining({ id: binId, totalOnHand: WH.onHand, totalAvailable: WH.available })]);
    const data = await gql('query ($l: ID!) { locationBins(locationId: $l) { bins { totalOnHand totalAvailable } } }', { l: a.warehouse.id });
    expect(data.locationBins.bins).toEqual([{ totalOnHand: WH.onHand, totalAvailable: WH.available }]);
  });
});

describe('numbers end to end: every other view over the largest quantities', () => {
  it('transfers: in transit, receipts, list and one transfer', async () => {
    expect(t.one).toMatchObject({ status: 'IN_TRANSIT', totalQuantity: 2 * M, totalShipped: 2 * M, totalReceived: 0 });
    expect(t.two).toMatchObject({ status: 'RECEIVED', totalQuantity: 2 * M, totalShipped: 2 * M, totalReceived: 2 * M });
    const moving = await get(`/api/inventory/transfers/in-transit?productMasterId=${productId}`);
    expect(moving.inTransit).toEqual(
      expect.arrayContaining([
        { productMasterId: productId, locationId: store.id, inbound: 2 * M, outbound: 0 },
        { productMasterId: productId, locationId: a.warehouse.id, inbound: 0, outbound: 2 * M },
      ]),
    );
    expect(moving).toMatchObject({ totalInbound: 2 * M, totalOutbound: 2 * M });
    const list = await get(`/api/inventory/transfers?status=IN_TRANSIT,RECEIVED&limit=100`);
    expect(list.transfers.map((x: any) => [x.id, x.totalShipped])).toEqual(expect.arrayContaining([[t.one.id, 2 * M], [t.two.id, 2 * M]]));
    expect((await get(`/api/inventory/transfers/${t.two.id}`)).totalReceived).toBe(2 * M);
    const data = await gql(
      `query ($id: ID!, $p: ID) { inventoryTransfer(id: $id) { totalQuantity totalShipped totalReceived }
        inventoryInTransit(productMasterId: $p) { totalInbound totalOutbound inTransit { inbound outbound } } }`,
      { id: t.two.id, p: productId },
    );
    expect(data.inventoryTransfer).toEqual({ totalQuantity: 2 * M, totalShipped: 2 * M, totalReceived: 2 * M });
    expect(data.inventoryInTransit).toMatchObject({ totalInbound: 2 * M, totalOutbound: 2 * M });
  });

  it('inventory analytics: units and value over the organization and of the warehouse', async () => {
    const all = await get('/api/inventory/analytics');
    // On hand: 4M at the warehouse and 2M at the store; 2M more in transit; unit cost 2.
    expect(all.analytics).toMatchObject({ totalUnits: 6 * M, totalValue: 12 * M, inTransitUnits: 2 * M, inTransitValue: 4 * M });
    expect(all.analytics.byCategory).toEqual([{ categoryId, categoryName: 'Bulk', units: 6 * M, value: 12 * M }]);
    const wh = await get(`/api/inventory/analytics?locationId=${a.warehouse.id}`);
    expect(wh.analytics).toMatchObject({ totalUnits: WH.onHand, inTransitUnits: 0 });
    const data = await gql('{ inventoryAnalytics { analytics { totalUnits inTransitUnits byCategory { units } } } }');
    expect(data.inventoryAnalytics.analytics).toEqual({ totalUnits: 6 * M, inTransitUnits: 2 * M, byCategory: [{ units: 6 * M }] });
  });

  it('the inventory list, the stock lines and the levels', async () => {
    const list = await get(`/api/inventory?productMasterId=${productId}&limit=100`);
    // Lots 0 to 3 left the warehouse (their lines stay, empty); lots 2 and 3 arrived at the store.
    expect(list.pagination.total).toBe(10);
    expect(list.items.map((i: any) => i.quantityOnHand).sort()).toEqual([0, 0, 0, 0, M, M, M, M, M, M]);
    const levels = await get(`/api/products/${productId}/inventory-levels`);
    const levelRows = Array.isArray(levels) ? levels : (levels.data ?? levels.inventoryLevels);
    expect(levelRows.map((l: any) => l.maxQuantity).sort()).toEqual([M, M]);
    const data = await gql('query ($p: ID) { stockLines(productMasterId: $p, first: 100) { totalCount edges { node { qtyOnHand } } } inventoryLevels(productMasterId: $p) { edges { node { maxQuantity } } } }', { p: productId });
    expect(data.stockLines.totalCount).toBe(10);
    expect(data.stockLines.edges.filter((e: any) => e.node.qtyOnHand === M)).toHaveLength(6);
    expect(data.inventoryLevels.edges.map((e: any) => e.node.maxQuantity)).toEqual([M, M]);
  });

  it('transfer recommendations: generated at the bound, listed with validOnly', async () => {
    const res = await call('POST', '/api/transfers/recommendations', { productMasterId: productId });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const toDc = res.body.recommendations.filter((r: any) => r.destLocationId === dc.id);
    expect(toDc).toEqual([expect.objectContaining({ sourceLocationId: a.warehouse.id, quantity: M, unitsAtRisk: M })]);
    const valid = await get(`/api/transfers/recommendations?validOnly=true&productMasterId=${productId}`);
    expect(valid.recommendations.map((r: any) => r.id)).toContain(toDc[0].id);
  });

  it('a level forecast beyond 2^53 − 1 units is refused, naming the field', async () => {
    const res = await call('POST', '/api/inventory-levels', { productMasterId: productId, locationId: store.id, forecastQuantity: 1e16, forecastPeriodDays: 1 });
    expect(res.status).toBe(400);
    expect(res.body.details).toHaveProperty('forecastQuantity');
  });

  it('a level whose forecast is as large as the API accepts still generates (quantities capped at 2,147,483,647)', async () => {
    const level = await call('POST', '/api/inventory-levels', {
      productMasterId: productId, locationId: store.id, minQuantity: 0, reorderQuantity: 0, maxQuantity: 0, forecastQuantity: 1e12, forecastPeriodDays: 1, expectedLeadTimeDays: MAX_PLANNING_DAYS,
    });
    expect(level.status, JSON.stringify(level.body)).toBe(200);
    const res = await call('POST', '/api/transfers/recommendations', { productMasterId: productId });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    for (const r of res.body.recommendations) {
      expect(r.quantity).toBeLessThanOrEqual(M);
      expect(r.unitsAtRisk).toBeLessThanOrEqual(M);
    }
  });
});

describe('a write that would take one stock line past 2,147,483,647 is refused, nothing changed', () => {
  let other: string;
  let lot: { id: string; lotId: string | null; binId: string | null };
  let full: { id: string; lotId: string | null; binId: string | null };
  const onHand = async (id: string) => (await server.app.prisma.stockLine.findUniqueOrThrow({ where: { id } })).qtyOnHand;
  const rows = (stockLineId: string) => server.app.prisma.stockTransaction.count({ where: { stockLineId } });

  beforeAll(async () => {
    const res = await call('POST', '/api/products', { sku: 'BIG-2', name: 'Bulk sand' });
    other = res.body.id;
    // Lot X: M in bin B1 at the warehouse, M in bin B2 at the warehouse and M (no bin) at the store.
    const at = { productMasterId: other, lotCode: 'X', expiryDate: '2099-06-01' };
    lot = await addStock(server.app, a.org.id, { ...at, locationId: a.warehouse.id, binCode: 'B1' }, { ON_HAND: M });
    full = await addStock(server.app, a.org.id, { ...at, locationId: a.warehouse.id, binCode: 'B2' }, { ON_HAND: M });
    await addStock(server.app, a.org.id, { ...at, locationId: store.id }, { ON_HAND: M });
  });

  it('a bin move into a full line: 400 on quantity', async () => {
    const res = await call('POST', '/api/inventory/transfers/bins', { locationId: a.warehouse.id, productMasterId: other, fromBinId: lot.binId, toBinId: full.binId, quantity: 1 });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.details).toHaveProperty('quantity');
    expect([await onHand(lot.id), await onHand(full.id), await rows(lot.id)]).toEqual([M, M, 1]);
  });

  it('a receipt into a full line: 400 on lines, the transfer stays IN_TRANSIT and can be cancelled', async () => {
    const created = await call('POST', '/api/inventory/transfers', {
      sourceLocationId: a.warehouse.id, destLocationId: store.id, lines: [{ productMasterId: other, quantity: 1, lotId: lot.lotId, binId: lot.binId }],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await act(created.body.id, { action: 'ship' });
    const res = await call('POST', `/api/inventory/transfers/${created.body.id}`, { action: 'receive' });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.details).toHaveProperty('lines');
    expect(await get(`/api/inventory/transfers/${created.body.id}`)).toMatchObject({ status: 'IN_TRANSIT', totalShipped: 1, totalReceived: 0 });
    expect((await act(created.body.id, { action: 'cancel' })).status).toBe('CANCELLED');
    expect(await onHand(lot.id)).toBe(M);
  });
});
