import type { RequestContext } from '../../context.js';
import { inTransaction } from '../../db/transactions.js';
import { actorOf } from '../actor-of.js';
import type { StockRequestMoveInput } from './stock-request-drafts.js';
import type { StockRequestWithLines } from './stock-request-shape.js';
import { releaseAll } from './stock-request-reservations.js';
import { lockRequestFor, moveRequest } from './stock-request-state.js';

/** DRAFT, SUBMITTED or APPROVED → CANCELLED: cancelledAt and cancelledBy set; what an approval reserved is released. Final. */
export function cancelStockRequest(ctx: RequestContext, input: StockRequestMoveInput): Promise<StockRequestWithLines> {
  return inTransaction(ctx, async (ctx) => {
    const request = await lockRequestFor(ctx, input.id, 'cancel');
    await releaseAll(ctx, request, 'Stock request cancelled');
    return moveRequest(ctx, request, 'CANCELLED', { cancelledAt: new Date(), cancelledBy: actorOf(ctx).createdBy }, input.note);
  });
}
