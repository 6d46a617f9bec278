import { type StatusChange, stockRequestStatusChanges } from '../../services/stock-requests/stock-request-feed.js';
import { builder } from '../builder.js';
import { StockRequestEventRef, StockRequestRef } from './stock-request-types.js';

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
    subscribe: (_parent, args, ctx) => stockRequestStatusChanges(ctx, String(args.id)),
    resolve: (change) => change,
  }),
}));
