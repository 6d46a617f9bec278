import type { z } from 'zod';
import type { stockRequestStatusMove } from '../../contracts/stock-requests/stock-requests.js';
import type { RequestContext } from '../../context.js';
import { approveStockRequest } from './stock-request-approve.js';
import { cancelStockRequest } from './stock-request-cancel.js';
import { closeStockRequest } from './stock-request-close.js';
import { fulfilStockRequest } from './stock-request-fulfil.js';
import { rejectStockRequest } from './stock-request-reject.js';
import type { StockRequestWithLines } from './stock-request-shape.js';
import { submitStockRequest } from './stock-request-submit.js';

export type StockRequestStatusInput = z.output<typeof stockRequestStatusMove>;

/** POST /{id}/status: a move named by the state it reaches, made by the transition of that name (its rules and permissions). */
export function moveStockRequest(ctx: RequestContext, input: StockRequestStatusInput): Promise<StockRequestWithLines> {
  const { id, note } = input;
  switch (input.status) {
    case 'SUBMITTED':
      return submitStockRequest(ctx, { id, note });
    case 'APPROVED':
      return approveStockRequest(ctx, { id, note });
    case 'REJECTED':
      return rejectStockRequest(ctx, { id, reason: note! });
    case 'CANCELLED':
      return cancelStockRequest(ctx, { id, note });
    case 'PARTIALLY_FULFILLED':
      return fulfilStockRequest(ctx, { id, note });
    case 'FULFILLED':
      return closeStockRequest(ctx, { id, note });
  }
}
