import type { z } from 'zod';
import { BOOKINGS_DEFAULT_LIMIT, type bookingListQuery } from '../../contracts/bookings/booking-queries.js';
import type { RequestContext } from '../../context.js';
import type { BookingStatus, Prisma } from '../../generated/prisma/client.js';
import { notFound } from '../../kernel/errors.js';
import { checkFilterIds } from '../filter-ids.js';
import { escapeLike } from '../search.js';
import { type ListWindow, orgId } from '../tenant.js';
import { weekDate } from './booking-fields.js';
import { BOOKING_WITH_LINES } from './booking-shape.js';

export type BookingListArgs = z.output<typeof bookingListQuery>;

/** A page of the organization's bookings, by week then newest first, with the total; a connection's window replaces limit and offset. */
export async function listBookings(ctx: RequestContext, f: BookingListArgs, window?: ListWindow) {
  await checkFilterIds(ctx, { locationId: f.locationId, productMasterId: f.productId });
  const where: Prisma.BookingWhereInput = {
    organizationId: orgId(ctx),
    ...(f.status?.length ? { status: { in: f.status as BookingStatus[] } } : {}),
    ...(f.locationId ? { locationId: f.locationId } : {}),
    ...(f.productId ? { lines: { some: { productMasterId: f.productId } } } : {}),
    ...(f.customer ? { customer: { contains: escapeLike(f.customer), mode: 'insensitive' } } : {}),
    ...(f.weekFrom || f.weekTo ? { week: { ...(f.weekFrom ? { gte: weekDate(f.weekFrom) } : {}), ...(f.weekTo ? { lte: weekDate(f.weekTo) } : {}) } } : {}),
  };
  const limit = window ? window.take : (f.limit ?? BOOKINGS_DEFAULT_LIMIT);
  const offset = window ? window.skip : (f.offset ?? 0);
  const [bookings, total] = await Promise.all([
    ctx.prisma.booking.findMany({ where, orderBy: [{ week: 'asc' }, { createdAt: 'desc' }, { id: 'desc' }], skip: offset, take: limit, ...BOOKING_WITH_LINES }),
    ctx.prisma.booking.count({ where }),
  ]);
  return { bookings, total, limit, offset };
}

/** One booking of the organization with its lines and allocations; unknown or foreign: 404. */
export async function getBooking(ctx: RequestContext, id: string) {
  const booking = await ctx.prisma.booking.findFirst({ where: { id, organizationId: orgId(ctx) }, ...BOOKING_WITH_LINES });
  if (!booking) throw notFound('Booking');
  return booking;
}
