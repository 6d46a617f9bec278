import type { z } from 'zod';
import type { stockRequestReject } from '../../contracts/stock-requests/stock-requests.js';
import type { RequestContext } from '../../context.js';
import { inTransaction } from '../../db/transactions.js';
import { DomainError } from '../../kernel/errors.js';
import { actorOf } from '../actor-of.js';
import { authOf } from '../tenant.js';
import type { StockRequestWithLines } from './stock-request-shape.js';
import { lockRequestFor, moveRequest } from './stock-request-state.js';

export type StockRequestRejectInput = z.output<typeof stockRequestReject>;

/** SUBMITTED → REJECTED with a reason, by an approver (stockrequests.approve). Final. */
export function rejectStockRequest(ctx: RequestContext, input: StockRequestRejectInput): Promise<StockRequestWithLines> {
  return inTransaction(ctx, async (ctx) => {
    const request = await lockRequestFor(ctx, input.id, 'reject');
    if (!authOf(ctx).permissions.has('stockrequests.approve')) throw new DomainError('FORBIDDEN', 'Rejecting a stock request needs the stockrequests.approve permission');
    return moveRequest(ctx, request, 'REJECTED', { rejectedAt: new Date(), rejectedBy: actorOf(ctx).createdBy, rejectionReason: input.reason }, input.reason);
  });
}
