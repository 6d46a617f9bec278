import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocationFor } from '../../../src/services/admin/admin.js';
import { INVALID_QUANTITIES } from '../../../src/services/inventory/levels/levels.js';
import type { Tenant } from '../../support/fixtures.js';
import { runWithPermissions, REFUSAL, refusalOf } from '../../support/graphql.js';
import type { TestServer } from '../../support/server.js';
import { startServerWithTwoTenants } from '../../support/two-tenants.js';
import { graphqlRefusal } from '../../support/api.js';

// Inventory levels through GraphQL (the REST paths are in inventory-levels.test.ts).

let server: TestServer;
let a: Tenant;
let b: Tenant;
let productB: string;
let locationB: string;
let n = 0;

async function newProduct(token: string) {
  const res = await server.call('POST', '/api/products', { token, body: { sku: `LVG-${n++}`, name: `Level product ${n}` } });
  expect(res.status).toBe(201);
  return res.body as { id: string; sku: string; name: string };
}

const newLocation = (organizationId: string) => createLocationFor(server.operator, { organizationId, code: `G${n++}`, name: `Location ${n}` });

const post = (token: string, body: unknown) => server.call('POST', '/api/inventory-levels', { token, body });

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants());
  productB = (await newProduct(b.key)).id;
  locationB = b.warehouse.id;
});
afterAll(() => server?.close());

describe('GraphQL', () => {
  it('lists levels by location and product, only of the caller’s organization', async () => {
    const product = await newProduct(a.key);
    const location = await newLocation(a.org.id);
    const created = await post(a.key, { productMasterId: product.id, locationId: location.id, maxQuantity: 7 });
    await post(b.key, { productMasterId: productB, locationId: locationB, maxQuantity: 1 });
    const query = `query ($locationId: ID, $productMasterId: ID) {
      inventoryLevels(locationId: $locationId, productMasterId: $productMasterId, first: 100) { totalCount edges { node { id maxQuantity location { code } product { sku } } } }
    }`;
    const levels = (res: { body: { data: { inventoryLevels: { edges: { node: any }[] } } } }) => res.body.data.inventoryLevels.edges.map((e) => e.node);
    const byLocation = await server.graphql(query, { locationId: location.id }, a.key);
    expect(byLocation.body.data.inventoryLevels.totalCount).toBe(1);
    expect(levels(byLocation)).toEqual([{ id: created.body.id, maxQuantity: 7, location: { code: location.code }, product: { sku: product.sku } }]);
    const byProduct = await server.graphql(query, { productMasterId: product.id }, a.key);
    expect(levels(byProduct).map((l: { id: string }) => l.id)).toEqual([created.body.id]);
    const all = await server.graphql(query, {}, b.key);
    expect(levels(all).every((l: { product: { sku: string } }) => l.product.sku !== product.sku)).toBe(true);
    expect(levels(all).length).toBeGreaterThan(0);
    for (const vars of [{ locationId: location.id }, { productMasterId: product.id }]) {
      const foreign = await server.graphql(query, vars, b.key);
      expect(foreign.body.errors[0].extensions.code).toBe('NOT_FOUND');
    }
  });

  it('lists levels with a bounded number of queries', async () => {
    const location = await newLocation(a.org.id);
    const query = 'query ($l: ID) { inventoryLevels(locationId: $l) { edges { node { id product { sku } productMaster { globalSku } location { name } } } } }';
    const count = async () => {
      server.queries.length = 0;
      const res = await server.graphql(query, { l: location.id }, a.key);
      expect(res.body.errors).toBeUndefined();
      return { levels: res.body.data.inventoryLevels.edges.length, queries: server.queries.length };
    };
    for (let i = 0; i < 2; i++) await post(a.key, { productMasterId: (await newProduct(a.key)).id, locationId: location.id });
    const two = await count();
    for (let i = 0; i < 8; i++) await post(a.key, { productMasterId: (await newProduct(a.key)).id, locationId: location.id });
    const ten = await count();
    expect([two.levels, ten.levels]).toEqual([2, 10]);
    expect(ten.queries).toBe(two.queries);
  });

  it('exposes Product.inventoryLevels only with inventory.read', async () => {
    const product = await newProduct(a.key);
    await post(a.key, { productMasterId: product.id, locationId: a.warehouse.id, maxQuantity: 4 });
    const query = 'query ($id: ID!) { product(id: $id) { sku inventoryLevels { maxQuantity locationId } } }';
    const res = await server.graphql(query, { id: product.id }, a.key);
    expect(res.body.data.product.inventoryLevels).toEqual([{ maxQuantity: 4, locationId: a.warehouse.id }]);
    const refused = await runWithPermissions(server.app, a.org, ['products.read'], query, { id: product.id });
    expect(refused.errors?.[0]?.extensions?.code).toBe('INSUFFICIENT_SCOPE');
    const foreign = await server.graphql(query, { id: product.id }, b.key);
    expect(foreign.body).toEqual({ data: { product: null } });
  });

  it('upserts, updates and deletes through mutations, and refuses other organizations’ rows', async () => {
    const product = await newProduct(a.key);
    const upsert = `mutation ($input: InventoryLevelInput!) { upsertInventoryLevel(input: $input) { ... on InventoryLevel { id minQuantity maxQuantity abcClass } ${REFUSAL} } }`;
    const created = await server.graphql(upsert, { input: { productMasterId: product.id, locationId: a.warehouse.id, maxQuantity: 9, abcClass: 'C' } }, a.key);
    const id = created.body.data.upsertInventoryLevel.id;
    expect(created.body.data.upsertInventoryLevel).toEqual({ id, minQuantity: 0, maxQuantity: 9, abcClass: 'C' });
    const foreignUpsert = await server.graphql(upsert, { input: { productMasterId: product.id, locationId: locationB } }, b.key);
    expect(refusalOf(foreignUpsert.body.data.upsertInventoryLevel)).toMatchObject({ type: 'NotFoundError', code: 'NOT_FOUND' });

    const update = `mutation ($id: ID!, $input: InventoryLevelUpdateInput!) { updateInventoryLevel(id: $id, input: $input) { ... on InventoryLevel { id minQuantity } ${REFUSAL} } }`;
    const invalid = await server.graphql(update, { id, input: { minQuantity: 10 } }, a.key);
    expect(refusalOf(invalid.body.data.updateInventoryLevel)).toMatchObject({ type: 'ValidationError', message: INVALID_QUANTITIES, code: 'VALIDATION_ERROR' });
    expect((await graphqlRefusal(server, b.key, update, { id, input: { minQuantity: 9 } })).code).toBe('NOT_FOUND');
    expect((await server.graphql(update, { id, input: { minQuantity: 3, reorderQuantity: 5 } }, a.key)).body.data.updateInventoryLevel).toEqual({ id, minQuantity: 3 });

    const remove = `mutation ($id: ID!) { deleteInventoryLevel(id: $id) { ... on InventoryLevelDeleteResult { success message } ${REFUSAL} } }`;
    expect((await graphqlRefusal(server, b.key, remove, { id })).code).toBe('NOT_FOUND');
    expect(await server.app.prisma.inventoryLevel.count({ where: { id } })).toBe(1);
    expect((await server.graphql(remove, { id }, a.key)).body.data.deleteInventoryLevel).toEqual({ success: true, message: 'Inventory level deleted' });
  });
});
