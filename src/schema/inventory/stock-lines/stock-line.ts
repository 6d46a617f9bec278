import { builder } from '../../builder.js';
import { availableQty } from '../../../services/inventory/stock-lines/quantities.js';
import { NodeRef } from '../../node/node-interface.js';
import { LocationType } from '../../master-data/location.js';
import { ProductType } from '../../products/product.js';
import { linked, ownRecord } from '../../record-loaders.js';
import { readScopesOf } from '../../link-scopes.js';
import type { StockLine } from '../../../generated/prisma/client.js';
import type { RequestContext } from '../../../context.js';

/**
 * The line's lot's expiry date: from the lot its list read with it (GET /api/inventory joins it), otherwise from the
 * request's lot loader, which the `lot` field shares (one statement for every line that asks for either). Neither is a
 * Prisma-plugin `select` or relation: the plugin looks its mapping up for every line of a list (a fifth of the inventory
 * list's CPU) to find what is read here directly.
 */
function lotExpiryOf(ctx: RequestContext, line: StockLine & { lot?: { expiryDate?: Date | null } | null }) {
  if (line.lotId === null) return null;
  const joined = line.lot?.expiryDate;
  if (joined !== undefined) return joined;
  return linked(ctx, 'lot', line.lotId)?.then((lot) => lot?.expiryDate ?? null) ?? null;
}

// Available is computed from the line's own quantities, which every StockLine carries (the type selects all its
// scalars): a field `select` would only make the Prisma plugin load them again for a line it did not load itself.

export const LotType = builder.prismaObject('Lot', {
  interfaces: [NodeRef],
  description: 'A production or receiving lot of one product.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Identifier.' }),
    code: t.exposeString('code', { description: 'Lot code, unique per product.' }),
    productMasterId: t.exposeID('productMasterId', { description: 'Product of the lot.' }),
    product: t.field({ type: ProductType, nullable: true, authScopes: readScopesOf('Product'), description: 'The product of the lot (null only when it was deleted since).', resolve: (row, _args, ctx) => linked(ctx, 'product', row.productMasterId) }),
    expiryDate: t.expose('expiryDate', { type: 'Date', nullable: true, description: 'Last day the lot may be used.' }),
    recalled: t.exposeBoolean('recalled', { description: 'The lot is recalled: none of it is available.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the lot was first recorded.' }),
  }),
});

export const BinType = builder.prismaObject('Bin', {
  interfaces: [NodeRef],
  description: 'A storage place inside a location.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Identifier.' }),
    code: t.exposeString('code', { description: 'Bin code, unique per location.' }),
    locationId: t.exposeID('locationId', { description: 'Location of the bin.' }),
    location: t.field({ type: LocationType, nullable: true, authScopes: readScopesOf('Location'), description: 'The location of the bin (null only when it was deleted since).', resolve: (row, _args, ctx) => linked(ctx, 'location', row.locationId) }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the bin was first recorded.' }),
  }),
});

export const StockLineType = builder.prismaObject('StockLine', {
  interfaces: [NodeRef],
  description:
    'A stock line (inventory item): one product at one location, optionally in a lot and a bin. On hand counts everything ' +
    'there; reserved, on hold, picked, recalled and expired are parts of it; available is on hand minus those parts.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Identifier.' }),
    productMasterId: t.exposeID('productMasterId', { description: 'Product.' }),
    locationId: t.exposeID('locationId', { description: 'Location.' }),
    lotId: t.exposeID('lotId', { nullable: true, description: 'Lot, when the line is lot-controlled.' }),
    binId: t.exposeID('binId', { nullable: true, description: 'Bin, when the line is in a bin.' }),
    qtyOnHand: t.exposeInt('qtyOnHand', { description: 'Units physically at the line.' }),
    qtyReserved: t.exposeInt('qtyReserved', { description: 'Units reserved for orders.' }),
    qtyOnHold: t.exposeInt('qtyOnHold', { description: 'Units on quality or other hold.' }),
    qtyPicked: t.exposeInt('qtyPicked', { description: 'Units picked and not yet shipped.' }),
    qtyRecalled: t.exposeInt('qtyRecalled', { description: 'Units under recall.' }),
    qtyExpired: t.exposeInt('qtyExpired', { description: 'Units past their expiry.' }),
    qtyAvailable: t.int({
      description: 'Units that can be promised: on hand minus every part.',
      resolve: (line) => availableQty(line),
    }),
    quantityOnHand: t.exposeInt('qtyOnHand', { description: 'The same as qtyOnHand (inventory list naming).' }),
    quantityReserved: t.exposeInt('qtyReserved', { description: 'The same as qtyReserved (inventory list naming).' }),
    quantityAvailable: t.int({
      description: 'The same as qtyAvailable (inventory list naming).',
      resolve: (line) => availableQty(line),
    }),
    expiryDate: t.field({
      type: 'Date',
      nullable: true,
      description: 'Expiry date of the lot, if any.',
      resolve: (line, _args, ctx) => lotExpiryOf(ctx, line),
    }),
    product: t.field({ type: ProductType, description: 'The product.', resolve: (line, _args, ctx) => ownRecord(ctx, 'product', line.productMasterId, 'Product') }),
    location: t.field({ type: LocationType, description: 'The location.', resolve: (line, _args, ctx) => ownRecord(ctx, 'location', line.locationId, 'Location') }),
    lot: t.field({ type: LotType, nullable: true, description: 'The lot.', resolve: (line, _args, ctx) => linked(ctx, 'lot', line.lotId) }),
    bin: t.field({ type: BinType, nullable: true, description: 'The bin.', resolve: (line, _args, ctx) => linked(ctx, 'bin', line.binId) }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the line was created.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When a quantity last changed.' }),
  }),
});

export const StockTransactionType = builder.prismaObject('StockTransaction', {
  interfaces: [NodeRef],
  description: 'A stock ledger row: one change of one quantity of one stock line. Rows are never changed or removed.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Identifier.' }),
    inventoryItemId: t.exposeID('stockLineId', { description: 'The stock line changed.' }),
    stockLine: t.field({ type: StockLineType, nullable: true, authScopes: readScopesOf('StockLine'), description: 'The stock line changed (null only when it was deleted since).', resolve: (row, _args, ctx) => linked(ctx, 'stockLine', row.stockLineId) }),
    productMasterId: t.exposeID('productMasterId', { description: 'Product of the line.' }),
    product: t.field({ type: ProductType, nullable: true, authScopes: readScopesOf('Product'), description: 'The product of the line (null only when it was deleted since).', resolve: (row, _args, ctx) => linked(ctx, 'product', row.productMasterId) }),
    locationId: t.exposeID('locationId', { description: 'Location of the line.' }),
    location: t.field({ type: LocationType, nullable: true, authScopes: readScopesOf('Location'), description: 'The location of the line (null only when it was deleted since).', resolve: (row, _args, ctx) => linked(ctx, 'location', row.locationId) }),
    transactionType: t.exposeString('transactionType', { description: 'What happened: ADJUSTMENT, RECEIPT, COUNT, RESERVE, RELEASE, PICK, HOLD, LOT_CORRECTION, ...' }),
    bucket: t.exposeString('bucket', { description: 'Which quantity changed: ON_HAND, RESERVED, ON_HOLD, PICKED, RECALLED or EXPIRED.' }),
    deltaQty: t.exposeInt('deltaQty', { description: 'Signed change.' }),
    qtyBefore: t.exposeInt('qtyBefore', { description: 'The quantity before the change.' }),
    qtyAfter: t.exposeInt('qtyAfter', { description: 'The quantity after the change.' }),
    reasonCodeId: t.exposeID('reasonCodeId', { nullable: true, description: 'Reason code id.' }),
    reasonCode: t.exposeString('reasonCode', { nullable: true, description: 'Reason code, as it was at the time.' }),
    comment: t.exposeString('comment', { nullable: true, description: 'Free text.' }),
    rootCause: t.exposeString('rootCause', { nullable: true, description: 'Root cause given for a large negative adjustment.' }),
    createdBy: t.exposeString('createdBy', { description: 'User id or API key id that made the change.' }),
    actorType: t.exposeString('actorType', { description: 'USER or API_KEY.' }),
    sourceType: t.exposeString('sourceType', { nullable: true, description: 'Kind of document that caused the change.' }),
    sourceId: t.exposeString('sourceId', { nullable: true, description: 'Id of that document.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the change happened.' }),
  }),
});

builder.prismaObject('ReasonCode', {
  interfaces: [NodeRef],
  description: 'Why stock was adjusted.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Identifier.' }),
    code: t.exposeString('code', { description: 'Code, unique in the organization, for example DAMAGED.' }),
    name: t.exposeString('name', { description: 'Display name.' }),
    direction: t.exposeString('direction', { description: 'INCREASE, DECREASE or ANY: which adjustments may use it.' }),
  }),
});
