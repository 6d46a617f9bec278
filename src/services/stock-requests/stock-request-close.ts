import type { RequestContext } from '../../context.js';
import { inTransaction } from '../../db/transactions.js';
import { DomainError } from '../../kernel/errors.js';
import { actorOf } from '../actor-of.js';
import { transfersInTransit } from './stock-request-completion.js';
import type { StockRequestMoveInput } from './stock-request-drafts.js';
import { requestReference } from './stock-request-shape.js';
import { releaseAll } from './stock-request-reservations.js';
import type { StockRequestWithLines } from './stock-request-shape.js';
import { lockRequestFor, moveRequest } from './stock-request-state.js';

/**
 * PARTIALLY_FULFILLED → FULFILLED (POST /{id}/status {FULFILLED}): the unfulfilled remainder is closed and its
 * reservation released, taking what was shipped and received as the whole. Only once every transfer of the
 * request was received (or cancelled): units still in transit are 409 INVALID_STATE.
 */
export function closeStockRequest(ctx: RequestContext, input: StockRequestMoveInput): Promise<StockRequestWithLines> {
  return inTransaction(ctx, async (ctx) => {
    const request = await lockRequestFor(ctx, input.id, 'close the remainder of');
    if (await transfersInTransit(ctx, request)) {
      throw new DomainError('INVALID_STATE', `Cannot move a stock request that is ${request.status} with units in transit to FULFILLED; receive (or cancel) its transfers first`);
    }
    await releaseAll(ctx, request, `Remainder of ${requestReference(request)} closed`);
    const closed = request.remainderClosedAt ? {} : { remainderClosedAt: new Date(), remainderClosedBy: actorOf(ctx).createdBy };
    return moveRequest(ctx, request, 'FULFILLED', closed, input.note);
  });
}
