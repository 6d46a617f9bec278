import type { z } from 'zod';
import type { bookingCreate } from '../../contracts/bookings/bookings.js';
import type { RequestContext } from '../../context.js';
import { inTransaction, type TxContext } from '../../db/transactions.js';
import { actorOf } from '../actor-of.js';
import { orgId } from '../tenant.js';
import { checkBookingIds, lineRows, weekDate } from './booking-fields.js';
import { BOOKING_WITH_LINES, type BookingWithLines } from './booking-shape.js';
import { BOOKING_TRANSACTION, bookingMoved } from './booking-state.js';

/** The organization's next booking number; creations of one organization queue on a transaction-level advisory lock. */
async function nextNumber(ctx: TxContext): Promise<number> {
  const organizationId = orgId(ctx);
  await ctx.prisma.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`booking-number:${organizationId}`}))`;
  const last = await ctx.prisma.booking.aggregate({ where: { organizationId }, _max: { number: true } });
  return (last._max.number ?? 0) + 1;
}

/** A DRAFT booking: nothing reserved, nothing forecast yet. The location and products must be the organization's (400 naming the field). */
export function createBooking(ctx: RequestContext, input: z.output<typeof bookingCreate>): Promise<BookingWithLines> {
  return inTransaction(
    ctx,
    async (ctx) => {
      await checkBookingIds(ctx, input);
      const { actorType, createdBy } = actorOf(ctx);
      const booking = await ctx.prisma.booking.create({
        data: {
          organizationId: orgId(ctx),
          number: await nextNumber(ctx),
          customer: input.customer,
          customerReference: input.customerReference ?? null,
          locationId: input.locationId,
          week: weekDate(input.week),
          note: input.note ?? null,
          createdByType: actorType,
          createdBy,
          lines: { create: lineRows(input.lines) },
        },
        ...BOOKING_WITH_LINES,
      });
      await bookingMoved(ctx, booking, null);
      return booking;
    },
    BOOKING_TRANSACTION,
  );
}
