import type { RequestContext } from '../../context.js';
import type { StockRequestEvent, StockRequestStatus } from '../../generated/prisma/client.js';
import { followEvents } from '../events/following/followed-stream.js';
import { orgId } from '../tenant.js';
import { MAX_STOCK_REQUEST_EVENTS } from './stock-request-comment.js';
import { getStockRequest } from './stock-request-queries.js';
import type { StockRequestWithLines } from './stock-request-shape.js';

/** States a request does not leave: the stream ends after reaching one. */
const FINAL: StockRequestStatus[] = ['REJECTED', 'FULFILLED', 'CANCELLED'];

/** A message of the status subscription: the request as a move left it, with the move (none in the first). */
export interface StatusChange {
  request: StockRequestWithLines;
  move: StockRequestEvent | null;
}

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

/**
 * The request now, then once per status move or rollback (a `stock_request.moved` event, from any instance),
 * each with the request as it is when the event arrives; ends after a final state, or when the request is
 * deleted (`stock_request.deleted`). The moves the first read already shows are not sent again. Unknown or
 * foreign id: NOT_FOUND.
 */
export function stockRequestStatusChanges(ctx: RequestContext, id: string): Promise<AsyncIterableIterator<StatusChange>> {
  const seen = new Set<string>();
  return followEvents<StatusChange>(ctx, {
    match: (event) => event.subjectId === id && (event.type === 'stock_request.moved' || event.type === 'stock_request.deleted'),
    start: async () => {
      // The moves before the request: a move made in between is then sent once more, never lost.
      for (const move of (await statusMovesOf(ctx, id)) ?? []) seen.add(move.id);
      const request = await getStockRequest(ctx, id);
      return { values: [{ request, move: null }], end: FINAL.includes(request.status) };
    },
    take: async (events) => {
      if (events.some((event) => event.type === 'stock_request.deleted')) return { values: [], end: true };
      const fresh = events.map((event) => String(event.payload.historyEntryId)).filter((entry) => !seen.has(entry));
      if (!fresh.length) return { values: [] };
      for (const entry of fresh) seen.add(entry);
      const [request, moves] = await Promise.all([
        getStockRequest(ctx, id).catch(() => null),
        ctx.prisma.stockRequestEvent.findMany({ where: { id: { in: fresh }, requestId: id }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] }),
      ]);
      if (!request) return { values: [], end: true };
      // Final once the move into the final state is sent: a request read as CANCELLED while the event of its
      // earlier move arrived alone still has the CANCELLED move's event to come.
      const end = FINAL.includes(request.status) && moves.some((move) => move.toStatus === request.status);
      return { values: moves.map((move) => ({ request, move })), end };
    },
  });
}
