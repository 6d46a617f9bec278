import type { TxContext } from '../../db/transactions.js';
import type { StockRequest } from '../../generated/prisma/client.js';
import { openReservations, type Reservations, type ReservationSource } from '../inventory/reservations/fefo-reservations.js';

/** The ledger rows of a request's reservations and releases name the request. */
export const reserveSource = (request: StockRequest, comment: string): ReservationSource => ({ transactionType: 'STOCK_REQUEST_RESERVE', sourceType: 'STOCK_REQUEST', sourceId: request.id, comment });
export const releaseSource = (request: StockRequest, comment: string): ReservationSource => ({ transactionType: 'STOCK_REQUEST_RELEASE', sourceType: 'STOCK_REQUEST', sourceId: request.id, comment });

/** The request's lines with the stock lines holding their reservations (oldest allocation first). */
export const linesWithAllocations = (ctx: TxContext, request: StockRequest) =>
  ctx.prisma.stockRequestLine.findMany({
    where: { requestId: request.id },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    include: { allocations: { orderBy: { id: 'asc' }, include: { stockLine: { select: { lotId: true, binId: true } } } } },
  });

/** Sets each line's quantityReserved to the sum of its allocations (one statement for the request). */
export async function syncReservedQuantities(ctx: TxContext, request: StockRequest) {
  await ctx.prisma.$executeRaw`
    UPDATE stock_request_lines l SET "quantityReserved" = COALESCE((SELECT SUM(a.quantity) FROM stock_request_allocations a WHERE a."lineId" = l.id), 0)::int, "updatedAt" = now()
    WHERE l."requestId" = ${request.id}`;
}

/**
 * On approval: reserves each line's approved quantity at the supplying location through the reservations
 * service (first-expiring lots first; expired, recalled and short-dated lots skipped), one allocation per
 * stock line. What is not available is not reserved: the line's quantityReserved shows the shortfall, and
 * fulfilment takes it from what is available then.
 */
export async function reserveApproved(ctx: TxContext, request: StockRequest) {
  const lines = await ctx.prisma.stockRequestLine.findMany({ where: { requestId: request.id, quantityApproved: { gt: 0 } }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  if (!lines.length) return;
  const reservations = await openReservations(ctx, { stockOf: lines.map((l) => ({ productMasterId: l.productMasterId, locationId: request.supplyingLocationId })) });
  const source = reserveSource(request, 'Stock request approved');
  const rows = lines.flatMap((line) =>
    reservations
      .reserve({ productMasterId: line.productMasterId, locationId: request.supplyingLocationId, quantity: line.quantityApproved! - line.quantityFulfilled }, source)
      .map((a) => ({ lineId: line.id, stockLineId: a.stockLineId, quantity: a.quantity })),
  );
  await reservations.write();
  if (rows.length) await ctx.prisma.stockRequestAllocation.createMany({ data: rows });
  await syncReservedQuantities(ctx, request);
}

/**
 * Releases every unit still reserved for the request (a rollback of the approval, a cancellation, a closed
 * remainder), in `session` when the caller has one open over the lines, else in one of its own. At most
 * what each stock line still has reserved is released.
 */
export async function releaseAll(ctx: TxContext, request: StockRequest, comment: string, session?: Reservations) {
  const allocations = await ctx.prisma.stockRequestAllocation.findMany({ where: { line: { requestId: request.id } }, orderBy: { id: 'asc' } });
  if (!allocations.length) return;
  const reservations = session ?? (await openReservations(ctx, { stockOf: [], lineIds: allocations.map((a) => a.stockLineId) }));
  for (const a of allocations) reservations.release(a.stockLineId, a.quantity, releaseSource(request, comment));
  if (!session) await reservations.write();
  await ctx.prisma.stockRequestAllocation.deleteMany({ where: { id: { in: allocations.map((a) => a.id) } } });
  await syncReservedQuantities(ctx, request);
}
