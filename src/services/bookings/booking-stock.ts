import type { TxContext } from '../../db/transactions.js';
import type { Booking } from '../../generated/prisma/client.js';
import { openReservations, type Allocation, type Reservations, type ReservationSource } from '../inventory/reservations/fefo-reservations.js';
import { bookingReference, type BookingWithLines } from './booking-shape.js';

type Line = BookingWithLines['lines'][number];

/** What the ledger rows of a booking's stock changes say: the transaction type, the booking, a comment. */
export const bookingSource = (booking: Booking, transactionType: string, comment: string): ReservationSource => ({
  transactionType,
  sourceType: 'BOOKING',
  sourceId: booking.id,
  comment: `${comment} (${bookingReference(booking)})`,
});

/** A reservation session over the booking's products at its location and the stock lines it holds: every line it may touch, locked. */
export const openBookingStock = (ctx: TxContext, booking: BookingWithLines) =>
  openReservations(ctx, {
    stockOf: booking.lines.map((line) => ({ productMasterId: line.productMasterId, locationId: booking.locationId })),
    lineIds: booking.lines.flatMap((line) => line.allocations.map((a) => a.stockLineId)),
  });

const held = (line: Line) => line.allocations.reduce((sum, a) => sum + a.quantity, 0);

/**
 * Reserves in `session` as much as is available of each line's units not yet held (first expiry first out, lots
 * that would expire, or be short-dated, by the booking's week left alone; BOOKING_RESERVE rows), and answers each
 * line's allocations after it (those it held and the new ones, merged per stock line) and what is still short.
 */
export function reserveShort(session: Reservations, booking: BookingWithLines) {
  const source = bookingSource(booking, 'BOOKING_RESERVE', 'Reserved for booking');
  return booking.lines.map((line) => {
    const short = line.quantity - held(line);
    const got = short > 0 ? session.reserve({ productMasterId: line.productMasterId, locationId: booking.locationId, quantity: short, usedFrom: booking.week }, source) : [];
    const merged = new Map<string, Allocation>(line.allocations.map((a) => [a.stockLineId, { stockLineId: a.stockLineId, quantity: a.quantity, lotId: a.lotId, binId: a.binId }]));
    for (const a of got) {
      const before = merged.get(a.stockLineId);
      merged.set(a.stockLineId, before ? { ...before, quantity: before.quantity + a.quantity } : a);
    }
    const allocations = [...merged.values()];
    const reserved = allocations.reduce((sum, a) => sum + a.quantity, 0);
    return { line, allocations, reserved, short: line.quantity - reserved };
  });
}

/** Writes the lines' allocations as given (replacing the booking's) and each line's reserved and short quantities. */
export async function saveAllocations(ctx: TxContext, booking: Booking, lines: { line: Line; allocations: Allocation[]; reserved: number; short: number }[]) {
  await ctx.prisma.bookingAllocation.deleteMany({ where: { line: { bookingId: booking.id } } });
  const rows = lines.flatMap(({ line, allocations }) => allocations.map((a) => ({ lineId: line.id, stockLineId: a.stockLineId, lotId: a.lotId, binId: a.binId, quantity: a.quantity })));
  if (rows.length) await ctx.prisma.bookingAllocation.createMany({ data: rows });
  await setLineQuantities(ctx, lines.map(({ line, reserved, short }) => ({ id: line.id, reserved, short })));
}

/** Each line's reservedQuantity and shortQuantity, in one statement. */
export async function setLineQuantities(ctx: TxContext, lines: { id: string; reserved: number; short: number }[]) {
  if (!lines.length) return;
  await ctx.prisma.$executeRaw`
    UPDATE booking_lines l SET "reservedQuantity" = v.reserved, "shortQuantity" = v.short
    FROM unnest(${lines.map((l) => l.id)}::text[], ${lines.map((l) => l.reserved)}::int[], ${lines.map((l) => l.short)}::int[]) AS v(id, reserved, short)
    WHERE l.id = v.id`;
}
