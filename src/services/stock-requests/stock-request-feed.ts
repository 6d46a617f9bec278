import type { RequestContext } from '../../context.js';
import type { StockRequestEvent } from '../../generated/prisma/client.js';
import { orgId } from '../tenant.js';
import { MAX_STOCK_REQUEST_EVENTS } from './stock-request-comment.js';

/**
 * The status moves and rollbacks of the organization's request (STATUS and ROLLBACK entries of its history),
 * oldest first (the latest 1000); null when the request is unknown, foreign, or gone (a deleted DRAFT).
 */
export async function statusMovesOf(ctx: RequestContext, id: string): Promise<StockRequestEvent[] | null> {
  const request = await ctx.prisma.stockRequest.findFirst({
    where: { id, organizationId: orgId(ctx) },
    select: { events: { where: { kind: { in: ['STATUS', 'ROLLBACK'] } }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: MAX_STOCK_REQUEST_EVENTS } },
  });
  return request ? request.events.reverse() : null;
}
