import type { RequestContext } from '../../context.js';
import { inTransaction } from '../../db/transactions.js';
import { DomainError } from '../../kernel/errors.js';
import type { StockRequestMoveInput } from './stock-request-drafts.js';
import type { StockRequestWithLines } from './stock-request-shape.js';
import { releaseAll } from './stock-request-reservations.js';
import { lockRequestFor, moveRequest } from './stock-request-state.js';

/**
 * Back one step, before any fulfilment:
 * - APPROVED → SUBMITTED undoes the approval: approvedAt and approvedBy cleared, the reservation released; the
 *   approved quantities stay as the approver's proposal (an approver may change them, and approving again keeps them).
 * - SUBMITTED → DRAFT undoes the submission: submittedAt and every approved quantity cleared, so the
 *   requester can edit the request again.
 * A line with units fulfilled: 409 INVALID_STATE (a fulfilled request is PARTIALLY_FULFILLED, which rolls back no further; the check
 * also holds should a state table change let one through).
 */
export function rollbackStockRequest(ctx: RequestContext, input: StockRequestMoveInput): Promise<StockRequestWithLines> {
  return inTransaction(ctx, async (ctx) => {
    const request = await lockRequestFor(ctx, input.id, 'roll back');
    if (await ctx.prisma.stockRequestLine.count({ where: { requestId: request.id, quantityFulfilled: { gt: 0 } } })) {
      throw new DomainError('INVALID_STATE', `Cannot roll back a stock request that is ${request.status} with units fulfilled`);
    }
    if (request.status === 'APPROVED') {
      await releaseAll(ctx, request, 'Stock request approval rolled back');
      return moveRequest(ctx, request, 'SUBMITTED', { approvedAt: null, approvedBy: null }, input.note, 'ROLLBACK');
    }
    await ctx.prisma.stockRequestLine.updateMany({ where: { requestId: request.id }, data: { quantityApproved: null } });
    return moveRequest(ctx, request, 'DRAFT', { submittedAt: null }, input.note, 'ROLLBACK');
  });
}
