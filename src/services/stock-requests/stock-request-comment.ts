import type { z } from 'zod';
import type { stockRequestComment } from '../../contracts/stock-requests/stock-requests.js';
import type { RequestContext } from '../../context.js';
import { inTransaction } from '../../db/transactions.js';
import { DomainError } from '../../kernel/errors.js';
import type { StockRequestEvent } from '../../generated/prisma/client.js';
import { lockRequestFor, recordEvent } from './stock-request-state.js';

export type StockRequestCommentInput = z.output<typeof stockRequestComment>;

/** How many entries one request's history may hold: comments beyond it are refused (409). */
export const MAX_STOCK_REQUEST_EVENTS = 1000;

/** A comment in the request's history, in any state. */
export function commentOnStockRequest(ctx: RequestContext, input: StockRequestCommentInput): Promise<StockRequestEvent> {
  return inTransaction(ctx, async (ctx) => {
    const request = await lockRequestFor(ctx, input.id, 'comment on');
    if ((await ctx.prisma.stockRequestEvent.count({ where: { requestId: request.id } })) >= MAX_STOCK_REQUEST_EVENTS) {
      throw new DomainError('INVALID_STATE', `A stock request's history holds at most ${MAX_STOCK_REQUEST_EVENTS} entries`);
    }
    return recordEvent(ctx, request.id, 'COMMENT', { note: input.note });
  });
}
