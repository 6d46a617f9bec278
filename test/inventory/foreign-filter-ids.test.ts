import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChannelFor } from '../../src/services/admin/admin.js';
import { createProduct, graphqlData, graphqlError } from '../support/api.js';
import type { Tenant } from '../support/fixtures.js';
import type { TestServer } from '../support/server.js';
import { addStock } from '../support/stock.js';
import { startServerWithTwoTenants } from '../support/two-tenants.js';

// A list filter naming another organization's (or an unknown) stock line, product, location or channel is
// a 404 (GraphQL NOT_FOUND), as on every list, rather than an empty answer.

let server: TestServer;
let a: Tenant;
let b: Tenant;
const mine: Record<string, string> = {};
const theirs: Record<string, string> = {};

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants());
  for (const [tenant, ids] of [[a, mine], [b, theirs]] as const) {
    ids.productMasterId = await createProduct(server, tenant.key, 'FILTER-1');
    ids.locationId = tenant.warehouse.id;
    ids.inventoryItemId = (await addStock(server.app, tenant.org.id, { productMasterId: ids.productMasterId, locationId: tenant.warehouse.id }, { ON_HAND: 5 })).id;
    ids.channelId = (await createChannelFor(server.operator, { organizationId: tenant.org.id, name: 'Web', type: 'ONLINE' })).id;
  }
}, 60_000);
afterAll(() => server?.close());

const get = (path: string) => server.call('GET', path, { token: a.key });

/** `check(field, id)` answers for the caller's own id, then 404 for B's and for an unknown one. */
async function expectForeignNotFound(fields: string[], check: (field: string, id: string) => Promise<{ status: number; code?: string }>) {
  for (const field of fields) {
    expect((await check(field, mine[field]!)).status, `${field}: own id`).toBe(200);
    for (const id of [theirs[field]!, 'unknown-id']) {
      expect(await check(field, id), `${field}=${id}`).toEqual({ status: 404, code: 'NOT_FOUND' });
    }
  }
}

const rest = async (path: string) => {
  const res = await get(path);
  return { status: res.status, ...(res.status === 200 ? {} : { code: res.body.code }) };
};
const graphql = async (query: string, variables: Record<string, unknown>) => {
  const res = await server.graphql(query, variables, a.key);
  if (!res.body.errors) return { status: 200 };
  expect(res.body.errors).toHaveLength(1);
  return { status: 404, code: res.body.errors[0].extensions.code };
};

describe('foreign filter ids', () => {
  it('GET /api/inventory/adjustments: inventoryItemId, productMasterId, locationId', async () => {
    await expectForeignNotFound(['inventoryItemId', 'productMasterId', 'locationId'], (field, id) => rest(`/api/inventory/adjustments?${field}=${id}`));
  });

  it('GET /api/inventory/expired: productMasterId, locationId', async () => {
    await expectForeignNotFound(['productMasterId', 'locationId'], (field, id) => rest(`/api/inventory/expired?${field}=${id}`));
  });

  it("the count sheet's productMasterId (GET /api/inventory/adjustments/record-stock)", async () => {
    await expectForeignNotFound(['productMasterId'], (field, id) => rest(`/api/inventory/adjustments/record-stock?locationId=${a.warehouse.id}&${field}=${id}`));
    expect((await get(`/api/inventory/adjustments/record-stock?locationId=${b.warehouse.id}`)).status).toBe(404);
  });

  it('GraphQL stockTransactions and stockTransactionHistory', async () => {
    const connection = `query ($inventoryItemId: ID, $productMasterId: ID, $locationId: ID) {
      stockTransactions(first: 5, inventoryItemId: $inventoryItemId, productMasterId: $productMasterId, locationId: $locationId) { totalCount edges { node { id } } } }`;
    const history = `query ($inventoryItemId: ID, $productMasterId: ID, $locationId: ID) {
      stockTransactionHistory(inventoryItemId: $inventoryItemId, productMasterId: $productMasterId, locationId: $locationId) { total entries { id } } }`;
    for (const query of [connection, history]) {
      await expectForeignNotFound(['inventoryItemId', 'productMasterId', 'locationId'], (field, id) => graphql(query, { [field]: id }));
    }
    const own = await graphqlData(server, a.key, history, { inventoryItemId: mine.inventoryItemId });
    expect(own.stockTransactionHistory.total).toBe(1);
  });

  it('GraphQL allocationPolicies: locationId and channelId', async () => {
    const query = `query ($locationId: ID, $channelId: ID) { allocationPolicies(locationId: $locationId, channelId: $channelId) { edges { node { id } } } }`;
    await expectForeignNotFound(['locationId', 'channelId'], (field, id) => graphql(query, { [field]: id }));
    expect((await graphqlError(server, a.key, query, { locationId: mine.locationId, channelId: theirs.channelId })).code).toBe('NOT_FOUND');
  });
});
