import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlData, graphqlError } from '../../support/api.js';
import { dayAfter, insertWeeklyDemand } from '../../support/demand-history.js';
import type { Tenant } from '../../support/fixtures.js';
import { day, planningData, setupActor, thisMonday, today as todayUtc } from '../../support/planning.js';
import type { TestServer } from '../../support/server.js';
import { startServerWithTwoTenants } from '../../support/two-tenants.js';

// stockProjection: the points of the curve, the crossings and days of cover, and which events count.
let server: TestServer;
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants());
});
afterAll(() => server?.close());

const QUERY = `query ($loc: ID!, $ids: [ID!], $horizon: Int) { stockProjection(locationId: $loc, productMasterIds: $ids, horizonDays: $horizon) {
  productMasterId startQuantity inboundQuantity outboundQuantity demandRate demandSource leadTimeDays leadTimeSource reviewPeriodDays horizonDays
  reorderCrossingDate minCrossingDate stockOutDate daysOfCover points { day date quantity } product { sku } } }`;

type Rec = Record<string, any>;

describe('stock projection', () => {
  const today = todayUtc();
  let loc: { id: string };
  const ids = {} as Record<'H' | 'E2' | 'T' | 'A' | 'N', string>;

  beforeAll(async () => {
    const data = planningData(server);
    const organizationId = a.org.id;
    loc = await data.place('PROJ', a);
    const other = await data.place('PROJ-OTHER', a);
    // 10 a day from history, 100 on hand.
    ids.H = await data.product('PJ-H', loc.id, { min: 20, reorder: 50, max: 200, lead: 7 }, 100, a);
    await insertWeeklyDemand(server.app.prisma, { organizationId, productMasterId: ids.H, locationId: loc.id, firstWeek: dayAfter(thisMonday(), -56), values: Array(8).fill(70) });
    // 2 a day, 20 on hand, 50 arriving on day 3 (APPROVED); a PENDING order is not counted.
    ids.E2 = await data.product('PJ-E2', loc.id, { reorder: 10, max: 10, lead: 10, review: 10, planner: [14, 7] }, 20, a);
    await data.purchaseOrder(a, loc.id, ids.E2, 50, { expectedAt: day(3), status: 'APPROVED' });
    await data.purchaseOrder(a, loc.id, ids.E2, 500, { status: 'PENDING', expectedAt: day(1) });
    // Nothing on hand, 40 in transit arriving on day 2, 1 a day.
    ids.T = await data.product('PJ-T', loc.id, { reorder: 10, max: 10, lead: 3, review: 7, planner: [7, 7] }, 0, a);
    const transfer = await server.app.prisma.inventoryTransfer.create({
      data: { organizationId, sourceLocationId: other.id, destLocationId: loc.id, status: 'IN_TRANSIT', expectedAt: new Date(`${day(2)}T00:00:00Z`), ...setupActor },
    });
    await server.app.prisma.inventoryTransferLine.create({ data: { transferId: transfer.id, lineNumber: 1, productMasterId: ids.T, quantity: 40, shippedQuantity: 40, receivedQuantity: 5 } });
    // Approved transfer recommendations: 15 in, 6 out; a pending one in is not counted. No demand.
    ids.A = await data.product('PJ-A', loc.id, { reorder: 10, max: 30, lead: 2, review: 5 }, 12, a);
    const rec = { organizationId, productMasterId: ids.A, priority: 'HIGH' as const, reason: 'test', unitTransferCost: 0, unitsAtRisk: 0, expiresAt: new Date(Date.now() + 86_400_000), ...setupActor };
    await server.app.prisma.transferRecommendation.createMany({
      data: [
        { ...rec, sourceLocationId: other.id, destLocationId: loc.id, quantity: 15, status: 'APPROVED' },
        { ...rec, sourceLocationId: loc.id, destLocationId: other.id, quantity: 6, status: 'APPROVED' },
        { ...rec, sourceLocationId: other.id, destLocationId: loc.id, quantity: 99, status: 'PENDING' },
      ],
    });
    // A product without a level at the location, asked for by id.
    ids.N = await data.product('PJ-N', other.id, {}, 0, a);
  });

  it('projects a history-driven product: weekly points, reorder, minimum and zero crossings, days of cover', async () => {
    const data = await graphqlData(server, a.key, QUERY, { loc: loc.id, ids: [ids.H] });
    const [h] = data.stockProjection;
    expect(h).toMatchObject({
      product: { sku: 'PJ-H' }, startQuantity: 100, inboundQuantity: 0, outboundQuantity: 0, demandRate: 10, demandSource: 'HISTORY',
      leadTimeDays: 7, leadTimeSource: 'LEVEL', reviewPeriodDays: 28, horizonDays: 35,
      reorderCrossingDate: day(5), minCrossingDate: day(8), stockOutDate: day(10), daysOfCover: 10,
    });
    expect(h.points).toEqual([0, 7, 14, 21, 28, 35].map((d) => ({ day: d, date: day(d), quantity: 100 - 10 * d })));
  });

  it('counts open purchase orders and transfers in transit at their dates, within the horizon only', async () => {
    const data = await graphqlData(server, a.key, QUERY, { loc: loc.id, ids: [ids.T, ids.E2] });
    const [e2, t] = data.stockProjection as [Rec, Rec]; // by SKU
    // 20 + 50 on day 3 − 2 a day: below 10 on day 30, beyond the horizon of 20; out on day 35.
    expect(e2).toMatchObject({ inboundQuantity: 50, horizonDays: 20, reorderCrossingDate: null, stockOutDate: null, daysOfCover: 35, demandSource: 'PLANNER' });
    expect(e2.points.map((p: Rec) => [p.day, p.quantity])).toEqual([[0, 20], [7, 56], [14, 42], [20, 30]]);
    // 0 now, 35 more on day 2 (40 shipped, 5 received), 1 a day.
    expect(t).toMatchObject({ startQuantity: 0, inboundQuantity: 35, reorderCrossingDate: today, stockOutDate: today, daysOfCover: 0, horizonDays: 10 });
    expect(t.points.map((p: Rec) => [p.day, p.quantity])).toEqual([[0, 0], [7, 28], [10, 25]]);

    const longer = await graphqlData(server, a.key, QUERY, { loc: loc.id, ids: [ids.E2], horizon: 40 });
    expect(longer.stockProjection[0]).toMatchObject({ reorderCrossingDate: day(30), stockOutDate: day(35), horizonDays: 40 });
  });

  it('counts approved transfer recommendations in and out on day 0; no demand: no stock-out, null days of cover', async () => {
    const data = await graphqlData(server, a.key, QUERY, { loc: loc.id, ids: [ids.A, ids.N] });
    const [pa, pn] = data.stockProjection as [Rec, Rec];
    expect(pa).toMatchObject({ startQuantity: 12, inboundQuantity: 15, outboundQuantity: 6, demandRate: 0, demandSource: null, reorderCrossingDate: null, daysOfCover: null, horizonDays: 7 });
    expect(pa.points.map((p: Rec) => p.quantity)).toEqual([21, 21]);
    expect(pn).toMatchObject({ startQuantity: 0, leadTimeSource: 'DEFAULT', leadTimeDays: 14, horizonDays: 42, daysOfCover: null });
  });

  it('lists the products with a level at the location by SKU when none are named', async () => {
    const data = await graphqlData(server, a.key, QUERY, { loc: loc.id });
    expect(data.stockProjection.map((p: Rec) => p.product.sku)).toEqual(['PJ-A', 'PJ-E2', 'PJ-H', 'PJ-T']);
  });

  it('refuses: another organization location or product NOT_FOUND, a horizon out of range, no planning.read', async () => {
    expect((await graphqlError(server, b.key, QUERY, { loc: loc.id })).code).toBe('NOT_FOUND');
    expect((await graphqlError(server, b.key, QUERY, { loc: b.warehouse.id, ids: [ids.H] })).code).toBe('NOT_FOUND');
    expect((await graphqlError(server, a.key, QUERY, { loc: loc.id, horizon: 366 })).code).toBe('VALIDATION_ERROR');
    expect((await graphqlError(server, a.key, QUERY, { loc: loc.id, horizon: 0 })).code).toBe('VALIDATION_ERROR');
    const viewer = await a.keyWith(['inventory:read']);
    expect((await graphqlError(server, viewer, QUERY, { loc: loc.id })).code).toBe('INSUFFICIENT_SCOPE');
  });
});
