import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tenant } from '../support/fixtures.js';
import { expectLedgerBalanced } from '../support/ledger-balance.js';
import type { TestServer } from '../support/server.js';
import { startServerWithTwoTenants } from '../support/two-tenants.js';
import { bookingCalls, inWeeks } from './booking-support.js';

// Permissions, tenant isolation on every path, the list's filters; confirms and cancels at once (PostgreSQL).
let server: TestServer;
let a: Tenant;
let b: Tenant;
let s: ReturnType<typeof bookingCalls>;
let sb: ReturnType<typeof bookingCalls>;

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants());
  s = bookingCalls(server, a);
  sb = bookingCalls(server, b);
});
afterAll(() => server?.close());

const MOVES = ['confirm', 'reserve', 'fulfil', 'cancel'];

describe('permissions and isolation', () => {
  it('needs planning.read to read and planning.write to write; another tenant sees 404 on every path and 400 in bodies; nothing changes', async () => {
    const product = await s.stockedProduct(4, 0);
    const booking = await s.ok(s.create(s.body(product, 2)), 201);
    const viewer = await a.userWith('VIEWER');
    const reader = (await server.call('POST', '/api/auth/sign-in', { body: { email: viewer.email, password: viewer.password } })).body.token as string;
    const planner = await a.userWith('PLANNER');
    const writer = (await server.call('POST', '/api/auth/sign-in', { body: { email: planner.email, password: planner.password } })).body.token as string;
    const inventoryOnly = await a.keyWith(['inventory:*']);
    const forecastOnly = await a.keyWith(['forecast:write']);
    const before = await s.snapshot();

    // A VIEWER reads (planning.read) and may not write; keys without planning permissions do neither.
    expect((await s.call('GET', '/api/bookings', undefined, reader)).status).toBe(200);
    expect((await s.call('GET', `/api/bookings/${booking.id}`, undefined, reader)).status).toBe(200);
    for (const token of [inventoryOnly, forecastOnly]) {
      expect((await s.call('GET', '/api/bookings', undefined, token)).status).toBe(403);
      expect((await s.call('GET', `/api/bookings/${booking.id}`, undefined, token)).status).toBe(403);
    }
    for (const token of [reader, inventoryOnly, forecastOnly]) {
      expect((await s.create(s.body(product, 1), token)).status).toBe(403);
      expect((await s.call('PATCH', `/api/bookings/${booking.id}`, { note: 'x' }, token)).status).toBe(403);
      for (const move of MOVES) expect((await s.move(booking.id, move, {}, token)).status, move).toBe(403);
    }
    expect((await server.call('GET', '/api/bookings', {})).status).toBe(401);
    expect(await s.snapshot()).toEqual(before);

    // Tenant b: a's booking is 404 on every path, a's location and product 400 in bodies, a's bookings not in b's list.
    expect((await sb.call('GET', `/api/bookings/${booking.id}`)).status).toBe(404);
    expect((await sb.call('PATCH', `/api/bookings/${booking.id}`, { note: 'x' })).status).toBe(404);
    for (const move of MOVES) expect((await sb.move(booking.id, move)).status, move).toBe(404);
    const foreign = await sb.create(s.body(product, 1));
    expect(foreign.status).toBe(400);
    expect(Object.keys(foreign.body.details).sort()).toEqual(['lines.0.productId', 'locationId']);
    expect((await sb.ok(sb.call('GET', '/api/bookings'))).total).toBe(0);
    expect((await sb.call('GET', `/api/bookings?locationId=${a.warehouse.id}`)).status).toBe(404);
    expect((await sb.call('GET', `/api/bookings?productId=${product}`)).status).toBe(404);
    expect(await s.snapshot()).toEqual(before);

    // planning.write (a PLANNER, a planning:* key) creates and moves.
    const planningKey = await a.keyWith(['planning:*']);
    const mine = await s.ok(s.create(s.body(product, 1), writer), 201);
    await s.ok(s.move(mine.id, 'confirm', {}, planningKey));
    await s.ok(s.move(mine.id, 'cancel', {}, writer));
    await s.ok(s.move(booking.id, 'cancel', {}, planningKey));
  });
});

describe('lists', () => {
  it('filter by status, location, product, customer and week range, by week then newest first, with limit and offset', async () => {
    const p1 = await s.stockedProduct(10, 0);
    const p2 = await s.stockedProduct(10, 0);
    const first = await s.ok(s.create({ ...s.body(p1, 1), customer: 'Northwind Traders', week: inWeeks(6) }), 201);
    const second = await s.ok(s.create({ ...s.body(p2, 1), customer: 'Contoso', week: inWeeks(7) }), 201);
    const third = await s.ok(s.create({ ...s.body(p1, 1), customer: 'northwind retail', week: inWeeks(6) }), 201);
    await s.ok(s.move(second.id, 'confirm'));
    const ids = async (query: string) => (await s.ok(s.call('GET', `/api/bookings?weekFrom=${inWeeks(6)}&${query}`))).bookings.map((x: any) => x.id);
    expect(await ids('')).toEqual([third.id, first.id, second.id]);
    expect(await ids('status=confirmed')).toEqual([second.id]);
    expect(await ids('status=DRAFT,cancelled')).toEqual([third.id, first.id]);
    expect(await ids(`productId=${p1}`)).toEqual([third.id, first.id]);
    expect(await ids('customer=NORTHWIND')).toEqual([third.id, first.id]);
    expect(await ids(`weekTo=${inWeeks(6)}&locationId=${a.warehouse.id}`)).toEqual([third.id, first.id]);
    expect(await ids(`customer=%25`)).toEqual([]);
    const page = await s.ok(s.call('GET', `/api/bookings?weekFrom=${inWeeks(6)}&limit=1&offset=1`));
    expect(page).toMatchObject({ total: 3, limit: 1, offset: 1 });
    expect(page.data.map((x: any) => x.id)).toEqual([first.id]);
    expect((await s.call('GET', '/api/bookings?status=shipped')).body.details).toHaveProperty('status');
    expect((await s.call('GET', '/api/bookings?limit=101')).status).toBe(400);
    expect((await s.call('GET', '/api/bookings?weekFrom=2026-12-01')).body.details).toHaveProperty('weekFrom');
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('at once (PostgreSQL)', () => {
  it('two confirms of one booking: one confirms, the other 409; stock is reserved once', async () => {
    for (let round = 0; round < 3; round++) {
      const product = await s.stockedProduct(10, 0);
      const booking = await s.ok(s.create(s.body(product, 7)), 201);
      const results = await Promise.all([s.move(booking.id, 'confirm'), s.move(booking.id, 'confirm')]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      expect(results.find((r) => r.status === 409)!.body.code).toBe('INVALID_STATE');
      expect(await s.stockOf(product)).toEqual({ LATE: [10, 7] });
      expect(await s.ledgerOf(booking.id)).toEqual([['BOOKING_RESERVE', 'RESERVED', 7]]);
      expect(await server.app.prisma.externalEvent.count({ where: { bookingLine: { bookingId: booking.id } } })).toBe(1);
      expect(await s.movesOf(booking.id)).toEqual([[null, 'DRAFT'], ['DRAFT', 'CONFIRMED']]);
    }
    await expectLedgerBalanced(server.app.prisma);
  });

  it('confirm and cancel at once end in one of them, with the stock to match', async () => {
    for (let round = 0; round < 3; round++) {
      const product = await s.stockedProduct(10, 0);
      const booking = await s.ok(s.create(s.body(product, 4)), 201);
      const [confirm, cancel] = await Promise.all([s.move(booking.id, 'confirm'), s.move(booking.id, 'cancel')]);
      const final = await server.app.prisma.booking.findUniqueOrThrow({ where: { id: booking.id } });
      expect(final.status).toBe('CANCELLED');
      if (confirm.status === 200) {
        // Confirmed first, then cancelled: reserved and released.
        expect(cancel.status).toBe(200);
        expect(await s.ledgerOf(booking.id)).toEqual([['BOOKING_RESERVE', 'RESERVED', 4], ['BOOKING_RELEASE', 'RESERVED', -4]]);
      } else {
        expect(confirm.status).toBe(409);
        expect(await s.ledgerOf(booking.id)).toEqual([]);
      }
      expect(await s.stockOf(product)).toEqual({ LATE: [10, 0] });
    }
    await expectLedgerBalanced(server.app.prisma);
  });

  it('two creations at once get consecutive numbers', async () => {
    const product = await s.stockedProduct(1, 0);
    const made = await Promise.all(Array.from({ length: 4 }, () => s.ok(s.create(s.body(product, 1)), 201)));
    const numbers = made.map((m) => m.number).sort((x, y) => x - y);
    expect(new Set(numbers).size).toBe(4);
    expect(numbers.at(-1)! - numbers[0]!).toBe(3);
  });
});
