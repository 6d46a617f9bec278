import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlData } from '../../support/api.js';
import { dayAfter, insertWeeklyDemand } from '../../support/demand-history.js';
import type { Tenant } from '../../support/fixtures.js';
import { day, type Level, planningData, setupActor as actor, thisMonday, today as todayUtc } from '../../support/planning.js';
import type { TestServer } from '../../support/server.js';
import { addStock } from '../../support/stock.js';
import { startServerWithTwoTenants } from '../../support/two-tenants.js';

// The planning projection and GET /api/planning/recommendations on crafted data: each demand source, inbound and
// outbound events, the crossings and days of cover, and each action (ORDER, MOVE, EXPEDITE).
let server: TestServer;
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants());
});
afterAll(() => server?.close());

const recommendations = (locationId: string, token = a.key) => server.call('GET', `/api/planning/recommendations?locationId=${locationId}`, { token });
const data = () => planningData(server);
const place = (tag: string, tenant = a) => data().place(tag, tenant);
const product = (tag: string, locationId: string, level: Level, stock = 0, tenant = a) => data().product(tag, locationId, level, stock, tenant);
type PoOptions = Parameters<ReturnType<typeof planningData>['purchaseOrder']>[4];
const purchaseOrder = (locationId: string, productMasterId: string, quantity: number, options?: PoOptions) => data().purchaseOrder(a, locationId, productMasterId, quantity, options);
const db = () => server.app.prisma;
const today = todayUtc();

type Rec = Record<string, any>;
const byProduct = (rows: Rec[], id: string) => rows.find((row) => row.productMasterId === id) as Rec;

describe('planning recommendations', () => {
  let loc: { id: string };
  let other: { id: string };
  const ids = {} as Record<'H' | 'L' | 'F' | 'P' | 'E' | 'E2' | 'T' | 'M' | 'B' | 'R' | 'Z', string>;
  let rows: Rec[];
  let expedited: Awaited<ReturnType<typeof purchaseOrder>>;
  let planned: Awaited<ReturnType<typeof purchaseOrder>>;
  let pending: { id: string };

  beforeAll(async () => {
    loc = await place('MAIN');
    other = await place('SPARE');
    const organizationId = a.org.id;
    // History only: 8 complete weeks of 70 a week, 10 a day.
    ids.H = await product('PR-H', loc.id, { min: 20, reorder: 50, max: 200, lead: 7 }, 100);
    await insertWeeklyDemand(db(), { organizationId, productMasterId: ids.H, locationId: loc.id, firstWeek: dayAfter(thisMonday(), -56), values: [70, 70, 70, 70, 70, 70, 70, 70] });
    // Ledger only: 112 units out as demand in the last 56 days, 2 a day; 38 left.
    ids.L = await product('PR-L', loc.id, { reorder: 40, max: 100 }, 150);
    await data().takeStock(ids.L, loc.id, 112, a);
    // Forecast of record (35 a week, 5 a day) over a history of 10 a day.
    ids.F = await product('PR-F', loc.id, { reorder: 30, max: 100, lead: 4 }, 60);
    await insertWeeklyDemand(db(), { organizationId, productMasterId: ids.F, locationId: loc.id, firstWeek: dayAfter(thisMonday(), -56), values: [70, 70, 70, 70, 70, 70, 70, 70] });
    // Planner's number (30 in 10 days, 3 a day) over a forecast; lead time from the supplier of its latest purchase order (received).
    ids.P = await product('PR-P', loc.id, { reorder: 9, max: 50, planner: [30, 10] }, 30);
    planned = await purchaseOrder(loc.id, ids.P, 10, { status: 'RECEIVED', received: 10, leadTimeDays: 5 });
    await data().forecastOfRecord(a, [
      { productMasterId: ids.F, locationId: loc.id, weekly: [35, 35, 35, 35] },
      { productMasterId: ids.P, locationId: loc.id, weekly: [700, 700, 700, 700] },
    ]);
    // An open purchase order after the stock-out (day 10): EXPEDITE. One before it (day 3): covered.
    ids.E = await product('PR-E', loc.id, { reorder: 10, max: 10, lead: 10, review: 20, planner: [14, 7] }, 20);
    expedited = await purchaseOrder(loc.id, ids.E, 50, { expectedAt: day(15) });
    ids.E2 = await product('PR-E2', loc.id, { reorder: 10, max: 10, lead: 10, review: 10, planner: [14, 7] }, 20);
    await purchaseOrder(loc.id, ids.E2, 50, { expectedAt: day(3), status: 'APPROVED' });
    await purchaseOrder(loc.id, ids.E2, 500, { status: 'PENDING', expectedAt: day(1) });
    // Out of stock, 40 in transit arriving on day 2: nothing to do.
    ids.T = await product('PR-T', loc.id, { reorder: 10, max: 10, lead: 3, review: 7, planner: [7, 7] });
    const transfer = await db().inventoryTransfer.create({
      data: { organizationId, sourceLocationId: other.id, destLocationId: loc.id, status: 'IN_TRANSIT', expectedAt: new Date(`${day(2)}T00:00:00Z`), ...actor },
    });
    await db().inventoryTransferLine.create({ data: { transferId: transfer.id, lineNumber: 1, productMasterId: ids.T, quantity: 40, shippedQuantity: 40 } });
    // Below its reorder point, a location with 90 beyond its own cover and a pending recommendation from it: MOVE.
    ids.M = await product('PR-M', loc.id, { reorder: 20, max: 60, lead: 2 }, 10);
    await db().inventoryLevel.create({ data: { organizationId, productMasterId: ids.M, locationId: other.id, reorderQuantity: 10, maxQuantity: 10 } });
    await addStock(server.app, organizationId, { productMasterId: ids.M, locationId: other.id }, { ON_HAND: 100 });
    pending = await db().transferRecommendation.create({
      data: { organizationId, productMasterId: ids.M, sourceLocationId: other.id, destLocationId: loc.id, quantity: 50, priority: 'HIGH', reason: 'test',
        unitTransferCost: 0, unitsAtRisk: 0, expiresAt: new Date(Date.now() + 86_400_000), ...actor },
    });
    // 30 on the shelf, 25 backordered: 5 left on day 0.
    ids.B = await product('PR-B', loc.id, { reorder: 10, max: 40, lead: 5 }, 30);
    const order = await db().salesOrder.create({ data: { organizationId, externalId: 'SO-PL-B', fulfillmentLocationId: loc.id, status: 'PARTIALLY_ALLOCATED' } });
    await db().salesOrderLine.create({ data: { salesOrderId: order.id, lineNumber: 1, productMasterId: ids.B, requestedQty: 25, backorderedQty: 25 } });
    // 2.5 a day, nothing on hand, no maximum: 7 days of demand rounded up.
    ids.R = await product('PR-R', loc.id, { lead: 3, review: 4, planner: [25, 10] });
    // Plenty and no demand: nothing to do.
    ids.Z = await product('PR-Z', loc.id, { reorder: 5, max: 10 }, 8);

    const answer = await recommendations(loc.id);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    rows = answer.body.data;
  });

  it('orders from demand history alone: crossings, days of cover, order up to the maximum', () => {
    expect(byProduct(rows, ids.H)).toMatchObject({
      action: 'ORDER', quantity: 170, needBy: day(5), orderBy: today, sourceType: null, supplierId: null,
      startQuantity: 100, demandRate: 10, demandSource: 'HISTORY', leadTimeDays: 7, leadTimeSource: 'LEVEL', horizonDays: 35,
      reorderCrossingDate: day(5), stockOutDate: day(10), daysOfCover: 10, targetQuantity: 200, projectedAtArrival: 30, minQuantity: 20, maxQuantity: 200,
    });
    expect(byProduct(rows, ids.H).reason).toBe(
      `Projected to go below its reorder point (50) on ${day(5)}: 100 units available, 10 a day (history). Order 170 units from a supplier (none on record) by ${today} (lead time 7 days) to bring it to 200 (its maximum) on arrival.`,
    );
  });

  it('orders from ledger outflows alone, with the default lead time', () => {
    expect(byProduct(rows, ids.L)).toMatchObject({
      action: 'ORDER', startQuantity: 38, demandRate: 2, demandSource: 'LEDGER', leadTimeDays: 14, leadTimeSource: 'DEFAULT', horizonDays: 42,
      needBy: today, reorderCrossingDate: today, stockOutDate: day(19), daysOfCover: 19, projectedAtArrival: 10, targetQuantity: 100, quantity: 90,
    });
  });

  it('uses the forecast of record over history, and a planner number over the forecast', () => {
    expect(byProduct(rows, ids.F)).toMatchObject({ action: 'ORDER', demandRate: 5, demandSource: 'FORECAST', needBy: day(6), projectedAtArrival: 30, quantity: 70, daysOfCover: 12 });
    expect(byProduct(rows, ids.P)).toMatchObject({
      action: 'ORDER', demandRate: 3, demandSource: 'PLANNER', leadTimeDays: 5, leadTimeSource: 'SUPPLIER', needBy: day(7), orderBy: day(2),
      projectedAtArrival: 9, quantity: 41, sourceType: 'SUPPLIER', supplierId: planned.supplierId, daysOfCover: 10,
    });
    expect(byProduct(rows, ids.P).reason).toContain(`Order 41 units from ${planned.supplier.name} by ${day(2)} (lead time 5 days)`);
  });

  it('expedites an open purchase order expected after the stock-out; one before it covers the need', () => {
    expect(byProduct(rows, ids.E)).toMatchObject({
      action: 'EXPEDITE', quantity: 50, needBy: day(10), purchaseOrderId: expedited.id, supplierId: expedited.supplierId, sourceType: 'SUPPLIER',
      reorderCrossingDate: day(5), stockOutDate: day(10), daysOfCover: 10, inboundQuantity: 50,
    });
    expect(byProduct(rows, ids.E).reason).toBe(
      `Projected to run out on ${day(10)} (20 units available, 2 a day, planner source); purchase order ${expedited.number} from ${expedited.supplier.name} brings 50 units on ${day(15)}, 5 days later: expedite it to arrive by ${day(10)}.`,
    );
    expect(byProduct(rows, ids.E2)).toBeUndefined();
  });

  it('counts transfers in transit, backorders, and rounds demand up to whole units', () => {
    expect(byProduct(rows, ids.T)).toBeUndefined();
    expect(byProduct(rows, ids.B)).toMatchObject({ action: 'ORDER', startQuantity: 30, outboundQuantity: 25, needBy: today, projectedAtArrival: 5, quantity: 35, demandSource: null, daysOfCover: null });
    expect(byProduct(rows, ids.R)).toMatchObject({ action: 'ORDER', demandRate: 2.5, needBy: today, projectedAtArrival: 0, targetQuantity: 18, quantity: 18, daysOfCover: 0 });
    expect(byProduct(rows, ids.Z)).toBeUndefined();
  });

  it('moves from a location with surplus beyond its own cover, linking the pending transfer recommendation', () => {
    expect(byProduct(rows, ids.M)).toMatchObject({ action: 'MOVE', quantity: 50, sourceType: 'LOCATION', sourceLocationId: other.id, transferRecommendationId: pending.id, needBy: today });
    expect(byProduct(rows, ids.M).reason).toContain('Move 50 units from Planning SPARE (PL-SPARE), which has 90 beyond its own cover');
  });

  it('sorts the most urgent first', () => {
    expect(rows.map((row) => row.sku)).toEqual(['PR-R', 'PR-L', 'PR-B', 'PR-M', 'PR-H', 'PR-F', 'PR-P', 'PR-E']);
  });

  it('refuses bad input: 400 naming locationId, unknown query parameters 400, ids of another organization 404, no planning.read 403', async () => {
    const missing = await server.call('GET', '/api/planning/recommendations', { token: a.key });
    expect(missing.status).toBe(400);
    expect(missing.body.details.locationId).toBeDefined();
    expect((await server.call('GET', `/api/planning/recommendations?locationId=${loc.id}&extra=1`, { token: a.key })).status).toBe(400);
    expect((await recommendations('nope')).status).toBe(404);
    expect((await recommendations(loc.id, b.key)).status).toBe(404);
    const viewer = await a.keyWith(['inventory:read']);
    expect((await recommendations(loc.id, viewer)).status).toBe(403);
    const planner = await a.keyWith(['planning:*']);
    expect((await recommendations(loc.id, planner)).status).toBe(200);
    const theirs = await graphqlData(server, b.key, `query ($loc: ID!) { stockProjection(locationId: $loc) { productMasterId } }`, { loc: b.warehouse.id });
    expect(theirs.stockProjection).toEqual([]);
  });

  it('keeps tenants apart: another organization sees none of these events', async () => {
    const theirs = await place('THEIRS', b);
    await product('PR-TH', theirs.id, { reorder: 5, max: 5, lead: 3 }, 1, b);
    const answer = await recommendations(theirs.id, b.key);
    expect(answer.status).toBe(200);
    expect(answer.body.data.map((row: Rec) => [row.sku, row.action, row.quantity, row.sourceLocationId])).toEqual([['PR-TH', 'ORDER', 4, null]]);
  });
});
