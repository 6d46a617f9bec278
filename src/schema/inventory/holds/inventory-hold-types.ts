import { builder } from '../../builder.js';
import { ProductType } from '../../products/product.js';
import { LocationType } from '../../master-data/location.js';
import { linked, locationOf, productOf } from '../../record-loaders.js';
import { sumOf } from '../../../kernel/quantity-totals.js';
import type { HoldWithLines } from '../../../services/inventory/holds/hold-shape.js';
import { NodeRef } from '../../node/node-interface.js';
import { BinType, LotType, StockLineType } from '../stock-lines/stock-line.js';
import { readScopesOf } from '../../link-scopes.js';

type HoldLine = HoldWithLines['lines'][number];

export const InventoryHoldStatusEnum = builder.enumType('InventoryHoldStatus', {
  description: 'Where a hold is: ACTIVE → RELEASED (released in full), or EXPIRED (its expiresAt passed while ACTIVE).',
  values: {
    ACTIVE: { description: 'Holding units (partial releases keep it ACTIVE while it holds any).' },
    RELEASED: { description: 'Released in full; nothing held.' },
    EXPIRED: { description: 'Its expiry passed: what it still held was released by itself on the next read.' },
  } as const,
});

export const InventoryHoldScopeEnum = builder.enumType('InventoryHoldScope', {
  description: 'What a hold names.',
  values: {
    STOCK_LINE: { description: 'One stock line.' },
    LOT: { description: 'Every stock line of a lot, at one location or at all of them.' },
    PRODUCT_AT_LOCATION: { description: 'Every stock line of a product at a location (every lot and bin).' },
  } as const,
});

const held = (line: HoldLine) => line.quantity - line.releasedQuantity;

const LineRef = builder.objectRef<HoldLine>('InventoryHoldLine').implement({
  interfaces: [NodeRef],
  description: 'Units of one stock line a hold holds.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Identifier.' }),
    stockLineId: t.exposeID('stockLineId', { description: 'The stock line held.' }),
    stockLine: t.field({ type: StockLineType, nullable: true, authScopes: readScopesOf('StockLine'), description: 'The stock line held (null only when it was deleted since).', resolve: (row, _args, ctx) => linked(ctx, 'stockLine', row.stockLineId) }),
    productMasterId: t.id({ description: 'The product of the stock line.', resolve: (row) => row.stockLine.productMasterId }),
    product: t.field({ type: ProductType, nullable: true, description: 'The product of the stock line.', resolve: (row, _args, ctx) => productOf(ctx, row.stockLine.productMasterId) }),
    locationId: t.id({ description: 'The location of the stock line.', resolve: (row) => row.stockLine.locationId }),
    location: t.field({ type: LocationType, nullable: true, description: 'The location of the stock line.', resolve: (row, _args, ctx) => locationOf(ctx, row.stockLine.locationId) }),
    lotId: t.id({ nullable: true, description: 'The lot of the stock line (null without one).', resolve: (row) => row.stockLine.lotId }),
    lot: t.field({ type: LotType, nullable: true, authScopes: readScopesOf('Lot'), description: 'The lot of the stock line (null without one).', resolve: (row, _args, ctx) => linked(ctx, 'lot', row.stockLine.lotId) }),
    binId: t.id({ nullable: true, description: 'The bin of the stock line (null without one).', resolve: (row) => row.stockLine.binId }),
    bin: t.field({ type: BinType, nullable: true, authScopes: readScopesOf('Bin'), description: 'The bin of the stock line (null without one).', resolve: (row, _args, ctx) => linked(ctx, 'bin', row.stockLine.binId) }),
    quantity: t.exposeInt('quantity', { description: 'Units held when the hold was placed.' }),
    releasedQuantity: t.exposeInt('releasedQuantity', { description: 'Of those, units released since (by a release or the expiry).' }),
    heldQuantity: t.int({ description: 'Units still held: quantity minus releasedQuantity.', resolve: held }),
  }),
});

export const InventoryHoldRef = builder.objectRef<HoldWithLines>('InventoryHold').implement({
  interfaces: [NodeRef],
  description: 'A hold on stock: its units are in the stock lines\' qtyOnHold (not available) until released or expired.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Identifier.' }),
    scope: t.field({ type: InventoryHoldScopeEnum, description: 'What the hold names: STOCK_LINE, LOT or PRODUCT_AT_LOCATION.', resolve: (h) => h.scope }),
    status: t.field({ type: InventoryHoldStatusEnum, description: 'ACTIVE, RELEASED or EXPIRED.', resolve: (h) => h.status }),
    stockLineId: t.exposeID('stockLineId', { nullable: true, description: 'The stock line named (scope STOCK_LINE).' }),
    stockLine: t.field({ type: StockLineType, nullable: true, authScopes: readScopesOf('StockLine'), description: 'The stock line named (scope STOCK_LINE; else null).', resolve: (h, _args, ctx) => linked(ctx, 'stockLine', h.stockLineId) }),
    lotId: t.exposeID('lotId', { nullable: true, description: 'The lot named (scope LOT), or the named stock line\'s lot.' }),
    lot: t.field({ type: LotType, nullable: true, authScopes: readScopesOf('Lot'), description: 'The lot named, or the named stock line\'s lot (null without one).', resolve: (h, _args, ctx) => linked(ctx, 'lot', h.lotId) }),
    productMasterId: t.exposeID('productMasterId', { nullable: true, description: 'The product named, or the product of the named lot or stock line.' }),
    product: t.field({ type: ProductType, nullable: true, description: 'The product named, or the product of the named lot or stock line.', resolve: (h, _args, ctx) => productOf(ctx, h.productMasterId) }),
    locationId: t.exposeID('locationId', { nullable: true, description: 'The location named (null for a lot held at every location).' }),
    location: t.field({ type: LocationType, nullable: true, description: 'The location named (null for a lot held at every location).', resolve: (h, _args, ctx) => locationOf(ctx, h.locationId) }),
    reasonCode: t.exposeString('reasonCode', { description: 'Why the stock is held (a code, upper case).' }),
    note: t.exposeString('note', { nullable: true, description: 'Free text given when placing it.' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', nullable: true, description: 'When it ends by itself (null: until released).' }),
    createdByType: t.exposeString('createdByType', { description: 'USER or API_KEY.' }),
    createdBy: t.exposeString('createdBy', { description: "The placing user's or API key's id." }),
    releasedAt: t.expose('releasedAt', { type: 'DateTime', nullable: true, description: 'When it was released in full or expired.' }),
    releasedBy: t.exposeString('releasedBy', { nullable: true, description: 'Who released it in full (null when it expired).' }),
    releaseNote: t.exposeString('releaseNote', { nullable: true, description: 'The note of the last release (Expired for an expiry).' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was placed.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When it last changed.' }),
    totalQuantity: t.field({ type: 'BigQuantity', description: 'Units held when placed, over all lines.', resolve: (h) => sumOf(h.lines, (l) => l.quantity) }),
    totalReleased: t.field({ type: 'BigQuantity', description: 'Units released since, over all lines.', resolve: (h) => sumOf(h.lines, (l) => l.releasedQuantity) }),
    totalHeld: t.field({ type: 'BigQuantity', description: 'Units still held, over all lines.', resolve: (h) => sumOf(h.lines, held) }),
    lines: t.field({ type: [LineRef], description: 'The stock lines it holds units of.', resolve: (h) => h.lines }),
  }),
});
