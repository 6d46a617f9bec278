import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

// Paging through a connection with first/after (and back with last/before) reaches every item exactly
// once, in the list's order, and totalCount counts them all: for the lists converted from plain lists
// and a representative older one (products).
let server: TestServer;
let tenant: Tenant;

async function gql(query: string, variables: Record<string, unknown> = {}) {
  const res = await server.graphql(query, variables, tenant.key);
  expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
  return res.body.data;
}

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.app.prisma);
  const locationIds: string[] = [tenant.warehouse.id];
  const channelIds: string[] = [];
  const productIds: string[] = [];
  for (let i = 0; i < 4; i++) {
    locationIds.push((await gql(`mutation { createLocation(input: { code: "PG-${i}", name: "Paging ${i}" }) { ... on Location { id } } }`)).createLocation.id);
    channelIds.push((await gql(`mutation { createChannel(input: { name: "Paging ${i}" }) { ... on Channel { id } } }`)).createChannel.id);
    await gql(`mutation { createCategory(input: { name: "Paging ${i}" }) { ... on Category { id } } }`);
    productIds.push((await gql(`mutation { createProduct(input: { sku: "PG-${i}", name: "Paging ${i}" }) { ... on Product { id } } }`)).createProduct.id);
  }
  for (const productMasterId of productIds.slice(0, 3)) {
    for (const locationId of locationIds.slice(0, 2)) {
      const res = await server.graphql(
        'mutation ($input: InventoryLevelInput!) { upsertInventoryLevel(input: $input) { __typename } }',
        { input: { productMasterId, locationId, maxQuantity: 5 } },
        tenant.key,
      );
      expect(res.body.errors).toBeUndefined();
    }
  }
  for (const channelId of channelIds.slice(0, 3)) {
    for (const locationId of locationIds.slice(0, 2)) {
      const res = await server.graphql(
        'mutation ($input: SetAllocationPolicyInput!) { setAllocationPolicy(input: $input) { __typename } }',
        { input: { channelId, locationId, mode: 'FIXED', fixedQuantity: 1 } },
        tenant.key,
      );
      expect(res.body.errors).toBeUndefined();
    }
  }
});
afterAll(() => server?.close());

const LISTS: Record<string, { node: string; expected: number }> = {
  locations: { node: 'id code', expected: 5 },
  channels: { node: 'id name', expected: 4 },
  categories: { node: 'id name', expected: 4 },
  products: { node: 'id sku', expected: 4 },
  inventoryLevels: { node: 'id', expected: 6 },
  allocationPolicies: { node: 'id', expected: 6 },
};

describe('paging through a connection', () => {
  for (const [field, { node, expected }] of Object.entries(LISTS)) {
    it(`${field}: first/after reaches every item once, last/before the same items backwards`, async () => {
      const whole = (await gql(`{ ${field}(first: 100) { totalCount edges { node { id } } } }`))[field];
      expect(whole.totalCount).toBe(expected);
      const all = whole.edges.map((e: { node: { id: string } }) => e.node.id);
      expect(all).toHaveLength(expected);

      const forward: string[] = [];
      let after: string | null = null;
      for (let pages = 0; pages < 10; pages++) {
        const page: any = (await gql(`query ($after: String) { ${field}(first: 2, after: $after) { totalCount edges { node { ${node} } } pageInfo { hasNextPage endCursor } } }`, { after }))[field];
        expect(page.totalCount).toBe(expected);
        forward.push(...page.edges.map((e: { node: { id: string } }) => e.node.id));
        if (!page.pageInfo.hasNextPage) break;
        after = page.pageInfo.endCursor;
      }
      expect(forward).toEqual(all);

      const backward: string[] = [];
      let before: string | null = null;
      for (let pages = 0; pages < 10; pages++) {
        const page: any = (await gql(`query ($before: String) { ${field}(last: 2, before: $before) { edges { node { id } } pageInfo { hasPreviousPage startCursor } } }`, { before }))[field];
        backward.unshift(...page.edges.map((e: { node: { id: string } }) => e.node.id));
        if (!page.pageInfo.hasPreviousPage) break;
        before = page.pageInfo.startCursor;
      }
      expect(backward).toEqual(all);
    });

    it(`${field}: first 101, first -1 and a garbage after are VALIDATION_ERROR naming the argument`, async () => {
      for (const [args, name] of [['first: 101', 'first'], ['first: -1', 'first'], ['after: "garbage"', 'after']] as const) {
        const res = await server.graphql(`{ ${field}(${args}) { edges { cursor } } }`, {}, tenant.key);
        expect(res.status).toBe(400);
        expect(res.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION_ERROR', details: { [name]: [expect.any(String)] } });
      }
    });
  }
});
