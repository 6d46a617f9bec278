import type { TxContext } from '../../db/transactions.js';
import type { Booking, BookingStatus, Prisma } from '../../generated/prisma/client.js';
import { DomainError, notFound } from '../../kernel/errors.js';
import { appendEvents } from '../events/outbox/append-events.js';
import { orgId } from '../tenant.js';
import { BOOKING_WITH_LINES, bookingReference, weekText } from './booking-shape.js';

/** Interactive transaction limits of a booking move: it may queue on the booking's and stock lines' locks. */
export const BOOKING_TRANSACTION = { maxWait: 10_000, timeout: 20_000 };

/** What each move (or change) may start from; the one table of a booking's states. */
const ALLOWED_FROM = {
  update: ['DRAFT'],
  confirm: ['DRAFT'],
  reserve: ['CONFIRMED'],
  fulfil: ['CONFIRMED'],
  cancel: ['DRAFT', 'CONFIRMED'],
} as const satisfies Record<string, readonly BookingStatus[]>;

export type BookingMove = keyof typeof ALLOWED_FROM;

/**
 * Locks the organization's booking (SELECT ... FOR UPDATE) for the rest of the transaction and checks that
 * `move` may start from its state: a second move of the same booking waits here and then sees the state the
 * first left, so two confirms at once reserve once and the other is refused. Unknown or foreign id: 404;
 * wrong state: 409 INVALID_STATE naming the state.
 */
export async function lockBookingFor(ctx: TxContext, id: string, move: BookingMove): Promise<Booking> {
  const [booking] = await ctx.prisma.$queryRaw<Booking[]>`
    SELECT * FROM bookings WHERE id = ${id} AND "organizationId" = ${orgId(ctx)} FOR UPDATE`;
  if (!booking) throw notFound('Booking');
  const allowed: readonly BookingStatus[] = ALLOWED_FROM[move];
  if (!allowed.includes(booking.status)) {
    throw new DomainError('INVALID_STATE', `Cannot ${move} a booking that is ${booking.status}; allowed from ${allowed.join(' or ')}`);
  }
  return booking;
}

/** Moves the locked booking to `to` with the other columns given, and tells the outbox; answers it with its lines. */
export async function moveBooking(ctx: TxContext, booking: Booking, to: BookingStatus, data: Prisma.BookingUpdateInput = {}) {
  const moved = await ctx.prisma.booking.update({ where: { id: booking.id }, data: { ...data, status: to }, ...BOOKING_WITH_LINES });
  await bookingMoved(ctx, moved, booking.status);
  return moved;
}

/** The `booking.moved` event of a booking that has just reached its status (from `from`; null: created), in the move's transaction. */
export function bookingMoved(ctx: TxContext, booking: Booking, from: BookingStatus | null) {
  return appendEvents(ctx, [
    {
      type: 'booking.moved',
      subjectId: booking.id,
      locationId: booking.locationId,
      payload: { bookingId: booking.id, reference: bookingReference(booking), from, to: booking.status, customer: booking.customer, locationId: booking.locationId, week: weekText(booking) },
    },
  ]);
}
