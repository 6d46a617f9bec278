import type { RequestContext } from '../../context.js';
import { inTransaction } from '../../db/transactions.js';
import { DomainError, newFieldErrors } from '../../kernel/errors.js';
import { actorOf } from '../actor-of.js';
import { withLines } from './booking-confirm.js';
import { removeForecastEvents } from './booking-forecast-events.js';
import type { BookingWithLines } from './booking-shape.js';
import { BOOKING_TRANSACTION, lockBookingFor, moveBooking } from './booking-state.js';
import { bookingSource, openBookingStock, reserveShort, saveAllocations } from './booking-stock.js';

/**
 * CONFIRMED → FULFILLED: every booked unit leaves the location through the ledger. The short rest of each line is
 * reserved first if it is available now (BOOKING_RESERVE), then every reserved unit is shipped out (reserved and on
 * hand down together, BOOKING_OUT rows). A line still short, or a stock line that no longer holds its reserved
 * units: 400 INSUFFICIENT_STOCK naming the line, and nothing changes (all or nothing). The booking's BOOKING
 * events go: its units are actual demand now.
 */
export function fulfilBooking(ctx: RequestContext, input: { id: string }): Promise<BookingWithLines> {
  return inTransaction(
    ctx,
    async (ctx) => {
      const locked = await lockBookingFor(ctx, input.id, 'fulfil');
      const booking = await withLines(ctx, locked);
      const session = await openBookingStock(ctx, booking);
      const lines = reserveShort(session, booking);
      const errors = newFieldErrors();
      const out = bookingSource(booking, 'BOOKING_OUT', `Shipped to ${booking.customer}`);
      for (const [i, { line, allocations, short }] of lines.entries()) {
        if (short > 0) {
          errors[`lines.${i}.quantity`] = [`Only ${line.quantity - short} of ${line.quantity} unit(s) are available at the location`];
          continue;
        }
        for (const a of allocations) {
          const shipped = session.shipReserved(a.stockLineId, a.quantity, out);
          if (shipped < a.quantity) (errors[`lines.${i}.quantity`] ??= []).push(`Only ${shipped} of ${a.quantity} reserved unit(s) are still held on stock line ${a.stockLineId}`);
        }
      }
      if (Object.keys(errors).length) throw new DomainError('INSUFFICIENT_STOCK', 'Not enough stock at the location to fulfil the booking', { details: errors });
      await session.write();
      await saveAllocations(ctx, booking, lines.map((l) => ({ ...l, reserved: 0, short: 0 })));
      await removeForecastEvents(ctx, booking);
      return moveBooking(ctx, locked, 'FULFILLED', { fulfilledAt: new Date(), fulfilledBy: actorOf(ctx).createdBy });
    },
    BOOKING_TRANSACTION,
  );
}
