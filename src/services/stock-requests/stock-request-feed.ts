import type { RequestContext } from '../../context.js';
import type { StockRequestEvent } from '../../generated/prisma/client.js';
import { orgId } from '../tenant.js';
import { MAX_STOCK_REQUEST_EVENTS } from './stock-request-comment.js';

/**
 * The entries of the organization's request's history that changed its status (a move, a rollback, a
 * fulfilment out of APPROVED, whatever their kind), oldest first (of the latest 1000 entries with a status);
 * null when the request is unknown, foreign, or gone (a deleted DRAFT).
 */
export async function statusMovesOf(ctx: RequestContext, id: string): Promise<StockRequestEvent[] | null> {
  const request = await ctx.prisma.stockRequest.findFirst({
    where: { id, organizationId: orgId(ctx) },
    select: { events: { where: { toStatus: { not: null } }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: MAX_STOCK_REQUEST_EVENTS } },
  });
  return request ? request.events.reverse().filter((event) => event.fromStatus !== event.toStatus) : null;
}
