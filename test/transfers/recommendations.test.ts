import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tenant } from '../support/fixtures.js';
import type { TestServer } from '../support/server.js';
import { addStock } from '../support/stock.js';
import { startServerWithTwoTenants } from '../support/two-tenants.js';
import { availableAt, generate, RECS, stockedProduct } from './recommendation-setup.js';

let server: TestServer;
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants());
});
afterAll(() => server?.close());

/** Warehouse above max; store 1 out of stock; store 2 below its reorder point. */
const SHORT_STORES = [
  { min: 10, reorder: 20, max: 100, stock: 300 },
  { min: 10, reorder: 20, max: 50, stock: 0 },
  { min: 10, reorder: 30, max: 60, stock: 15 },
];

describe('generate', () => {
  it('proposes moves from surplus to deficit with priority, reason and ROI, and refreshes them instead of duplicating', async () => {
    const { productMasterId, locations } = await stockedProduct(server, a, SHORT_STORES);
    const [wh, s1, s2] = locations;
    const first = await generate(server, a.key, { productMasterId, unitMargin: 5 });
    expect(first).toMatchObject({ success: true, created: 2, updated: 0 });
    expect(first.recommendations).toEqual([
      expect.objectContaining({ productMasterId, sourceLocationId: wh, destLocationId: s1, quantity: 50, priority: 'URGENT', status: 'PENDING', estimatedROI: 50, unitsAtRisk: 20, unitTransferCost: 1 }),
      expect.objectContaining({ productMasterId, sourceLocationId: wh, destLocationId: s2, quantity: 45, priority: 'MEDIUM', status: 'PENDING', estimatedROI: 30, unitsAtRisk: 15 }),
    ]);
    expect(first.recommendations[0].reason).toMatch(/out of stock/);
    expect(first.recommendations[1].reason).toMatch(/below its reorder point of 30/);

    const again = await generate(server, a.key, { productMasterId, unitMargin: 5 });
    expect(again).toMatchObject({ created: 0, updated: 2 });
    expect(again.recommendations.map((r) => r.id)).toEqual(first.recommendations.map((r) => r.id));
    const list = await server.call('GET', `${RECS}?productMasterId=${productMasterId}`, { token: a.key });
    expect(list.body.total).toBe(2);
    expect(await availableAt(server, productMasterId, wh!)).toBe(300);
  });
});
