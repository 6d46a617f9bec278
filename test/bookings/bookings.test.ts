import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tenant } from '../support/fixtures.js';
import { expectLedgerBalanced } from '../support/ledger-balance.js';
import type { TestServer } from '../support/server.js';
import { startServerWithTwoTenants } from '../support/two-tenants.js';
import { bookingCalls, inWeeks } from './booking-support.js';

// The life of a wholesale booking through REST: DRAFT (changed), CONFIRMED (reserving what is available, lots
// expiring before the week left alone, the rest short), topped up, FULFILLED through the ledger; cancelled from
// DRAFT and from CONFIRMED; every illegal move refused with nothing changed; bad input 400 naming the fields.
let server: TestServer;
let a: Tenant;
let s: ReturnType<typeof bookingCalls>;

beforeAll(async () => {
  ({ server, a } = await startServerWithTwoTenants());
  s = bookingCalls(server, a);
});
afterAll(() => server?.close());

const MOVES = ['confirm', 'reserve', 'fulfil', 'cancel'];
const LEGAL: Record<string, string[]> = { DRAFT: ['confirm', 'cancel'], CONFIRMED: ['reserve', 'fulfil', 'cancel'], FULFILLED: [], CANCELLED: [] };

/** Every move (and PATCH) not legal from the booking's state is 409 INVALID_STATE naming the state, and changes nothing. */
async function illegalMovesRefused(id: string, status: string) {
  const refused = MOVES.filter((m) => !LEGAL[status]!.includes(m)).map((m) => [m, () => s.move(id, m)] as const);
  if (status !== 'DRAFT') refused.push(['update', () => s.call('PATCH', `/api/bookings/${id}`, { note: 'late change' })]);
  for (const [move, run] of refused) {
    const before = await s.snapshot();
    const res = await run();
    expect(res.status, `${move} from ${status}: ${JSON.stringify(res.body)}`).toBe(409);
    expect(res.body.code).toBe('INVALID_STATE');
    expect(res.body.error).toContain(status);
    expect(await s.snapshot()).toEqual(before);
  }
}

describe('a booking from DRAFT to FULFILLED', () => {
  it('reserves what is available at confirm (not the lot expiring before the week), tops up later and ships every unit out through the ledger', async () => {
    const product = await s.stockedProduct(10, 5);
    const other = await s.stockedProduct(0, 0);
    const created = await s.ok(s.create({ ...s.body(product, 8), week: inWeeks(3), customerReference: 'PO-77', note: 'Pallets' }), 201);
    expect(created).toMatchObject({
      status: 'DRAFT', customer: 'Acme Wholesale', customerReference: 'PO-77', locationId: a.warehouse.id, week: inWeeks(3), note: 'Pallets',
      reference: expect.stringMatching(/^BK-\d{6}$/), confirmedAt: null, createdByType: 'API_KEY',
    });
    expect(created.lines).toEqual([expect.objectContaining({ lineNumber: 1, productId: product, quantity: 8, reservedQuantity: 0, shortQuantity: 0, allocations: [] })]);
    expect(await s.stockOf(product)).toEqual({ SOON: [5, 0], LATE: [10, 0] });
    await illegalMovesRefused(created.id, 'DRAFT');

    // A DRAFT changes: lines replace the lines; the week as an ISO week.
    const [year, week] = isoWeekOf(inWeeks(4));
    const changed = await s.ok(s.call('PATCH', `/api/bookings/${created.id}`, { week: `${year}-W${String(week).padStart(2, '0')}`, customerReference: null, lines: [{ productId: product, quantity: 14 }, { productId: other, quantity: 3 }] }));
    expect(changed).toMatchObject({ status: 'DRAFT', week: inWeeks(4), customerReference: null, note: 'Pallets' });
    expect(changed.lines.map((l: any) => [l.lineNumber, l.productId, l.quantity])).toEqual([[1, product, 14], [2, other, 3]]);

    const confirmed = await s.ok(s.move(created.id, 'confirm'));
    expect(confirmed).toMatchObject({ status: 'CONFIRMED', confirmedAt: expect.any(String), confirmedBy: expect.any(String) });
    // SOON expires before the booking week: only LATE is reserved, 10 of 14; the other product has no stock at all.
    expect(confirmed.lines.map((l: any) => [l.quantity, l.reservedQuantity, l.shortQuantity])).toEqual([[14, 10, 4], [3, 0, 3]]);
    expect(confirmed.lines[0].allocations.map((x: any) => [x.lotCode, x.quantity])).toEqual([['LATE', 10]]);
    expect(await s.stockOf(product)).toEqual({ SOON: [5, 0], LATE: [10, 10] });
    expect(await s.ledgerOf(created.id)).toEqual([['BOOKING_RESERVE', 'RESERVED', 10]]);
    await expectLedgerBalanced(server.app.prisma);
    await illegalMovesRefused(created.id, 'CONFIRMED');

    // More stock arrives: the top-up reserves the short units of the first line; the second stays short.
    await s.addLot(product, 'NEW', 6);
    const topped = await s.ok(s.move(created.id, 'reserve'));
    expect(topped.status).toBe('CONFIRMED');
    expect(topped.lines.map((l: any) => [l.reservedQuantity, l.shortQuantity])).toEqual([[14, 0], [0, 3]]);
    expect(topped.lines[0].allocations.map((x: any) => [x.lotCode, x.quantity]).sort()).toEqual([['LATE', 10], ['NEW', 4]]);
    expect(await s.stockOf(product)).toEqual({ SOON: [5, 0], LATE: [10, 10], NEW: [6, 4] });

    // Fulfilling while the second line is short: 400 INSUFFICIENT_STOCK naming it, nothing changed.
    let before = await s.snapshot();
    const short = await s.move(created.id, 'fulfil');
    expect(short.status).toBe(400);
    expect(short.body).toMatchObject({ code: 'INSUFFICIENT_STOCK', details: { 'lines.1.quantity': [expect.stringContaining('0 of 3')] } });
    expect(await s.snapshot()).toEqual(before);

    // Stock of the second product arrives: fulfil reserves it and ships every unit.
    await s.addLot(other, 'O1', 5);
    before = await s.snapshot();
    const fulfilled = await s.ok(s.move(created.id, 'fulfil'));
    expect(fulfilled).toMatchObject({ status: 'FULFILLED', fulfilledAt: expect.any(String) });
    expect(fulfilled.lines.map((l: any) => [l.reservedQuantity, l.shortQuantity])).toEqual([[0, 0], [0, 0]]);
    expect(fulfilled.lines[1].allocations.map((x: any) => [x.lotCode, x.quantity])).toEqual([['O1', 3]]);
    expect(await s.stockOf(product)).toEqual({ SOON: [5, 0], LATE: [0, 0], NEW: [2, 0] });
    expect(await s.stockOf(other)).toEqual({ O1: [2, 0] });
    const ledger = await s.ledgerOf(created.id);
    expect(ledger.filter(([type]) => type === 'BOOKING_OUT')).toHaveLength(6); // three stock lines, RESERVED and ON_HAND each
    expect(ledger.filter(([type, bucket]) => type === 'BOOKING_OUT' && bucket === 'ON_HAND').reduce((sum, [, , d]) => sum + Number(d), 0)).toBe(-17);
    await expectLedgerBalanced(server.app.prisma);
    await illegalMovesRefused(created.id, 'FULFILLED');

    expect(await s.movesOf(created.id)).toEqual([[null, 'DRAFT'], ['DRAFT', 'CONFIRMED'], ['CONFIRMED', 'FULFILLED']]);
    const event = await server.app.prisma.domainEvent.findFirstOrThrow({ where: { type: 'booking.moved', subjectId: created.id, payload: { path: ['to'], equals: 'FULFILLED' } } });
    expect(event).toMatchObject({ locationId: a.warehouse.id, organizationId: a.org.id });
    expect(event.payload).toEqual({ bookingId: created.id, reference: created.reference, from: 'CONFIRMED', to: 'FULFILLED', customer: 'Acme Wholesale', locationId: a.warehouse.id, week: inWeeks(4) });
    expect((await s.ok(s.call('GET', `/api/bookings/${created.id}`))).status).toBe('FULFILLED');
  });
});

describe('cancelling', () => {
  it('a DRAFT changes no stock; a CONFIRMED booking releases its reservations', async () => {
    const product = await s.stockedProduct(10, 0);
    const draft = await s.ok(s.create(s.body(product, 4)), 201);
    const cancelledDraft = await s.ok(s.move(draft.id, 'cancel'));
    expect(cancelledDraft).toMatchObject({ status: 'CANCELLED', cancelledAt: expect.any(String) });
    expect(await s.ledgerOf(draft.id)).toEqual([]);
    await illegalMovesRefused(draft.id, 'CANCELLED');

    const booking = await s.ok(s.create(s.body(product, 12)), 201);
    await s.ok(s.move(booking.id, 'confirm'));
    expect(await s.stockOf(product)).toEqual({ LATE: [10, 10] });
    const cancelled = await s.ok(s.move(booking.id, 'cancel'));
    expect(cancelled.lines.map((l: any) => [l.reservedQuantity, l.shortQuantity, l.allocations.length])).toEqual([[0, 0, 0]]);
    expect(await s.stockOf(product)).toEqual({ LATE: [10, 0] });
    expect(await s.ledgerOf(booking.id)).toEqual([['BOOKING_RESERVE', 'RESERVED', 10], ['BOOKING_RELEASE', 'RESERVED', -10]]);
    expect(await s.movesOf(booking.id)).toEqual([[null, 'DRAFT'], ['DRAFT', 'CONFIRMED'], ['CONFIRMED', 'CANCELLED']]);
    await illegalMovesRefused(booking.id, 'CANCELLED');
    await expectLedgerBalanced(server.app.prisma);
  });
});

describe('bad input', () => {
  it('is 400 VALIDATION_ERROR naming the fields, and writes nothing', async () => {
    const product = await s.stockedProduct(1, 0);
    const good = s.body(product, 1);
    const before = await s.snapshot();
    const cases: [Record<string, unknown>, string[]][] = [
      [{ ...good, customer: undefined }, ['customer']],
      [{ ...good, customer: 'x'.repeat(201) }, ['customer']],
      [{ ...good, customerReference: 'x'.repeat(101) }, ['customerReference']],
      [{ ...good, week: dayAfterMonday(inWeeks(3)) }, ['week']],
      [{ ...good, week: '2026-W60' }, ['week']],
      [{ ...good, week: 'next week' }, ['week']],
      [{ ...good, note: 'x'.repeat(1001) }, ['note']],
      [{ ...good, lines: [] }, ['lines']],
      [{ ...good, lines: [{ productId: product, quantity: 0 }] }, ['lines.0.quantity']],
      [{ ...good, lines: [{ productId: product, quantity: 1_000_001 }] }, ['lines.0.quantity']],
      [{ ...good, lines: [{ productId: product, quantity: 1.5 }] }, ['lines.0.quantity']],
      [{ ...good, lines: [{ productId: product, quantity: 1 }, { productId: product, quantity: 2 }] }, ['lines.1.productId']],
      [{ ...good, lines: Array.from({ length: 501 }, (_, i) => ({ productId: `p${i}`, quantity: 1 })) }, ['lines']],
      [{ ...good, lines: [{ productId: product, quantity: 1, price: 3 }] }, ['lines.0.price']],
      [{ ...good, colour: 'red' }, ['colour']],
      [{ ...good, locationId: 'nope' }, ['locationId']],
      [{ ...good, lines: [{ productId: 'nope', quantity: 1 }] }, ['lines.0.productId']],
    ];
    for (const [body, fields] of cases) {
      const res = await s.create(body);
      expect(res.status, JSON.stringify(body).slice(0, 200)).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      for (const field of fields) expect(Object.keys(res.body.details), `${field}: ${JSON.stringify(res.body.details)}`).toContain(field);
    }
    const draft = await s.ok(s.create(good), 201);
    const after = await s.snapshot();
    expect(after.bookings).toHaveLength(before.bookings.length + 1);
    for (const body of [{}, { lines: [] }, { week: 'W1' }, { status: 'CONFIRMED' }]) {
      const res = await s.call('PATCH', `/api/bookings/${draft.id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await s.move(draft.id, 'confirm', { force: true })).status).toBe(400);
    expect((await s.call('GET', '/api/bookings?colour=red')).status).toBe(400);
    expect((await s.call('GET', `/api/bookings?weekFrom=${inWeeks(2)}&weekTo=${inWeeks(1)}`)).body.details).toHaveProperty('weekTo');
    expect(await s.snapshot()).toEqual(after);
  });

  it('a booking of a week that has passed may be written but not confirmed (400 on week)', async () => {
    const product = await s.stockedProduct(3, 0);
    const past = await s.ok(s.create({ ...s.body(product, 1), week: inWeeks(-1) }), 201);
    const before = await s.snapshot();
    const res = await s.move(past.id, 'confirm');
    expect(res.status).toBe(400);
    expect(res.body.details).toHaveProperty('week');
    expect(await s.snapshot()).toEqual(before);
    // This week is not past.
    await s.ok(s.call('PATCH', `/api/bookings/${past.id}`, { week: inWeeks(0) }));
    expect((await s.ok(s.move(past.id, 'confirm'))).status).toBe('CONFIRMED');
  });
});

/** The Tuesday after a Monday. */
function dayAfterMonday(monday: string) {
  return new Date(Date.parse(`${monday}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

/** [ISO year, ISO week] of a Monday. */
function isoWeekOf(monday: string): [number, number] {
  const date = new Date(`${monday}T00:00:00Z`);
  const thursday = new Date(date.getTime() + 3 * 86_400_000);
  const year = thursday.getUTCFullYear();
  const jan1 = Date.UTC(year, 0, 1);
  return [year, Math.floor((thursday.getTime() - jan1) / (7 * 86_400_000)) + 1];
}
