import type { RequestContext } from '../../context.js';
import type { StockRequestEvent, StockRequestStatus } from '../../generated/prisma/client.js';
import { statusMovesOf } from '../../services/stock-requests/stock-request-feed.js';
import { getStockRequest } from '../../services/stock-requests/stock-request-queries.js';
import type { StockRequestWithLines } from '../../services/stock-requests/stock-request-shape.js';
import { builder } from '../builder.js';
import { pollingStream } from '../polling-stream.js';
import { StockRequestEventRef, StockRequestRef } from './stock-request-types.js';

/** How often a subscription reads the request's history. */
const POLL_MS = 500;

/** States a request does not leave: the stream ends after reaching one. */
const FINAL: StockRequestStatus[] = ['REJECTED', 'FULFILLED', 'CANCELLED'];

interface StatusChange {
  request: StockRequestWithLines;
  move: StockRequestEvent | null;
}

/**
 * The request now, then once per status move or rollback that enters its history (read by polling, so
 * moves made by any instance are seen), each with the request as it is when seen; ends after a final
 * state, or when the request is deleted. Moves are told apart by their history entry, so a move and its
 * rollback between two reads are both sent.
 */
async function statusChanges(ctx: RequestContext, id: string): Promise<AsyncIterableIterator<StatusChange>> {
  // The moves before the request: a move made in between is then sent once more, never lost.
  const seen = new Set((await statusMovesOf(ctx, id))?.map((move) => move.id) ?? []);
  const request = await getStockRequest(ctx, id);
  return pollingStream<StatusChange>(POLL_MS, { values: [{ request, move: null }], end: FINAL.includes(request.status) }, async () => {
    const moves = await statusMovesOf(ctx, id);
    if (!moves) return { values: [], end: true };
    const fresh = moves.filter((move) => !seen.has(move.id));
    if (!fresh.length) return { values: [] };
    for (const move of fresh) seen.add(move.id);
    const now = await getStockRequest(ctx, id).catch(() => null);
    if (!now) return { values: [], end: true };
    return { values: fresh.map((move) => ({ request: now, move })), end: FINAL.includes(now.status) };
  });
}

const StatusChangeRef = builder.objectRef<StatusChange>('StockRequestStatusChange').implement({
  description: 'A stock request as a status move left it, with the move (its history entry).',
  fields: (t) => ({
    request: t.field({ type: StockRequestRef, description: 'The request as it is when the move was seen.', resolve: (c) => c.request }),
    move: t.field({
      type: StockRequestEventRef,
      nullable: true,
      description: 'The move (the history entry that changed the status: kind, from, to, who, when, note); null in the first message, the request as it was when the subscription started.',
      resolve: (c) => c.move,
    }),
  }),
});

builder.subscriptionFields((t) => ({
  stockRequestStatusChanged: t.field({
    type: StatusChangeRef,
    description:
      "Follows a stock request over graphql-ws: the request now, then the request and the move each time its status changes (a move, a rollback or a fulfilment in its history), ending after REJECTED, FULFILLED or CANCELLED or when it is deleted. Unknown or another organization's id: NOT_FOUND.",
    authScopes: { permission: 'stockrequests.read' },
    args: { id: t.arg.id({ required: true, description: 'The stock request.' }) },
    subscribe: (_parent, args, ctx) => statusChanges(ctx, String(args.id)),
    resolve: (change) => change,
  }),
}));
