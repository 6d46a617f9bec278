import { builder } from '../../builder.js';
import { ProductType } from '../../products/product.js';
import { LocationType } from '../../master-data/location.js';
import { ownProduct, ownLocation, linked } from '../../record-loaders.js';
import { sumOf } from '../../../kernel/quantity-totals.js';
import type { TransferWithLines } from '../../../services/transfers/inventory-transfers/transfer-shape.js';
import { NodeRef } from '../../node/node-interface.js';
import { BinType, LotType, StockLineType } from '../../inventory/stock-lines/stock-line.js';
import { readScopesOf } from '../../link-scopes.js';

type TransferLine = TransferWithLines['lines'][number];
type TransferPiece = TransferLine['shipments'][number];

export const InventoryTransferStatusEnum = builder.enumType('InventoryTransferStatus', {
  description: 'Where a transfer is: DRAFT → IN_TRANSIT → RECEIVED, or CANCELLED (from DRAFT or IN_TRANSIT).',
  values: {
    DRAFT: { description: 'Planned: may be changed, shipped or cancelled; no stock has moved.' },
    IN_TRANSIT: { description: 'Shipped: the stock left the source; receipts (partial allowed) or a cancellation follow.' },
    RECEIVED: { description: 'Every shipped unit was received at the destination.' },
    CANCELLED: { description: 'Cancelled; units that were in transit went back to the source lots they left.' },
  } as const,
});

const PieceRef = builder.objectRef<TransferPiece>('InventoryTransferLot').implement({
  interfaces: [NodeRef],
  description: 'Units of a shipped line taken from one source stock line (lot and bin), and what became of them.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Identifier.' }),
    sourceStockLineId: t.exposeID('sourceStockLineId', { description: 'The source stock line the units left.' }),
    sourceStockLine: t.field({ type: StockLineType, nullable: true, authScopes: readScopesOf('StockLine'), description: 'The source stock line the units left (null only when it was deleted since).', resolve: (row, _args, ctx) => linked(ctx, 'stockLine', row.sourceStockLineId) }),
    lotId: t.exposeID('lotId', { nullable: true, description: 'Their lot, kept at the destination.' }),
    lot: t.field({ type: LotType, nullable: true, authScopes: readScopesOf('Lot'), description: 'Their lot (null when they have none).', resolve: (row, _args, ctx) => linked(ctx, 'lot', row.lotId) }),
    lotCode: t.string({ nullable: true, description: 'Code of the lot.', resolve: (p) => p.lot?.code ?? null }),
    expiryDate: t.field({ type: 'Date', nullable: true, description: 'Expiry date of the lot.', resolve: (p) => p.lot?.expiryDate ?? null }),
    binId: t.exposeID('binId', { nullable: true, description: 'The source bin they left.' }),
    bin: t.field({ type: BinType, nullable: true, authScopes: readScopesOf('Bin'), description: 'The source bin they left (null when none).', resolve: (row, _args, ctx) => linked(ctx, 'bin', row.binId) }),
    quantity: t.exposeInt('quantity', { description: 'Units shipped from this stock line.' }),
    receivedQuantity: t.exposeInt('receivedQuantity', { description: 'Of those, units received at the destination.' }),
    returnedQuantity: t.exposeInt('returnedQuantity', { description: 'Of those, units returned to the source by a cancellation.' }),
  }),
});

const LineRef = builder.objectRef<TransferLine>('InventoryTransferLine').implement({
  interfaces: [NodeRef],
  description: 'One product of a transfer: asked, shipped and received quantities, and the lots shipped.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Identifier (name it in a receipt).' }),
    lineNumber: t.exposeInt('lineNumber', { description: 'Position in the transfer, from 1.' }),
    productMasterId: t.exposeID('productMasterId', { description: 'The product.' }),
    product: t.field({ type: ProductType, description: 'The product.', resolve: (row, _args, ctx) => ownProduct(ctx, row.productMasterId) }),
    quantity: t.exposeInt('quantity', { description: 'Units to move.' }),
    lotId: t.exposeID('lotId', { nullable: true, description: 'Ship only from this lot (null: first-expiring lots first).' }),
    lot: t.field({ type: LotType, nullable: true, authScopes: readScopesOf('Lot'), description: 'The only lot to ship from (null: any).', resolve: (row, _args, ctx) => linked(ctx, 'lot', row.lotId) }),
    binId: t.exposeID('binId', { nullable: true, description: 'Ship only from this source bin.' }),
    bin: t.field({ type: BinType, nullable: true, authScopes: readScopesOf('Bin'), description: 'The only source bin to ship from (null: any).', resolve: (row, _args, ctx) => linked(ctx, 'bin', row.binId) }),
    destBinId: t.exposeID('destBinId', { nullable: true, description: 'Destination bin for receipts (unless a receipt names another).' }),
    destBin: t.field({ type: BinType, nullable: true, authScopes: readScopesOf('Bin'), description: 'The destination bin for receipts (null without one).', resolve: (row, _args, ctx) => linked(ctx, 'bin', row.destBinId) }),
    shippedQuantity: t.exposeInt('shippedQuantity', { description: 'Units shipped (0 before shipping).' }),
    receivedQuantity: t.exposeInt('receivedQuantity', { description: 'Units received so far.' }),
    inTransitQuantity: t.int({
      description: 'Units shipped and not received (0 once cancelled).',
      resolve: (l) => l.shipments.reduce((sum, p) => sum + p.quantity - p.receivedQuantity - p.returnedQuantity, 0),
    }),
    lots: t.field({ type: [PieceRef], description: 'Where the shipped units came from: source stock line, lot, bin, quantity.', resolve: (l) => l.shipments }),
  }),
});

export const InventoryTransferRef = builder.objectRef<TransferWithLines>('InventoryTransfer').implement({
  interfaces: [NodeRef],
  description: 'Stock moving from one location to another, line by line, through the stock ledger.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Identifier.' }),
    sourceLocationId: t.exposeID('sourceLocationId', { description: 'Where the stock leaves from.' }),
    sourceLocation: t.field({ type: LocationType, description: 'The location the stock leaves from.', resolve: (row, _args, ctx) => ownLocation(ctx, row.sourceLocationId) }),
    destLocationId: t.exposeID('destLocationId', { description: 'Where the stock goes.' }),
    destLocation: t.field({ type: LocationType, description: 'The location the stock goes to.', resolve: (row, _args, ctx) => ownLocation(ctx, row.destLocationId) }),
    status: t.field({ type: InventoryTransferStatusEnum, description: 'DRAFT, IN_TRANSIT, RECEIVED or CANCELLED.', resolve: (x) => x.status }),
    reference: t.exposeString('reference', { nullable: true, description: 'Your reference.' }),
    notes: t.exposeString('notes', { nullable: true, description: 'Free text.' }),
    expectedAt: t.expose('expectedAt', { type: 'Date', nullable: true, description: 'Expected arrival date.' }),
    sourceType: t.exposeString('sourceType', { nullable: true, description: 'What it was made for, for example RECOMMENDATION.' }),
    sourceId: t.exposeString('sourceId', { nullable: true, description: 'The id of what it was made for.' }),
    createdByType: t.exposeString('createdByType', { description: 'USER or API_KEY.' }),
    createdBy: t.exposeString('createdBy', { description: "The creating user's or API key's id." }),
    shippedAt: t.expose('shippedAt', { type: 'DateTime', nullable: true, description: 'When it was shipped.' }),
    shippedBy: t.exposeString('shippedBy', { nullable: true, description: 'Who shipped it (user or API key id).' }),
    receivedAt: t.expose('receivedAt', { type: 'DateTime', nullable: true, description: 'When the last shipped unit was received.' }),
    cancelledAt: t.expose('cancelledAt', { type: 'DateTime', nullable: true, description: 'When it was cancelled.' }),
    cancelledBy: t.exposeString('cancelledBy', { nullable: true, description: 'Who cancelled it (user or API key id).' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When it last changed.' }),
    totalQuantity: t.field({ type: 'BigQuantity', description: 'Units asked, over all lines (may exceed Int: up to 500 lines of 2147483647).', resolve: (x) => sumOf(x.lines, (l) => l.quantity) }),
    totalShipped: t.field({ type: 'BigQuantity', description: 'Units shipped, over all lines.', resolve: (x) => sumOf(x.lines, (l) => l.shippedQuantity) }),
    totalReceived: t.field({ type: 'BigQuantity', description: 'Units received, over all lines.', resolve: (x) => sumOf(x.lines, (l) => l.receivedQuantity) }),
    lines: t.field({ type: [LineRef], description: 'The lines, in order.', resolve: (x) => x.lines }),
  }),
});
