import type { RequestContext } from '../../context.js';
import { inTransaction } from '../../db/transactions.js';
import { withLines } from './booking-confirm.js';
import { BOOKING_WITH_LINES, type BookingWithLines } from './booking-shape.js';
import { BOOKING_TRANSACTION, lockBookingFor } from './booking-state.js';
import { openBookingStock, reserveShort, saveAllocations } from './booking-stock.js';

/**
 * Tops up a CONFIRMED booking's reservation: reserves what is now available of each line's shortQuantity, as
 * confirm does (BOOKING_RESERVE rows). The booking stays CONFIRMED (not a move: no event); what is still not
 * available stays short. Any other state: 409 INVALID_STATE.
 */
export function reserveBooking(ctx: RequestContext, input: { id: string }): Promise<BookingWithLines> {
  return inTransaction(
    ctx,
    async (ctx) => {
      const booking = await withLines(ctx, await lockBookingFor(ctx, input.id, 'reserve'));
      if (booking.lines.every((line) => line.shortQuantity === 0)) return booking;
      const session = await openBookingStock(ctx, booking);
      const lines = reserveShort(session, booking);
      await session.write();
      await saveAllocations(ctx, booking, lines);
      return ctx.prisma.booking.update({ where: { id: booking.id }, data: { updatedAt: new Date() }, ...BOOKING_WITH_LINES });
    },
    BOOKING_TRANSACTION,
  );
}
