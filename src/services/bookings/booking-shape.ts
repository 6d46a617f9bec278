import type { Prisma } from '../../generated/prisma/client.js';

/** A booking as every answer carries it: its lines in order, each with the stock lines (lot, bin) holding its reserved units. */
export const BOOKING_WITH_LINES = {
  include: { lines: { orderBy: { lineNumber: 'asc' }, include: { allocations: { orderBy: { id: 'asc' } } } } },
} as const satisfies { include: Prisma.BookingInclude };

export type BookingWithLines = Prisma.BookingGetPayload<typeof BOOKING_WITH_LINES>;

/** A booking's number as people write it: BK- and six digits or more. */
export const bookingReference = (booking: { number: number }) => `BK-${String(booking.number).padStart(6, '0')}`;

/** The booking's week (a Monday) as YYYY-MM-DD. */
export const weekText = (booking: { week: Date }) => booking.week.toISOString().slice(0, 10);
