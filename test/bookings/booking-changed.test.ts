import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tenant } from '../support/fixtures.js';
import { wsConnection } from '../support/graphql-ws.js';
import { statusMoveSubscriber } from '../support/status-moves.js';
import type { TestServer } from '../support/server.js';
import { startServerWithTwoTenants } from '../support/two-tenants.js';
import { streams } from '../events/stock-changes/stock-changed-support.js';
import { bookingCalls } from './booking-support.js';

// bookingChanged (docs/bookings.md, docs/events.md) follows one booking or a location's bookings through the
// published booking.moved events, one organization's only.
let server: TestServer;
let a: Tenant;
let b: Tenant;
let s: ReturnType<typeof bookingCalls>;
let t: ReturnType<typeof bookingCalls>;

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants({ EVENT_PUBLISH_POLL_MS: '20' }));
  s = bookingCalls(server, a);
  t = bookingCalls(server, b);
});
afterAll(() => server?.close());

const CHANGED = `subscription ($id: ID, $locationId: ID) {
  bookingChanged(id: $id, locationId: $locationId) { eventId from to booking { id status customer lines { quantity reservedQuantity } } } }`;

/** A DRAFT booking of 4 units of a product stocked with 10 units that keep (and 5 that expire before the week). */
async function newBooking(calls = s) {
  const product = await calls.stockedProduct();
  return (await calls.ok(calls.create(calls.body(product, 4)), 201)) as { id: string };
}

const subscriber = (tenant: Tenant, variables: Record<string, unknown>) => statusMoveSubscriber(server, tenant, CHANGED, 'bookingChanged', 'booking', variables);

describe('bookingChanged', () => {
  it('by id: the booking now, then each move with the booking as it is, ending after FULFILLED', async () => {
    const booking = await newBooking();
    const sub = await subscriber(a, { id: booking.id });
    expect((await sub.ws.result(sub.id)).payload.data.bookingChanged).toEqual({
      eventId: null,
      from: null,
      to: 'DRAFT',
      booking: { id: booking.id, status: 'DRAFT', customer: 'Acme Wholesale', lines: [{ quantity: 4, reservedQuantity: 0 }] },
    });
    await streams(server, 1);
    await s.ok(s.move(booking.id, 'confirm'));
    expect(await sub.moveTo(booking.id, 'CONFIRMED')).toMatchObject({ from: 'DRAFT', eventId: expect.any(String), booking: { status: 'CONFIRMED', lines: [{ reservedQuantity: 4 }] } });
    await s.ok(s.move(booking.id, 'fulfil'));
    await sub.ws.message((m) => m.id === sub.id && m.type === 'complete');
    expect(sub.sent().map((c) => [c.from, c.to])).toEqual([
      [null, 'DRAFT'],
      ['DRAFT', 'CONFIRMED'],
      ['CONFIRMED', 'FULFILLED'],
    ]);
    await streams(server, 0);
    sub.ws.close();
  });

  it('by id of a booking already final: the booking once, then the end', async () => {
    const booking = await newBooking();
    await s.ok(s.move(booking.id, 'cancel'));
    const sub = await subscriber(a, { id: booking.id });
    await sub.ws.message((m) => m.id === sub.id && m.type === 'complete');
    expect(sub.sent().map((c) => [c.from, c.to, c.booking.status])).toEqual([[null, 'CANCELLED', 'CANCELLED']]);
    sub.ws.close();
  });

  it("by location: each move there from now on (created included), never another tenant's", async () => {
    const sub = await subscriber(a, { locationId: a.warehouse.id });
    await streams(server, 1);
    const theirs = await newBooking(t);
    const mine = await newBooking();
    expect(await sub.moveTo(mine.id, 'DRAFT')).toMatchObject({ from: null, booking: { id: mine.id, status: 'DRAFT' } });
    await s.ok(s.move(mine.id, 'cancel'));
    expect(await sub.moveTo(mine.id, 'CANCELLED')).toMatchObject({ from: 'DRAFT' });
    await t.ok(t.move(theirs.id, 'confirm'));
    await t.ok(t.move(theirs.id, 'cancel'));
    // A later move of mine arrives after theirs were published: theirs were never sent.
    const later = await newBooking();
    await sub.moveTo(later.id, 'DRAFT');
    expect(sub.sent().every((c) => c.booking.id !== theirs.id)).toBe(true);
    sub.ws.close();
    await streams(server, 0);
  });

  it("refuses another organization's booking or location (NOT_FOUND), neither or both filters (VALIDATION_ERROR), and callers without planning:read", async () => {
    const theirs = await newBooking(t);
    const ws = wsConnection(server.url);
    await ws.init({ authorization: `Bearer ${a.key}` });
    const codes = async (variables: Record<string, unknown>) => JSON.stringify((await ws.result(await ws.subscribe(CHANGED, variables))).payload);
    expect(await codes({ id: theirs.id })).toContain('NOT_FOUND');
    expect(await codes({ id: '00000000-0000-0000-0000-000000000000' })).toContain('NOT_FOUND');
    expect(await codes({ locationId: b.warehouse.id })).toContain('NOT_FOUND');
    expect(await codes({})).toContain('VALIDATION_ERROR');
    expect(await codes({ id: theirs.id, locationId: a.warehouse.id })).toContain('VALIDATION_ERROR');
    ws.close();
    const narrow = wsConnection(server.url);
    await narrow.init({ authorization: `Bearer ${await a.keyWith(['inventory:read'])}` });
    expect(JSON.stringify((await narrow.result(await narrow.subscribe(CHANGED, { locationId: a.warehouse.id }))).payload)).toContain('INSUFFICIENT_SCOPE');
    narrow.close();
    expect(server.app.events!.streamCount).toBe(0);
  });
});
