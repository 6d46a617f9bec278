import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocationFor } from '../../../src/services/admin/admin.js';
import { createProduct, graphqlData } from '../../support/api.js';
import type { Tenant } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';
import { addStock } from '../../support/stock.js';
import { startServerWithTwoTenants } from '../../support/two-tenants.js';
import { RECS } from './recommendation-setup.js';

// A generation answers at most the first 100 recommendations it proposed, with the count of all of them
// and the list that pages the rest, whatever the size of the organization.

const SHOWN = 100;
const STORES = 105;
const PRIORITY = { URGENT: 1, HIGH: 2, MEDIUM: 3, LOW: 4 } as const;

let server: TestServer;
let a: Tenant;
let product: string;

beforeAll(async () => {
  ({ server, a } = await startServerWithTwoTenants());
  product = await createProduct(server, a.key, 'MANY-STORES');
  // The warehouse holds far more than its maximum; each store is empty, below its reorder point.
  await addStock(server.app, a.org.id, { productMasterId: product, locationId: a.warehouse.id }, { ON_HAND: 100_000 });
  const levels = [{ productMasterId: product, locationId: a.warehouse.id, minQuantity: 0, reorderQuantity: 10, maxQuantity: 50 }];
  for (let i = 0; i < STORES; i++) {
    const store = await createLocationFor(server.operator, { organizationId: a.org.id, code: `S${i}`, name: `Store ${i}` });
    // Stores a few units short get lower priorities than empty ones.
    if (i % 3 === 0) await addStock(server.app, a.org.id, { productMasterId: product, locationId: store.id }, { ON_HAND: 15 });
    levels.push({ productMasterId: product, locationId: store.id, minQuantity: 10, reorderQuantity: 20, maxQuantity: 30 });
  }
  await server.app.prisma.inventoryLevel.createMany({ data: levels.map((l) => ({ ...l, organizationId: a.org.id })) });
}, 120_000);
afterAll(() => server?.close());

const page = async (url: string, offset: number) => {
  const res = await server.call('GET', `${url}&limit=100&offset=${offset}`, { token: a.key });
  expect(res.status).toBe(200);
  return res.body as { recommendations: { id: string }[]; total: number };
};

describe('POST /api/transfers/recommendations with more recommendations than a body holds', () => {
  it('answers the first 100, most pressing first, the total and the list that pages them all', async () => {
    const res = await server.call('POST', RECS, { token: a.key, body: {} });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, created: STORES, updated: 0, total: STORES, listUrl: `${RECS}?status=PENDING` });
    const shown = res.body.recommendations as { id: string; priority: keyof typeof PRIORITY; status: string }[];
    expect(shown).toHaveLength(SHOWN);
    const ranks = shown.map((r) => PRIORITY[r.priority]);
    expect(ranks).toEqual([...ranks].sort((x, y) => x - y));
    expect(new Set(ranks).size).toBeGreaterThan(1);
    // The list pages every recommendation proposed, those answered among them.
    const first = await page(res.body.listUrl, 0);
    const second = await page(res.body.listUrl, 100);
    expect(first.total).toBe(STORES);
    const listed = new Set([...first.recommendations, ...second.recommendations].map((r) => r.id));
    expect(listed.size).toBe(STORES);
    expect(shown.every((r) => listed.has(r.id))).toBe(true);

    // Generating again refreshes them all and still answers 100.
    const again = await server.call('POST', RECS, { token: a.key, body: { productMasterId: product } });
    expect(again.body).toMatchObject({ created: 0, updated: STORES, total: STORES, listUrl: `${RECS}?status=PENDING&productMasterId=${product}` });
    expect(again.body.recommendations).toHaveLength(SHOWN);
  });

  it('bounds the GraphQL mutation likewise, with the total', async () => {
    const data = await graphqlData(server, a.key, `mutation { generateTransferRecommendations(input: {}) { ... on TransferRecommendationGeneration { created updated total recommendations { id } } } }`);
    expect(data.generateTransferRecommendations).toMatchObject({ created: 0, updated: STORES, total: STORES });
    expect(data.generateTransferRecommendations.recommendations).toHaveLength(SHOWN);
  });
});
