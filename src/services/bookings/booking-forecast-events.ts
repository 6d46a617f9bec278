import type { TxContext } from '../../db/transactions.js';
import { orgId } from '../tenant.js';
import { bookingReference, type BookingWithLines } from './booking-shape.js';

const DAY_MS = 86_400_000;

/**
 * The BOOKING external events of a confirmed booking, one per line (its product, the booking's location, the
 * booking's week Monday to Sunday), carrying the booked quantity: forecasts add it to that week (no percent lift).
 * They live while the booking is CONFIRMED.
 */
export async function addForecastEvents(ctx: TxContext, booking: BookingWithLines) {
  const reference = bookingReference(booking);
  await ctx.prisma.externalEvent.createMany({
    data: booking.lines.map((line) => ({
      organizationId: orgId(ctx),
      name: `Booking ${reference} (${booking.customer})`.slice(0, 200),
      type: 'BOOKING' as const,
      startsAt: booking.week,
      endsAt: new Date(booking.week.getTime() + 7 * DAY_MS - 1),
      valueDescription: `${line.quantity} unit(s) booked by ${booking.customer} (${reference})`.slice(0, 500),
      isGlobal: false,
      isOrgWide: false,
      productMasterId: line.productMasterId,
      locationId: booking.locationId,
      bookingLineId: line.id,
      bookedQuantity: line.quantity,
    })),
  });
}

/** Removes the booking's BOOKING events (fulfilled: its units are actual demand now; cancelled: no demand). */
export async function removeForecastEvents(ctx: TxContext, booking: BookingWithLines) {
  await ctx.prisma.externalEvent.deleteMany({ where: { organizationId: orgId(ctx), bookingLineId: { in: booking.lines.map((line) => line.id) } } });
}
