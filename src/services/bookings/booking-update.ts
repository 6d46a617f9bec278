import type { z } from 'zod';
import type { bookingUpdate } from '../../contracts/bookings/bookings.js';
import type { RequestContext } from '../../context.js';
import { inTransaction } from '../../db/transactions.js';
import { checkBookingIds, lineRows, weekDate } from './booking-fields.js';
import { BOOKING_WITH_LINES, type BookingWithLines } from './booking-shape.js';
import { lockBookingFor } from './booking-state.js';

/**
 * Changes a DRAFT booking: the fields given (null clears customerReference and note); `lines` replaces every line.
 * Any other state: 409 INVALID_STATE. Not a move: no event.
 */
export function updateBooking(ctx: RequestContext, input: z.output<typeof bookingUpdate>): Promise<BookingWithLines> {
  return inTransaction(ctx, async (ctx) => {
    const booking = await lockBookingFor(ctx, input.id, 'update');
    await checkBookingIds(ctx, input);
    if (input.lines) await ctx.prisma.bookingLine.deleteMany({ where: { bookingId: booking.id } });
    return ctx.prisma.booking.update({
      where: { id: booking.id },
      data: {
        customer: input.customer,
        customerReference: input.customerReference,
        locationId: input.locationId,
        week: input.week ? weekDate(input.week) : undefined,
        note: input.note,
        ...(input.lines ? { lines: { create: lineRows(input.lines) } } : {}),
      },
      ...BOOKING_WITH_LINES,
    });
  });
}
