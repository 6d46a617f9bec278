import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocationFor } from '../../src/services/admin/admin.js';
import { createProduct, graphqlData } from '../support/api.js';
import type { Tenant } from '../support/fixtures.js';
import { importRows } from '../support/import.js';
import type { TestServer } from '../support/server.js';
import { startServerWithTwoTenants } from '../support/two-tenants.js';

// The supply records (suppliers, purchase orders, sales orders, demand history) are written only by
// imports; these tests read them through their GraphQL connections: order, paging, filters, tenancy and
// permissions. What each import writes is tested in test/import.

let server: TestServer;
let a: Tenant;
let b: Tenant;
let dc: { id: string };
let bDc: { id: string };

const gql = (query: string, variables: Record<string, unknown> = {}, token = a.key) => graphqlData(server, token, query, variables);
const load = async (path: string, rows: unknown[], token = a.key) => {
  const job = await importRows(server, token, path, rows);
  expect(job).toMatchObject({ state: 'COMPLETED', rejectedRows: 0 });
};
const nodes = (connection: { edges: { node: any }[] }) => connection.edges.map((e) => e.node);

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants({ IMPORT_WORKERS: '1', IMPORT_POLL_MS: '50' }));
  dc = await createLocationFor(server.operator, { organizationId: a.org.id, code: 'DC-EAST', name: 'East DC' });
  bDc = await createLocationFor(server.operator, { organizationId: b.org.id, code: 'B-DC', name: 'Their DC' });
  for (const sku of ['SKU-A', 'SKU-B']) await createProduct(server, a.key, sku);
  await createProduct(server, b.key, 'B-ONLY');
  await load('suppliers', [{ code: 'SUP-1', name: 'Acme' }, { code: 'SUP-2', name: 'Bolt' }, { code: 'SUP-3', name: 'Acme Two' }]);
  await load('suppliers', [{ code: 'B-SUP' }], b.key);
  await load('purchase-orders', [
    { number: 'PO-1', supplierCode: 'SUP-1', destinationLocationCode: 'DC-EAST', lines: [{ sku: 'SKU-A', quantity: 10 }] },
    { number: 'PO-2', supplierCode: 'SUP-2', destinationLocationCode: 'DC-EAST', status: 'APPROVED', lines: [{ sku: 'SKU-B', quantity: 5 }] },
    { number: 'PO-3', supplierCode: 'SUP-1', destinationLocationCode: 'WH1', status: 'APPROVED', lines: [{ sku: 'SKU-A', quantity: 1 }] },
  ]);
  await load('purchase-orders', [{ number: 'B-PO', supplierCode: 'B-SUP', destinationLocationCode: 'B-DC', lines: [{ sku: 'B-ONLY', quantity: 1 }] }], b.key);
  await load('orders', [
    { externalId: 'SO-1', fulfillmentLocationCode: 'DC-EAST', lines: [{ sku: 'SKU-A', quantity: 1 }] },
    { externalId: 'SO-2', fulfillmentLocationCode: 'WH1', lines: [{ sku: 'SKU-B', quantity: 2 }] },
    { externalId: 'SO-3', fulfillmentLocationCode: 'DC-EAST', lines: [{ sku: 'SKU-B', quantity: 3 }] },
  ]);
  await load('demand-history', [
    { sku: 'SKU-A', locationCode: 'DC-EAST', date: '2026-11-02', actualDemand: 4 },
    { sku: 'SKU-A', locationCode: 'DC-EAST', date: '2026-11-09', actualDemand: 6, channel: 'WEB' },
    { sku: 'SKU-B', locationCode: 'WH1', date: '2026-11-16', actualDemand: 8 },
  ]);
}, 90_000);
afterAll(() => server?.close());

describe('suppliers', () => {
  const SUPPLIERS = `query ($search: String, $after: String) { suppliers(first: 2, search: $search, after: $after) {
    totalCount pageInfo { hasNextPage endCursor } edges { node { code name } } } }`;

  it('pages by code with totalCount, searches code and name, and shows only the organization\'s', async () => {
    const first = (await gql(SUPPLIERS)).suppliers;
    expect(first.totalCount).toBe(3);
    expect(nodes(first).map((s) => s.code)).toEqual(['SUP-1', 'SUP-2']);
    expect(first.pageInfo.hasNextPage).toBe(true);
    const second = (await gql(SUPPLIERS, { after: first.pageInfo.endCursor })).suppliers;
    expect(nodes(second).map((s) => s.code)).toEqual(['SUP-3']);
    expect(second.pageInfo.hasNextPage).toBe(false);
    expect(nodes((await gql(SUPPLIERS, { search: 'acme' })).suppliers).map((s) => s.code)).toEqual(['SUP-1', 'SUP-3']);
    expect(nodes((await gql(SUPPLIERS, {}, b.key)).suppliers).map((s) => s.code)).toEqual(['B-SUP']);
  });

  it('needs procurement.read', async () => {
    const denied = await server.graphql(SUPPLIERS, {}, await a.keyWith(['inventory:read']));
    expect(denied.body.errors[0].extensions.code).toBe('INSUFFICIENT_SCOPE');
  });
});

describe('purchase orders', () => {
  const ORDERS = `query ($status: PurchaseOrderStatus, $locationId: ID) { purchaseOrders(first: 50, status: $status, locationId: $locationId) {
    totalCount edges { node { number status supplier { code } destinationLocation { code } lines { quantity product { sku } } } } } }`;

  it('filters by status and destination, with their supplier, location and lines', async () => {
    const all = (await gql(ORDERS)).purchaseOrders;
    expect(all.totalCount).toBe(3);
    expect(nodes((await gql(ORDERS, { status: 'APPROVED' })).purchaseOrders).map((o) => o.number)).toEqual(['PO-2', 'PO-3']);
    expect(nodes((await gql(ORDERS, { status: 'APPROVED', locationId: dc.id })).purchaseOrders)).toEqual([
      { number: 'PO-2', status: 'APPROVED', supplier: { code: 'SUP-2' }, destinationLocation: { code: 'DC-EAST' }, lines: [{ quantity: 5, product: { sku: 'SKU-B' } }] },
    ]);
  });

  it("answers NOT_FOUND for another organization's location and never shows its orders", async () => {
    const foreign = await server.graphql(ORDERS, { locationId: bDc.id }, a.key);
    expect(foreign.body.errors[0].extensions.code).toBe('NOT_FOUND');
    expect(nodes((await gql(ORDERS, {}, b.key)).purchaseOrders).map((o) => o.number)).toEqual(['B-PO']);
    const denied = await server.graphql(ORDERS, {}, await a.keyWith(['inventory:read']));
    expect(denied.body.errors[0].extensions.code).toBe('INSUFFICIENT_SCOPE');
  });
});

describe('sales orders', () => {
  const ORDERS = `query ($locationId: ID) { salesOrders(first: 50, locationId: $locationId) {
    totalCount edges { node { externalId fulfillmentLocationId lines { requestedQty } } } } }`;

  it('lists every order, filters by fulfillment location, and refuses a foreign one', async () => {
    expect(nodes((await gql(ORDERS)).salesOrders).map((o) => o.externalId).sort()).toEqual(['SO-1', 'SO-2', 'SO-3']);
    const atDc = (await gql(ORDERS, { locationId: dc.id })).salesOrders;
    expect(atDc.totalCount).toBe(2);
    expect(nodes(atDc).sort((x, y) => x.externalId.localeCompare(y.externalId))).toEqual([
      { externalId: 'SO-1', fulfillmentLocationId: dc.id, lines: [{ requestedQty: 1 }] },
      { externalId: 'SO-3', fulfillmentLocationId: dc.id, lines: [{ requestedQty: 3 }] },
    ]);
    expect((await server.graphql(ORDERS, { locationId: bDc.id }, a.key)).body.errors[0].extensions.code).toBe('NOT_FOUND');
    expect(nodes((await gql(ORDERS, {}, b.key)).salesOrders)).toEqual([]);
  });
});

describe('demand history', () => {
  const HISTORY = `query ($locationId: ID, $channel: String, $from: Date, $to: Date) {
    demandHistory(first: 50, locationId: $locationId, channel: $channel, from: $from, to: $to) {
      totalCount edges { node { weekStart channel actualUnits product { sku } } } } }`;

  it('filters by location, channel and a window of days (the weeks holding them)', async () => {
    expect((await gql(HISTORY)).demandHistory.totalCount).toBe(3);
    expect(nodes((await gql(HISTORY, { locationId: dc.id })).demandHistory).map((h) => h.actualUnits).sort()).toEqual([4, 6]);
    expect(nodes((await gql(HISTORY, { channel: 'WEB' })).demandHistory).map((h) => h.weekStart)).toEqual(['2026-11-09']);
    expect(nodes((await gql(HISTORY, { from: '2026-11-10', to: '2026-11-16' })).demandHistory).map((h) => h.weekStart).sort()).toEqual(['2026-11-09', '2026-11-16']);
  });

  it("refuses another organization's location and needs planning.read", async () => {
    expect((await server.graphql(HISTORY, { locationId: bDc.id }, a.key)).body.errors[0].extensions.code).toBe('NOT_FOUND');
    expect((await gql(HISTORY, {}, b.key)).demandHistory.totalCount).toBe(0);
    const denied = await server.graphql(HISTORY, {}, await a.keyWith(['inventory:read']));
    expect(denied.body.errors[0].extensions.code).toBe('INSUFFICIENT_SCOPE');
  });
});
