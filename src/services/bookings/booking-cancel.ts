import type { RequestContext } from '../../context.js';
import { inTransaction } from '../../db/transactions.js';
import { actorOf } from '../actor-of.js';
import { withLines } from './booking-confirm.js';
import { removeForecastEvents } from './booking-forecast-events.js';
import type { BookingWithLines } from './booking-shape.js';
import { BOOKING_TRANSACTION, lockBookingFor, moveBooking } from './booking-state.js';
import { bookingSource, openBookingStock, setLineQuantities } from './booking-stock.js';

/**
 * DRAFT or CONFIRMED → CANCELLED. A confirmed booking's reservations are released (BOOKING_RELEASE rows), its
 * allocations removed, its lines hold and lack nothing, and its BOOKING events go. Final.
 */
export function cancelBooking(ctx: RequestContext, input: { id: string }): Promise<BookingWithLines> {
  return inTransaction(
    ctx,
    async (ctx) => {
      const locked = await lockBookingFor(ctx, input.id, 'cancel');
      if (locked.status === 'CONFIRMED') {
        const booking = await withLines(ctx, locked);
        const session = await openBookingStock(ctx, booking);
        const source = bookingSource(booking, 'BOOKING_RELEASE', 'Booking cancelled');
        for (const line of booking.lines) for (const a of line.allocations) session.release(a.stockLineId, a.quantity, source);
        await session.write();
        await ctx.prisma.bookingAllocation.deleteMany({ where: { line: { bookingId: booking.id } } });
        await setLineQuantities(ctx, booking.lines.map((line) => ({ id: line.id, reserved: 0, short: 0 })));
        await removeForecastEvents(ctx, booking);
      }
      return moveBooking(ctx, locked, 'CANCELLED', { cancelledAt: new Date(), cancelledBy: actorOf(ctx).createdBy });
    },
    BOOKING_TRANSACTION,
  );
}
