import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, systemContext } from '../../../src/context.js';
import { createLocationFor } from '../../../src/services/admin/admin.js';
import { applyStockChange } from '../../../src/services/inventory/ledger/stock-ledger.js';
import { createTenant, type Tenant } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';
import { addStock } from '../../support/stock.js';
import { startServerWithTwoTenants } from '../../support/two-tenants.js';
import { inTransaction } from '../../../src/db/transactions.js';

let server: TestServer;
let a: Tenant;
let b: Tenant;
let c: Tenant;
let wh2: { id: string };
let food: string;
let tools: string;
let n = 0;

const DAY = 24 * 60 * 60 * 1000;
const isoDay = (offsetDays: number) => new Date(Date.now() + offsetDays * DAY).toISOString().slice(0, 10);

async function product(token: string, body: { unitCost?: number; categoryId?: string }) {
  const res = await server.call('POST', '/api/products', { token, body: { sku: `AN-${n++}`, name: `Analytics ${n}`, ...body } });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

async function category(token: string, name: string) {
  const res = await server.graphql('mutation ($name: String!) { createCategory(input: { name: $name }) { ... on Category { id } } }', { name }, token);
  return res.body.data.createCategory.id as string;
}

/** Test set-up only: signed ON_HAND changes through the guarded change function (outbound when negative). */
async function move(app: App, organizationId: string, changes: { stockLineId: string; delta: number }[], transactionType = 'ADJUSTMENT') {
  const org = await app.prisma.organization.findUniqueOrThrow({ where: { id: organizationId } });
  const ctx = systemContext(app, { organization: org, actor: { type: 'apiKey', id: 'test-setup', scopes: ['*'] }, origin: '127.0.0.1' });
  await inTransaction(ctx, async (ctx) => {
    for (const change of changes) await applyStockChange(ctx, { stockLineId: change.stockLineId, deltas: { ON_HAND: change.delta }, transactionType });
  });
}

const analytics = (token: string, query = '') => server.call('GET', `/api/inventory/analytics${query}`, { token });

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants());
  c = await createTenant(server.app.prisma);
  wh2 = await createLocationFor(server.operator, { organizationId: a.org.id, code: 'WH2', name: 'Second' });
  food = await category(a.key, 'Food');
  tools = await category(a.key, 'Tools');
  const app = server.app;
  const p1 = await product(a.key, { unitCost: 2.5, categoryId: food });
  const p2 = await product(a.key, { unitCost: 10, categoryId: tools });
  const p3 = await product(a.key, {});
  const p4 = await product(a.key, { unitCost: 1, categoryId: food });

  // P1 at WH1: 100 in, 40 out -> 60.
  const l1 = await addStock(app, a.org.id, { productMasterId: p1, locationId: a.warehouse.id }, { ON_HAND: 100 });
  await move(app, a.org.id, [{ stockLineId: l1.id, delta: -40 }]);
  // P2 at WH1: 20 in a lot expiring in 10 days and 1 in a lot without expiry; 2 moved between the lots
  // (a lot correction, not outbound): 18 + 3.
  const l2 = await addStock(app, a.org.id, { productMasterId: p2, locationId: a.warehouse.id, lotCode: 'SOON', expiryDate: isoDay(10) }, { ON_HAND: 20 });
  const l2b = await addStock(app, a.org.id, { productMasterId: p2, locationId: a.warehouse.id, lotCode: 'NOEXP' }, { ON_HAND: 1 });
  await move(app, a.org.id, [{ stockLineId: l2.id, delta: -2 }, { stockLineId: l2b.id, delta: 2 }], 'LOT_CORRECTION');
  // P2 at WH2: 5 in a lot expiring in 40 days.
  await addStock(app, a.org.id, { productMasterId: p2, locationId: wh2.id, lotCode: 'LATER', expiryDate: isoDay(40) }, { ON_HAND: 5 });
  // P3 (no cost, no category) at WH2: 8 in an expired lot, 3 out -> 5.
  const l3 = await addStock(app, a.org.id, { productMasterId: p3, locationId: wh2.id, lotCode: 'OLD', expiryDate: isoDay(-1) }, { ON_HAND: 8 });
  await move(app, a.org.id, [{ stockLineId: l3.id, delta: -3 }]);
  // P4 at WH1: 10 in, 10 out -> 0.
  const l4 = await addStock(app, a.org.id, { productMasterId: p4, locationId: a.warehouse.id, lotCode: 'GONE', expiryDate: isoDay(5) }, { ON_HAND: 10 });
  await move(app, a.org.id, [{ stockLineId: l4.id, delta: -10 }]);

  // Organization B has stock and movements of its own that must not show up in A's figures.
  const q = await product(b.key, { unitCost: 100 });
  const lb = await addStock(app, b.org.id, { productMasterId: q, locationId: b.warehouse.id, lotCode: 'B1', expiryDate: isoDay(3) }, { ON_HAND: 1000 });
  await move(app, b.org.id, [{ stockLineId: lb.id, delta: -500 }]);
});
afterAll(() => server?.close());

describe('GET /api/inventory/analytics', () => {
  it('computes the documented figures for the last 30 days', async () => {
    const res = await analytics(a.key);
    expect(res.status).toBe(200);
    // P1 60 + P2 (18 + 3 at WH1, 5 at WH2) + P3 5 + P4 0 = 91 units. Outbound 40 + 3 + 10 = 53 (the lot correction is not).
    // All movements are in the period: on hand at its start 0, at its end 91, average 45.5; turnover 53 / 45.5.
    const turnover = 53 / 45.5;
    expect(res.body).toEqual({
      analytics: {
        totalUnits: 91,
        totalValue: 60 * 2.5 + 26 * 10,
        turnoverRate: Math.round(turnover * 1e4) / 1e4,
        averageDaysOnHand: Math.round((30 / turnover) * 100) / 100,
        // P2 at WH1 (only a lot correction) and P2 at WH2; P4 has nothing on hand.
        slowMovingItems: 2,
        // The SOON lot line (18 units); the expired, the 40-day and the empty lot lines are not.
        expiringItems: 1,
        // No inventory transfer is on the way.
        inTransitUnits: 0,
        inTransitValue: 0,
        byCategory: [
          { categoryId: tools, categoryName: 'Tools', value: 260, units: 26 },
          { categoryId: food, categoryName: 'Food', value: 150, units: 60 },
          { categoryId: null, categoryName: null, value: 0, units: 5 },
        ],
      },
      period: { from: expect.any(String), to: expect.any(String) },
    });
    const { from, to } = res.body.period;
    expect(new Date(to).getTime() - new Date(from).getTime()).toBe(30 * DAY);
  });

  it('limits the figures to a location', async () => {
    const res = await analytics(a.key, `?locationId=${wh2.id}`);
    expect(res.status).toBe(200);
    // WH2: P2 5 + P3 5; outbound 3; on hand 0 at the start, 10 at the end: turnover 3 / 5.
    expect(res.body.analytics).toEqual({
      totalUnits: 10,
      totalValue: 50,
      turnoverRate: 0.6,
      averageDaysOnHand: 50,
      slowMovingItems: 1,
      expiringItems: 0,
      inTransitUnits: 0,
      inTransitValue: 0,
      byCategory: [
        { categoryId: tools, categoryName: 'Tools', value: 50, units: 5 },
        { categoryId: null, categoryName: null, value: 0, units: 5 },
      ],
    });
  });

  it('limits the figures to a category', async () => {
    const res = await analytics(a.key, `?categoryId=${food}`);
    expect(res.status).toBe(200);
    // Food: P1 60 + P4 0; outbound 50; on hand 0 at the start, 60 at the end: turnover 50 / 30.
    expect(res.body.analytics).toEqual({
      totalUnits: 60,
      totalValue: 150,
      turnoverRate: Math.round((50 / 30) * 1e4) / 1e4,
      averageDaysOnHand: 18,
      slowMovingItems: 0,
      expiringItems: 0,
      inTransitUnits: 0,
      inTransitValue: 0,
      byCategory: [{ categoryId: food, categoryName: 'Food', value: 150, units: 60 }],
    });
  });

  it('reconstructs on hand at both ends of a past period from the ledger', async () => {
    const p = await product(c.key, { unitCost: 1 });
    const app = server.app;
    const recent = { organizationId: c.org.id, createdAt: { gt: new Date('2025-06-01') } };
    const at = (iso: string) => app.prisma.stockTransaction.updateMany({ where: recent, data: { createdAt: new Date(iso) } });
    const line = await addStock(app, c.org.id, { productMasterId: p, locationId: c.warehouse.id }, { ON_HAND: 100 });
    await at('2025-01-01T00:00:00Z');
    await move(app, c.org.id, [{ stockLineId: line.id, delta: -30 }]);
    await at('2025-01-10T00:00:00Z');
    await move(app, c.org.id, [{ stockLineId: line.id, delta: -20 }]);
    await at('2025-01-20T00:00:00Z');
    await move(app, c.org.id, [{ stockLineId: line.id, delta: 50 }]);
    await at('2025-02-05T00:00:00Z');

    // 100 on hand on 5 January, 50 at the end of 31 January (the +50 came later); 50 went out.
    const january = await analytics(c.key, '?fromDate=2025-01-05&toDate=2025-01-31');
    expect(january.status).toBe(200);
    expect(january.body.period).toEqual({ from: '2025-01-05T00:00:00.000Z', to: '2025-01-31T23:59:59.999Z' });
    const days = (Date.parse('2025-01-31T23:59:59.999Z') - Date.parse('2025-01-05T00:00:00Z')) / DAY;
    expect(january.body.analytics).toMatchObject({
      totalUnits: 100,
      totalValue: 100,
      turnoverRate: 0.6667,
      averageDaysOnHand: Math.round((days / (50 / 75)) * 100) / 100,
      slowMovingItems: 0,
    });

    const quiet = await analytics(c.key, '?fromDate=2025-01-21T00:00:00Z&toDate=2025-02-01T00:00:00.000Z');
    expect(quiet.body.analytics).toMatchObject({ turnoverRate: 0, averageDaysOnHand: null, slowMovingItems: 1 });
    expect(quiet.body.period).toEqual({ from: '2025-01-21T00:00:00.000Z', to: '2025-02-01T00:00:00.000Z' });

    const before = await analytics(c.key, '?fromDate=2024-12-01&toDate=2024-12-31');
    expect(before.body.analytics).toMatchObject({ totalUnits: 100, turnoverRate: 0, averageDaysOnHand: null, slowMovingItems: 1 });

    // Only toDate: the period is the 30 days before it.
    const onlyTo = await analytics(c.key, '?toDate=2025-01-31T00:00:00Z');
    expect(onlyTo.body.period).toEqual({ from: '2025-01-01T00:00:00.000Z', to: '2025-01-31T00:00:00.000Z' });
    expect(onlyTo.body.analytics.turnoverRate).toBeGreaterThan(0);
  });

  it('answers 400 for bad dates', async () => {
    for (const [query, field] of [['?fromDate=yesterday', 'fromDate'], ['?toDate=2025-13-45', 'toDate'], ['?toDate=2025-02-30', 'toDate'], ['?fromDate=2025-04-31T10:00:00Z', 'fromDate'], ['?fromDate=2025-02-01&toDate=2025-01-01', 'fromDate']]) {
      const res = await analytics(a.key, query);
      expect(res.status, query).toBe(400);
      expect(res.body.details[field!], query).toBeDefined();
    }
  });

  it('answers 404 for an unknown or foreign location or category', async () => {
    const bCategory = await category(b.key, 'Theirs');
    for (const query of [`?locationId=${b.warehouse.id}`, '?locationId=nope', `?categoryId=${bCategory}`, '?categoryId=nope']) {
      const res = await analytics(a.key, query);
      expect(res.status, query).toBe(404);
      expect(res.body.code).toBe('NOT_FOUND');
    }
  });

  it('shows each organization only its own stock', async () => {
    const res = await analytics(b.key);
    expect(res.body.analytics).toMatchObject({ totalUnits: 500, totalValue: 50000, slowMovingItems: 0, expiringItems: 1 });
    const empty = await analytics(await createTenant(server.app.prisma).then((t) => t.key));
    expect(empty.body.analytics).toEqual({
      totalUnits: 0, totalValue: 0, turnoverRate: 0, averageDaysOnHand: null, slowMovingItems: 0, expiringItems: 0, inTransitUnits: 0, inTransitValue: 0, byCategory: [],
    });
  });

  it('needs credentials and inventory.read, and runs a fixed number of queries', async () => {
    expect((await analytics('')).status).toBe(401);
    const forecast = await analytics(await a.keyWith(['forecast:read']));
    expect(forecast.status).toBe(403);
    expect(forecast.body.code).toBe('INSUFFICIENT_SCOPE');
    const reader = await a.keyWith(['inventory:read']);
    server.queries.length = 0;
    expect((await analytics(reader, `?locationId=${a.warehouse.id}&categoryId=${food}`)).status).toBe(200);
    expect(server.queries.length).toBeLessThanOrEqual(8);
  });
});

describe('GraphQL inventoryAnalytics', () => {
  it('answers the same figures', async () => {
    const query = `query ($l: ID) { inventoryAnalytics(locationId: $l) {
      analytics { totalUnits totalValue turnoverRate averageDaysOnHand slowMovingItems expiringItems byCategory { categoryName units } }
      period { from to } } }`;
    const res = await server.graphql(query, { l: wh2.id }, a.key);
    expect(res.body.data.inventoryAnalytics.analytics).toEqual({
      totalUnits: 10, totalValue: 50, turnoverRate: 0.6, averageDaysOnHand: 50, slowMovingItems: 1, expiringItems: 0,
      byCategory: [{ categoryName: 'Tools', units: 5 }, { categoryName: null, units: 5 }],
    });
    const foreign = await server.graphql(query, { l: wh2.id }, b.key);
    expect(foreign.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });
});
