import type { RequestContext } from '../../context.js';
import { inTransaction } from '../../db/transactions.js';
import { DomainError } from '../../kernel/errors.js';
import type { StockRequestMoveInput } from './stock-request-drafts.js';
import type { StockRequestWithLines } from './stock-request-shape.js';
import { lockRequestFor, moveRequest } from './stock-request-state.js';

/** DRAFT → SUBMITTED: submittedAt set; from now on only an approver changes its lines (approved quantities). */
export function submitStockRequest(ctx: RequestContext, input: StockRequestMoveInput): Promise<StockRequestWithLines> {
  return inTransaction(ctx, async (ctx) => {
    const request = await lockRequestFor(ctx, input.id, 'submit');
    if (!(await ctx.prisma.stockRequestLine.count({ where: { requestId: request.id } }))) throw new DomainError('INVALID_STATE', 'Cannot submit a stock request without lines');
    return moveRequest(ctx, request, 'SUBMITTED', { submittedAt: new Date() }, input.note);
  });
}
