import type { RequestContext } from '../../context.js';
import type { BookingStatus } from '../../generated/prisma/client.js';
import { type StatusMove, type StatusMoveFilter, statusMoves } from '../events/following/status-moves.js';
import { orgId } from '../tenant.js';
import { getBooking } from './booking-queries.js';
import { BOOKING_WITH_LINES, type BookingWithLines } from './booking-shape.js';

/** A message of bookingChanged: a move (a `booking.moved` event) with the booking as it is when the event arrives. */
export type BookingChange = StatusMove<BookingStatus, BookingWithLines>;

/**
 * The organization's booking moves (created, confirmed, fulfilled, cancelled), made through any instance, of one
 * booking (`id`: the booking now first, then each move, ending after FULFILLED or CANCELLED) or at one location
 * (`locationId`: each move from now on).
 */
export function bookingChanges(ctx: RequestContext, filter: StatusMoveFilter): Promise<AsyncIterableIterator<BookingChange>> {
  return statusMoves<BookingStatus, BookingWithLines>(
    ctx,
    {
      type: 'booking.moved',
      noun: 'booking',
      rank: { DRAFT: 0, CONFIRMED: 1, FULFILLED: 2, CANCELLED: 3 },
      final: ['FULFILLED', 'CANCELLED'],
      readOne: (id) => getBooking(ctx, id),
      readMany: (ids) => ctx.prisma.booking.findMany({ where: { id: { in: ids }, organizationId: orgId(ctx) }, ...BOOKING_WITH_LINES }),
    },
    filter,
  );
}
