import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type Tenant } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';
import { addStock } from '../../support/stock.js';
import { startServerWithTwoTenants } from '../../support/two-tenants.js';
import { availableAt, generate, RECS, stockedProduct } from './recommendation-setup.js';
import { expectLedgerBalanced } from '../../support/ledger-balance.js';

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

describe('generate: rules', () => {
  it('uses the forecast: cover under the lead time is a LOW deficit, cover beyond the horizon a surplus', async () => {
    // 10 a day; lead 7 days → 70 needed; horizon 7 + 28 = 35 days → 350.
    const forecast = { forecastQuantity: 70, forecastPeriodDays: 7, leadDays: 7 };
    const { productMasterId, locations } = await stockedProduct(server, a, [
      { min: 0, reorder: 0, max: 0, stock: 500, ...forecast },
      { min: 0, reorder: 0, max: 0, stock: 50, ...forecast },
    ]);
    const { recommendations } = await generate(server, a.key, { productMasterId, unitMargin: 2 });
    // The source keeps 70 (demand over its lead time): 430 to give; the destination's target is 350: needs 300.
    // At risk: 70 − 50 = 20 units before a replenishment could arrive. ROI = 2 × 20 − 1 × 300.
    expect(recommendations).toEqual([
      expect.objectContaining({ sourceLocationId: locations[0], destLocationId: locations[1], quantity: 300, priority: 'LOW', unitsAtRisk: 20, estimatedROI: -260 }),
    ]);
    expect(recommendations[0].reason).toMatch(/5\.0 days of demand, less than its lead time of 7 days/);
  });

  it('splits needs over sources, never takes a source below its reorder point, and ranks HIGH between URGENT and MEDIUM', async () => {
    const { productMasterId, locations } = await stockedProduct(server, a, [
      { min: 5, reorder: 10, max: 20, stock: 40 }, // gives 30
      { min: 5, reorder: 10, max: 20, stock: 25 }, // gives 15
      { min: 10, reorder: 20, max: 40, stock: 5 }, // HIGH, needs 35
      { min: 2, reorder: 10, max: 12, stock: 0 }, // URGENT, needs 12
    ]);
    const [s1, s2, high, urgent] = locations;
    const { recommendations } = await generate(server, a.key, { productMasterId });
    const moves = recommendations.map((r) => [r.sourceLocationId, r.destLocationId, r.quantity, r.priority]);
    expect(moves).toEqual([
      [s1, urgent, 12, 'URGENT'],
      [s1, high, 18, 'HIGH'],
      [s2, high, 15, 'HIGH'],
    ]);
    expect(recommendations.every((r) => r.estimatedROI === null)).toBe(true);
  });

  it('keeps only positive ROI when asked, with the cost of the pair', async () => {
    const { productMasterId, locations } = await stockedProduct(server, a, SHORT_STORES);
    const [wh, s1, s2] = locations;
    const cost = await server.call('PUT', '/api/transfers/costs', { token: a.key, body: { sourceLocationId: wh, destLocationId: s1, costPerUnit: 3 } });
    expect(cost.status).toBe(200);
    expect(cost.body).toMatchObject({ sourceLocationId: wh, destLocationId: s1, costPerUnit: 3 });
    const all = await generate(server, a.key, { productMasterId, unitMargin: 5 });
    expect(all.recommendations.map((r) => [r.destLocationId, r.estimatedROI, r.unitTransferCost])).toEqual([
      [s1, 5 * 20 - 3 * 50, 3],
      [s2, 30, 1],
    ]);
    const positive = await generate(server, a.key, { productMasterId, unitMargin: 5, requirePositiveROI: true });
    expect(positive.recommendations.map((r) => r.destLocationId)).toEqual([s2]);
    const costs = await server.call('GET', `/api/transfers/costs?sourceLocationId=${wh}`, { token: a.key });
    expect(costs.body).toMatchObject({ defaultCostPerUnit: 1, costs: [expect.objectContaining({ destLocationId: s1, costPerUnit: 3 })] });
    expect(costs.body.data).toEqual(costs.body.costs);
  });

  it('with locationId, proposes only moves into or out of it; minStockDifferencePct drops close pairs', async () => {
    const { productMasterId, locations } = await stockedProduct(server, a, SHORT_STORES);
    const [wh, s1, s2] = locations;
    const into = await generate(server, a.key, { productMasterId, locationId: s2 });
    expect(into.recommendations.map((r) => [r.sourceLocationId, r.destLocationId, r.quantity])).toEqual([[wh, s2, 45]]);
    const outOf = await generate(server, a.key, { productMasterId, locationId: wh });
    expect(outOf.recommendations).toHaveLength(2);
    // (300 − 15) ÷ 300 = 0.95 for store 2, 1 for store 1.
    const strict = await generate(server, a.key, { productMasterId, minStockDifferencePct: 0.96 });
    expect(strict.recommendations.map((r) => r.destLocationId)).toEqual([s1]);
  });

  it('counts neither recalled nor expired lots as available: stock only in them gives nothing', async () => {
    const { productMasterId, locations } = await stockedProduct(server, a, [
      { min: 10, reorder: 20, max: 100, stock: 0 },
      { min: 10, reorder: 20, max: 50, stock: 0 },
    ]);
    await addStock(server.app, a.org.id, { productMasterId, locationId: locations[0]!, lotCode: 'RECALLED', recalled: true }, { ON_HAND: 200 });
    await addStock(server.app, a.org.id, { productMasterId, locationId: locations[0]!, lotCode: 'OLD', expiryDate: '2020-01-01' }, { ON_HAND: 200 });
    expect((await generate(server, a.key, { productMasterId })).recommendations).toEqual([]);
    await addStock(server.app, a.org.id, { productMasterId, locationId: locations[0]!, lotCode: 'GOOD', expiryDate: '2099-01-01' }, { ON_HAND: 130 });
    // 130 usable: above the maximum of 100, gives 130 − 20 = 110; the store needs 50.
    expect((await generate(server, a.key, { productMasterId })).recommendations.map((r) => r.quantity)).toEqual([50]);
  });

  it('answers 400 with details for out-of-bounds and unknown input', async () => {
    const cases: [Record<string, unknown>, string[]][] = [
      [{ minStockDifferencePct: -0.1 }, ['minStockDifferencePct']],
      [{ minStockDifferencePct: 1.01 }, ['minStockDifferencePct']],
      [{ unitMargin: 0 }, ['unitMargin']],
      [{ unitMargin: -2 }, ['unitMargin']],
      [{ unitMargin: 'lots' }, ['unitMargin']],
      [{ requirePositiveROI: true }, ['unitMargin']],
      [{ requirePositiveROI: 'yes' }, ['requirePositiveROI']],
      [{ locationId: 'nope' }, ['locationId']],
      [{ productMasterId: 'nope' }, ['productMasterId']],
      [{ locationId: b.warehouse.id }, ['locationId']],
      [{ surprise: 1 }, ['surprise']],
    ];
    for (const [body, fields] of cases) {
      const res = await server.call('POST', RECS, { token: a.key, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.body.details), JSON.stringify(body)).toEqual(fields);
    }
    const badCost = await server.call('PUT', '/api/transfers/costs', { token: a.key, body: { sourceLocationId: a.warehouse.id, destLocationId: b.warehouse.id, costPerUnit: -1 } });
    expect(badCost.status).toBe(400);
    expect(Object.keys(badCost.body.details)).toEqual(['costPerUnit']);
    const foreignCost = await server.call('PUT', '/api/transfers/costs', { token: a.key, body: { sourceLocationId: a.warehouse.id, destLocationId: b.warehouse.id, costPerUnit: 1 } });
    expect(foreignCost.body.details).toEqual({ destLocationId: ['Location not found'] });
  });
});

describe('list', () => {
  it('filters by every documented field, in any case for status, pages with limit/offset and answers both shapes', async () => {
    const t = await createTenant(server.app.prisma);
    const { productMasterId, locations } = await stockedProduct(server, t, SHORT_STORES);
    const [wh, s1, s2] = locations;
    const { recommendations } = await generate(server, t.key, {});
    const [urgent, medium] = recommendations;
    await server.call('POST', `${RECS}/${medium.id}/approve`, { token: t.key, body: {} });
    const ids = async (query: string) => {
      const res = await server.call('GET', `${RECS}${query}`, { token: t.key });
      expect(res.status, `${query}: ${JSON.stringify(res.body)}`).toBe(200);
      expect(res.body.data).toEqual(res.body.recommendations);
      return res.body.recommendations.map((r: { id: string }) => r.id);
    };
    expect(await ids('')).toEqual([urgent.id, medium.id]);
    expect(await ids('?status=pending')).toEqual([urgent.id]);
    expect(await ids('?status=Approved')).toEqual([medium.id]);
    expect(await ids('?status=APPROVED')).toEqual([medium.id]);
    expect(await ids('?status=executed')).toEqual([]);
    expect(await ids('?priority=urgent')).toEqual([urgent.id]);
    expect(await ids(`?productMasterId=${productMasterId}&sourceLocationId=${wh}`)).toEqual([urgent.id, medium.id]);
    expect(await ids(`?destLocationId=${s2}`)).toEqual([medium.id]);
    expect(await ids(`?destLocationId=${s1}&status=PENDING`)).toEqual([urgent.id]);
    expect(await ids('/pending')).toEqual([urgent.id]);
    expect(await ids(`/pending?destLocationId=${s2}`)).toEqual([]);
    const paged = await server.call('GET', `${RECS}?limit=1&offset=1`, { token: t.key });
    expect(paged.body).toMatchObject({ total: 2, limit: 1, offset: 1 });
    expect(paged.body.recommendations.map((r: { id: string }) => r.id)).toEqual([medium.id]);
    const defaults = await server.call('GET', RECS, { token: t.key });
    expect(defaults.body).toMatchObject({ total: 2, limit: 50, offset: 0 });
    const one = await server.call('GET', `${RECS}/${urgent.id}`, { token: t.key });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: urgent.id, status: 'PENDING', recommendation: { id: urgent.id, quantity: 50 } });

    for (const query of ['?limit=0', '?limit=101', '?offset=-1', '?status=gone', '?priority=soon', '?validOnly=perhaps']) {
      const res = await server.call('GET', `${RECS}${query}`, { token: t.key });
      expect(res.status, query).toBe(400);
      expect(Object.keys(res.body.details)).toHaveLength(1);
    }
    for (const query of ['?productMasterId=nope', `?sourceLocationId=${b.warehouse.id}`, '?destLocationId=nope']) {
      expect((await server.call('GET', `${RECS}${query}`, { token: t.key })).status, query).toBe(404);
    }
  });

  it('validOnly keeps actionable ones whose source still has the quantity today', async () => {
    const t = await createTenant(server.app.prisma);
    const { productMasterId, locations } = await stockedProduct(server, t, SHORT_STORES);
    const { recommendations } = await generate(server, t.key, {});
    const [urgent, medium] = recommendations; // 50 and 45 from the warehouse's 300
    const valid = async () => (await server.call('GET', `${RECS}?validOnly=true`, { token: t.key })).body.recommendations.map((r: { id: string }) => r.id);
    expect(await valid()).toEqual([urgent.id, medium.id]);
    await server.call('POST', `${RECS}/${medium.id}/reject`, { token: t.key, body: { comment: 'no' } });
    expect(await valid()).toEqual([urgent.id]);
    // The warehouse sells down to 40: 50 can no longer be moved.
    await addStock(server.app, t.org.id, { productMasterId, locationId: locations[0]! }, { ON_HAND: -260 });
    expect(await valid()).toEqual([]);
    expect((await server.call('GET', `${RECS}?validOnly=false`, { token: t.key })).body.total).toBe(2);
  });
});

describe('the ledger', () => {
  it('accounts for the quantities of every stock line the file touched', () => expectLedgerBalanced(server.app.prisma));
});
