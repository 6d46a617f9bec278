import type { RequestContext } from '../../context.js';
import { inTransaction, type TxContext } from '../../db/transactions.js';
import type { Booking } from '../../generated/prisma/client.js';
import { isoWeekStart } from '../../kernel/iso-weeks.js';
import { validationError } from '../../kernel/errors.js';
import { actorOf } from '../actor-of.js';
import { addForecastEvents } from './booking-forecast-events.js';
import { BOOKING_WITH_LINES, type BookingWithLines } from './booking-shape.js';
import { BOOKING_TRANSACTION, lockBookingFor, moveBooking } from './booking-state.js';
import { openBookingStock, reserveShort, saveAllocations } from './booking-stock.js';

/** The locked booking with its lines and allocations. */
export const withLines = (ctx: TxContext, booking: Booking): Promise<BookingWithLines> =>
  ctx.prisma.booking.findUniqueOrThrow({ where: { id: booking.id }, ...BOOKING_WITH_LINES });

/**
 * DRAFT → CONFIRMED, in one transaction under the booking's row lock: the week must not be past (this week or
 * later; 400 on `week`); as much of each line as is available at the location is reserved (BOOKING_RESERVE rows,
 * first expiry first out, no lot that expires or is short-dated by the booking's week), the rest of each line is
 * its shortQuantity (outbound demand in the planning projection); each line becomes a BOOKING event for forecasting.
 */
export function confirmBooking(ctx: RequestContext, input: { id: string }): Promise<BookingWithLines> {
  return inTransaction(
    ctx,
    async (ctx) => {
      const locked = await lockBookingFor(ctx, input.id, 'confirm');
      const thisWeek = isoWeekStart(new Date());
      if (locked.week.getTime() < thisWeek.getTime()) {
        throw validationError({ week: [`Must not be in the past to confirm (this week starts ${thisWeek.toISOString().slice(0, 10)})`] }, 'The booking week is past');
      }
      const booking = await withLines(ctx, locked);
      const session = await openBookingStock(ctx, booking);
      const lines = reserveShort(session, booking);
      await session.write();
      await saveAllocations(ctx, booking, lines);
      await addForecastEvents(ctx, booking);
      return moveBooking(ctx, locked, 'CONFIRMED', { confirmedAt: new Date(), confirmedBy: actorOf(ctx).createdBy });
    },
    BOOKING_TRANSACTION,
  );
}
