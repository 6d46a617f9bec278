import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemContext } from '../../src/context.js';
import { locationOf, productOf } from '../../src/schema/record-loaders.js';
import { createLocationFor } from '../../src/services/admin/admin.js';
import { createProduct, graphqlData } from '../support/api.js';
import { insertWeeklyDemand } from '../support/demand-history.js';
import type { Tenant } from '../support/fixtures.js';
import { FORECASTING } from '../support/forecasting.js';
import type { TestServer } from '../support/server.js';
import { startServerWithTwoTenants } from '../support/two-tenants.js';
import { generate, stockedProduct } from './recommendations/recommendation-setup.js';

// product / location objects beside productMasterId / locationId: read through per-request loaders, so a
// longer list costs no more SQL queries than a shorter one.
let server: TestServer;
let a: Tenant;
let b: Tenant;
let store: { id: string };
const products: string[] = [];
// A cached key lookup that expires between two counted requests would add a query to one of them.
const EVERY_REQUEST_LOOKS_UP_ITS_KEY = { API_KEY_CACHE_SECONDS: '0' };
const sku = (i: number) => `LNK-${i}`;

const counted = async <T>(run: () => Promise<T>) => {
  server.queries.length = 0;
  const data = await run();
  return { queries: server.queries.length, data };
};

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants(EVERY_REQUEST_LOOKS_UP_ITS_KEY, { capabilities: [FORECASTING] }));
  store = await createLocationFor(server.operator, { organizationId: a.org.id, code: 'ST1', name: 'Store' });
  for (let i = 0; i < 8; i++) {
    const id = await createProduct(server, a.key, sku(i));
    products.push(id);
    await insertWeeklyDemand(server.app.prisma, { organizationId: a.org.id, productMasterId: id, locationId: a.warehouse.id, firstWeek: '2024-01-01', values: Array(20).fill(10 + i) });
  }
  for (let t = 0; t < 4; t++) {
    const lines = [0, 1].map((j) => ({ productMasterId: products[2 * t + j], quantity: 1 + j }));
    await graphqlData(server, a.key, `mutation ($input: InventoryTransferCreateInput!) { createInventoryTransfer(input: $input) { ... on InventoryTransfer { id } } }`, {
      input: { sourceLocationId: a.warehouse.id, destLocationId: store.id, lines },
    });
  }
  for (let i = 0; i < 3; i++) {
    const { productMasterId } = await stockedProduct(server, a, [
      { min: 10, reorder: 20, max: 100, stock: 300 },
      { min: 10, reorder: 20, max: 50, stock: 0 },
    ]);
    await generate(server, a.key, { productMasterId });
  }
});
afterAll(() => server?.close());

describe('product and location links', () => {
  it('demandForecast series name their product and location, at the same query count for 2 and 8 series', async () => {
    const query = `query ($limit: Int) { demandForecast(horizon: 2, first: $limit) { edges { node { productMasterId locationId product { id sku } location { id code } } } } }`;
    type Series = { productMasterId: string; locationId: string; product: { id: string; sku: string }; location: { id: string; code: string } };
    const run = (limit: number) => graphqlData(server, a.key, query, { limit }) as Promise<{ demandForecast: { edges: { node: Series }[] } }>;
    const two = await counted(() => run(2));
    const eight = await counted(() => run(8));
    expect(two.data.demandForecast.edges).toHaveLength(2);
    expect(eight.data.demandForecast.edges).toHaveLength(8);
    for (const { node: series } of eight.data.demandForecast.edges) {
      expect(series.product.id).toBe(series.productMasterId);
      expect(series.product.sku).toBe(sku(products.indexOf(series.productMasterId)));
      expect(series.location).toEqual({ id: a.warehouse.id, code: 'WH1' });
    }
    expect(eight.queries).toBe(two.queries);
  });

  it('inventory transfers and their lines name their locations and products, at the same query count for 1 and 4 transfers', async () => {
    const query = `query ($limit: Int) { inventoryTransfersPage(limit: $limit) { transfers {
      sourceLocationId sourceLocation { id code } destLocationId destLocation { id code } lines { productMasterId product { id sku } } } } }`;
    type Transfer = { sourceLocation: { id: string; code: string }; destLocation: { id: string; code: string }; lines: { productMasterId: string; product: { id: string; sku: string } }[] };
    const run = (limit: number) => graphqlData(server, a.key, query, { limit }) as Promise<{ inventoryTransfersPage: { transfers: Transfer[] } }>;
    const one = await counted(() => run(1));
    const four = await counted(() => run(4));
    expect(four.data.inventoryTransfersPage.transfers).toHaveLength(4);
    for (const transfer of four.data.inventoryTransfersPage.transfers) {
      expect(transfer.sourceLocation).toEqual({ id: a.warehouse.id, code: 'WH1' });
      expect(transfer.destLocation).toEqual({ id: store.id, code: 'ST1' });
      for (const line of transfer.lines) expect(line.product).toEqual({ id: line.productMasterId, sku: sku(products.indexOf(line.productMasterId)) });
    }
    expect(four.queries).toBe(one.queries);
  });

  it('transfer recommendations name their product and locations, at the same query count for 1 and 3', async () => {
    const query = `query ($limit: Int) { transferRecommendationsPage(limit: $limit) { recommendations {
      productMasterId product { id } sourceLocationId sourceLocation { id code } destLocationId destLocation { id name } } } }`;
    const run = (limit: number) => graphqlData(server, a.key, query, { limit }) as Promise<{ transferRecommendationsPage: { recommendations: any[] } }>;
    const one = await counted(() => run(1));
    const three = await counted(() => run(3));
    expect(three.data.transferRecommendationsPage.recommendations).toHaveLength(3);
    for (const rec of three.data.transferRecommendationsPage.recommendations) {
      expect(rec.product.id).toBe(rec.productMasterId);
      expect(rec.sourceLocation).toEqual({ id: rec.sourceLocationId, code: 'WH1' });
      expect(rec.destLocation).toMatchObject({ id: rec.destLocationId, name: 'Store 1' });
    }
    expect(three.queries).toBe(one.queries);
  });

  it('the loaders never return another organization’s product or location', async () => {
    const theirProduct = await createProduct(server, b.key, 'LNK-THEIRS');
    const ctx = systemContext(server.app, { organization: a.org, actor: { type: 'apiKey', id: 'test', scopes: ['*'] }, origin: '127.0.0.1' });
    expect(await Promise.all([productOf(ctx, theirProduct), productOf(ctx, products[0])])).toEqual([null, expect.objectContaining({ id: products[0] })]);
    expect(await Promise.all([locationOf(ctx, b.warehouse.id), locationOf(ctx, store.id)])).toEqual([null, expect.objectContaining({ id: store.id })]);
  });
});
