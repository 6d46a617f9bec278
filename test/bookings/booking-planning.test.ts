import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlData } from '../support/api.js';
import { insertWeeklyDemand } from '../support/demand-history.js';
import type { Tenant } from '../support/fixtures.js';
import { FORECASTING } from '../support/forecasting.js';
import { expectLedgerBalanced } from '../support/ledger-balance.js';
import type { TestServer } from '../support/server.js';
import { startServerWithTwoTenants } from '../support/two-tenants.js';
import { bookingCalls, inWeeks } from './booking-support.js';

// What a booking does to planning and forecasting: while CONFIRMED its short units are outbound demand at its
// week in the projection and its BOOKING event adds the booked units to that week's forecast; fulfilled or
// cancelled, both go. Never in another organization's answers.
let server: TestServer;
let a: Tenant;
let b: Tenant;
let s: ReturnType<typeof bookingCalls>;

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants({}, { capabilities: [FORECASTING] }));
  s = bookingCalls(server, a);
});
afterAll(() => server?.close());

const PROJECTION = `query ($loc: ID!, $ids: [ID!]) { stockProjection(locationId: $loc, productMasterIds: $ids, horizonDays: 60) { productMasterId startQuantity outboundQuantity } }`;
const projection = async (tenant: Tenant, product: string) =>
  (await graphqlData(server, tenant.key, PROJECTION, { loc: tenant.warehouse.id, ids: [product] })).stockProjection[0] as { startQuantity: number; outboundQuantity: number };

/** The forecast of the product at a's warehouse from this week, 8 weeks: periodStart → [forecast, bookedQuantity, eventIds]. */
async function forecastOf(product: string) {
  const res = await s.ok(s.call('GET', `/api/forecast?productMasterId=${product}&locationId=${a.warehouse.id}&from=${inWeeks(0)}&horizon=8`));
  const series = res.data[0];
  return Object.fromEntries(series.points.map((p: any) => [p.periodStart, [p.forecast, p.bookedQuantity, p.eventIds]]));
}

const bookingEvents = async (tenant: Tenant, product?: string) =>
  (await s.ok(s.call('GET', `/api/forecast/events?type=BOOKING&to=${inWeeks(10)}T00:00:00Z${product ? `&productMasterId=${product}` : ''}`, undefined, tenant.key))).events;

describe('planning projection and forecasting', () => {
  it('a confirmed booking is outbound demand for its short units and lifts its week by the booked units; fulfilled, both go', async () => {
    const product = await s.stockedProduct(4, 0);
    await insertWeeklyDemand(server.app.prisma, { organizationId: a.org.id, productMasterId: product, locationId: a.warehouse.id, firstWeek: inWeeks(-30), values: Array(30).fill(10) });
    const baseline = await forecastOf(product);
    expect(await projection(a, product)).toMatchObject({ startQuantity: 4, outboundQuantity: 0 });

    const booking = await s.ok(s.create(s.body(product, 12, { week: inWeeks(3) })), 201);
    // A DRAFT is in neither.
    expect(await projection(a, product)).toMatchObject({ startQuantity: 4, outboundQuantity: 0 });
    expect(await bookingEvents(a, product)).toEqual([]);

    await s.ok(s.move(booking.id, 'confirm'));
    // 4 reserved (out of available), 8 short: outbound at the booking week.
    expect(await projection(a, product)).toMatchObject({ startQuantity: 0, outboundQuantity: 8 });
    const [event] = await bookingEvents(a, product);
    expect(event).toMatchObject({
      type: 'BOOKING', bookedQuantity: 12, value: { liftPct: null }, isGlobal: false, isOrgWide: false,
      productMaster: { id: product }, location: { id: a.warehouse.id }, startsAt: `${inWeeks(3)}T00:00:00.000Z`,
    });
    expect(event.name).toContain(booking.reference);
    const lifted = await forecastOf(product);
    for (const [week, [forecast, booked, eventIds]] of Object.entries(lifted) as [string, [number, number, string[]]][]) {
      if (week === inWeeks(3)) {
        expect(booked).toBe(12);
        expect(forecast).toBeCloseTo(baseline[week][0] + 12, 3);
        expect(eventIds).toEqual([event.id]);
      } else {
        expect([forecast, booked]).toEqual([baseline[week][0], 0]);
      }
    }
    // The event follows its booking: not changed or deleted through the events paths.
    expect((await s.call('PATCH', `/api/forecast/events/${event.id}`, { name: 'Mine now' })).status).toBe(409);
    expect((await s.call('DELETE', `/api/forecast/events/${event.id}`)).status).toBe(409);

    // Another organization sees none of it.
    expect(await bookingEvents(b)).toEqual([]);
    expect((await s.call('GET', `/api/forecast/events/${event.id}`, undefined, b.key)).status).toBe(404);
    const theirs = await s.ok(s.call('GET', `/api/forecast?from=${inWeeks(0)}&horizon=8`, undefined, b.key));
    expect(theirs.data).toEqual([]);
    const bProduct = await bookingCalls(server, b).stockedProduct(4, 0);
    expect(await projection(b, bProduct)).toMatchObject({ startQuantity: 4, outboundQuantity: 0 });

    // Fulfilled: the units left through the ledger; no outbound demand, no lift (its units are actual demand now).
    await s.addLot(product, 'MORE', 10);
    await s.ok(s.move(booking.id, 'fulfil'));
    expect(await projection(a, product)).toMatchObject({ startQuantity: 2, outboundQuantity: 0 });
    expect(await bookingEvents(a, product)).toEqual([]);
    expect(await forecastOf(product)).toEqual(baseline);
    await expectLedgerBalanced(server.app.prisma);
  });

  it('a cancelled booking leaves the projection and forecasting', async () => {
    const product = await s.stockedProduct(0, 0);
    const booking = await s.ok(s.create(s.body(product, 5, { week: inWeeks(2) })), 201);
    await s.ok(s.move(booking.id, 'confirm'));
    expect(await projection(a, product)).toMatchObject({ startQuantity: 0, outboundQuantity: 5 });
    expect(await bookingEvents(a, product)).toHaveLength(1);
    await s.ok(s.move(booking.id, 'cancel'));
    expect(await projection(a, product)).toMatchObject({ startQuantity: 0, outboundQuantity: 0 });
    expect(await bookingEvents(a, product)).toEqual([]);
  });
});
