import { type StockChange, stockChanges } from '../../../services/events/stock-changes/stock-changes.js';
import { builder } from '../../builder.js';

type Entry = StockChange['changes'][number];

const StockChangeEntryRef = builder.objectRef<Entry>('StockChangeEntry').implement({
  description: 'One ledger row of a stock change: a bucket of the line moved by deltaQty.',
  fields: (t) => ({
    transactionId: t.exposeString('transactionId', { description: 'The ledger row (a stock transaction).' }),
    transactionType: t.exposeString('transactionType', { description: 'What moved the stock: ADJUSTMENT, RECEIPT, RESERVE, PICK, TRANSFER_OUT, ...' }),
    bucket: t.exposeString('bucket', { description: 'The quantity of the line that moved: ON_HAND, RESERVED, ON_HOLD, PICKED, RECALLED or EXPIRED.' }),
    deltaQty: t.exposeInt('deltaQty', { description: 'The change of that quantity (negative: down).' }),
    qtyAfter: t.exposeInt('qtyAfter', { description: 'That quantity of the line after the row.' }),
    sourceType: t.exposeString('sourceType', { nullable: true, description: 'The kind of document that caused the change (ADJUSTMENT_REQUEST, TRANSFER, ...), if any.' }),
    sourceId: t.exposeString('sourceId', { nullable: true, description: 'The document that caused the change, if any.' }),
  }),
});

const StockChangeRef = builder.objectRef<StockChange>('StockChange').implement({
  description: "Stock changed on one stock line: the ledger rows one statement of a change wrote for it, in order (a domain event 'stock.changed', docs/events.md).",
  fields: (t) => ({
    eventId: t.exposeString('eventId', { description: 'The outbox event (increasing in the order events are published).' }),
    stockLineId: t.exposeString('stockLineId', { description: 'The stock line (product, location, lot and bin) that changed.' }),
    productId: t.exposeString('productId', { description: 'The product of the line.' }),
    locationId: t.exposeString('locationId', { description: 'The location of the line.' }),
    occurredAt: t.field({ type: 'DateTime', description: 'When the change was written (its transaction).', resolve: (c) => c.occurredAt }),
    changes: t.field({ type: [StockChangeEntryRef], description: 'The ledger rows, in write order.', resolve: (c) => c.changes }),
  }),
});

builder.subscriptionFields((t) => ({
  stockChanged: t.field({
    type: StockChangeRef,
    description:
      "Stock changes of the caller's organization at a location, of a product, or of a product at a location (give at least one), from the moment of subscribing, made through any server instance; fed by the published domain events (docs/events.md), not by polling. Unknown or another organization's id: NOT_FOUND.",
    authScopes: { permission: 'inventory.read' },
    args: {
      locationId: t.arg.id({ required: false, description: 'Only changes at this location.' }),
      productId: t.arg.id({ required: false, description: 'Only changes of this product.' }),
    },
    subscribe: (_parent, args, ctx) => stockChanges(ctx, { locationId: args.locationId == null ? null : String(args.locationId), productId: args.productId == null ? null : String(args.productId) }),
    resolve: (change) => change,
  }),
}));
