import type { TxContext } from '../../db/transactions.js';
import type { StockRequest } from '../../generated/prisma/client.js';
import { orgId } from '../tenant.js';
import { moveRequest } from './stock-request-state.js';

/** Units shipped for the request and not yet received: any of its transfers still IN_TRANSIT. */
export const transfersInTransit = (ctx: TxContext, request: StockRequest) =>
  ctx.prisma.inventoryTransfer.count({ where: { organizationId: orgId(ctx), sourceType: 'STOCK_REQUEST', sourceId: request.id, status: 'IN_TRANSIT' } });

/**
 * A locked PARTIALLY_FULFILLED request is FULFILLED once every approved unit was shipped (or the remainder
 * closed) and every transfer that shipped them was received (or cancelled, its units back at the source).
 * Checked after each receipt, return and closing of the remainder.
 */
export async function completeWhenDone(ctx: TxContext, request: StockRequest, note: string) {
  if (request.status !== 'PARTIALLY_FULFILLED') return request;
  if (await transfersInTransit(ctx, request)) return request;
  if (!request.remainderClosedAt) {
    const [row] = await ctx.prisma.$queryRaw<{ open: number }[]>`
      SELECT count(*)::int AS open FROM stock_request_lines WHERE "requestId" = ${request.id} AND "quantityFulfilled" < COALESCE("quantityApproved", 0)`;
    if (row!.open) return request;
  }
  return moveRequest(ctx, request, 'FULFILLED', {}, note);
}
