import { MAX_WINDOW_DAYS } from '../../../kernel/input-limits.js';
import type { ArgBuilder } from '@pothos/core';
import { lotCorrection } from '../../../contracts/inventory/adjustments/lot-correction.js';
import { stockAdjustment, stockDeltaAdjustment } from '../../../contracts/inventory/adjustments/stock-adjustment.js';
import { contractInput, parseInput } from '../../contract-input.js';
import { builder } from '../../builder.js';
import { StockTransactionType, BinType, LotType, StockLineType } from '../stock-lines/stock-line.js';
import type { LineState } from '../../../services/inventory/ledger/stock-ledger.js';
import { correctLot, type LotCorrectionResult } from '../../../services/inventory/adjustments/lot-correction.js';
import { activeReasonCodes, adjustStock, adjustStockBy, type AdjustmentResult } from '../../../services/inventory/adjustments/adjustments.js';
import { countLedger, findLedger, ledgerEntries, ledgerPage } from '../../../services/inventory/history/ledger-history.js';
import { availableQty } from '../../../services/inventory/stock-lines/quantities.js';
import { LocationType } from '../../master-data/location.js';
import { ProductType } from '../../products/product.js';
import { linked, ownRecord } from '../../record-loaders.js';
import { readScopesOf } from '../../link-scopes.js';

/** A stock line as a change left it, read in the change's own transaction (not a later state). */
export const StockLineStateType = builder.objectRef<LineState>('StockLineState').implement({
  description:
    'A stock line (inventory item) exactly as a change left it, read inside the same transaction, so its quantities agree with ' +
    'each other and with the ledger row even when other requests change the line right after.',
  fields: (t) => ({
    stockLineId: t.exposeID('id', { description: 'The stock line (inventoryItemId): its StockLine id.' }),
    productMasterId: t.exposeID('productMasterId', { description: 'Product.' }),
    product: t.field({ type: ProductType, nullable: true, authScopes: readScopesOf('Product'), description: 'The product (null only when it was deleted since).', resolve: (row, _args, ctx) => linked(ctx, 'product', row.productMasterId) }),
    locationId: t.exposeID('locationId', { description: 'Location.' }),
    location: t.field({ type: LocationType, nullable: true, authScopes: readScopesOf('Location'), description: 'The location (null only when it was deleted since).', resolve: (row, _args, ctx) => linked(ctx, 'location', row.locationId) }),
    lotId: t.exposeID('lotId', { nullable: true, description: 'Lot, when the line is lot-controlled.' }),
    lot: t.field({ type: LotType, nullable: true, authScopes: readScopesOf('Lot'), description: 'The lot (null when the line has none).', resolve: (row, _args, ctx) => linked(ctx, 'lot', row.lotId) }),
    lotCode: t.exposeString('lotCode', { nullable: true, description: 'Code of the lot.' }),
    expiryDate: t.expose('expiryDate', { type: 'Date', nullable: true, description: 'Expiry date of the lot, if any.' }),
    binId: t.exposeID('binId', { nullable: true, description: 'Bin, when the line is in a bin.' }),
    bin: t.field({ type: BinType, nullable: true, authScopes: readScopesOf('Bin'), description: 'The bin (null when the line is in none).', resolve: (row, _args, ctx) => linked(ctx, 'bin', row.binId) }),
    binCode: t.exposeString('binCode', { nullable: true, description: 'Code of the bin.' }),
    qtyOnHand: t.exposeInt('qtyOnHand', { description: 'Units physically at the line.' }),
    qtyReserved: t.exposeInt('qtyReserved', { description: 'Units reserved for orders.' }),
    qtyOnHold: t.exposeInt('qtyOnHold', { description: 'Units on hold.' }),
    qtyPicked: t.exposeInt('qtyPicked', { description: 'Units picked and not yet shipped.' }),
    qtyRecalled: t.exposeInt('qtyRecalled', { description: 'Units under recall.' }),
    qtyExpired: t.exposeInt('qtyExpired', { description: 'Units past their expiry.' }),
    qtyAvailable: t.int({ description: 'On hand minus every part (never below 0).', resolve: (line) => availableQty(line) }),
    quantityOnHand: t.exposeInt('qtyOnHand', { description: 'The same as qtyOnHand (inventory list naming).' }),
    quantityReserved: t.exposeInt('qtyReserved', { description: 'The same as qtyReserved (inventory list naming).' }),
    quantityAvailable: t.int({ description: 'The same as qtyAvailable (inventory list naming).', resolve: (line) => availableQty(line) }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When a quantity last changed.' }),
    stockLine: t.field({ type: StockLineType, description: 'The line as it is now, with product, location, lot and bin (may include later changes).', resolve: (line, _args, ctx) => ownRecord(ctx, 'stockLine', line.id, 'StockLine') }),
  }),
});

const transactionsOf = (description: string) => ({
  type: ['StockTransaction'] as ['StockTransaction'],
  description,
});

const AdjustmentResultType = builder.objectRef<AdjustmentResult>('StockAdjustmentResult').implement({
  description: 'The outcome of an on-hand adjustment.',
  fields: (t) => ({
    success: t.exposeBoolean('success', { description: 'Always true (a refusal answers a MutationError instead).' }),
    // The row as the adjustment wrote it: it has every column, so it is not read again.
    transaction: t.field({ type: StockTransactionType, description: 'The ADJUSTMENT ledger row written.', resolve: (result) => result.transaction }),
    inventoryItem: t.field({ type: StockLineStateType, description: 'The stock line after the adjustment.', resolve: (r) => r.inventoryItem }),
    message: t.exposeString('message', { description: 'The signed change in words, for example "Adjusted on hand by -5 (from 20 to 15)".' }),
  }),
});

const LotCorrectionResultType = builder.objectRef<LotCorrectionResult>('LotCorrectionResult').implement({
  description: 'The outcome of moving quantity from one lot to another.',
  fields: (t) => ({
    success: t.exposeBoolean('success', { description: 'Always true (a refusal answers a MutationError instead).' }),
    fromInventoryItem: t.field({ type: StockLineStateType, description: 'The source line after the move.', resolve: (r) => r.fromInventoryItem }),
    toInventoryItem: t.field({ type: StockLineStateType, description: 'The target line after the move (created when it did not exist).', resolve: (r) => r.toInventoryItem }),
    transactions: t.field({
      type: [StockTransactionType],
      description: 'The two LOT_CORRECTION ledger rows: the source (negative) and the target (positive).',
      resolve: (r) => r.transactions,
    }),
    message: t.exposeString('message', { description: 'The move in words.' }),
  }),
});

type LedgerPage = Awaited<ReturnType<typeof ledgerPage>>;

const LedgerPageType = builder.objectRef<LedgerPage>('StockTransactionHistory').implement({
  description: 'One page of stock ledger rows, newest first, with both pagination shapes of the interface.',
  fields: (t) => ({
    entries: t.prismaField({
      ...transactionsOf('Ledger rows on this page, newest first.'),
      resolve: (query, page, _args, ctx) => ledgerEntries(ctx, page, query),
    }),
    total: t.exposeInt('total', { description: 'Rows matching the filters in all pages.' }),
    limit: t.exposeInt('limit', { description: 'Page size.' }),
    offset: t.exposeInt('offset', { description: 'Rows skipped before this page.' }),
    hasMore: t.exposeBoolean('hasMore', { description: 'More rows follow this page.' }),
    page: t.exposeInt('page', { description: 'Page number from 1 (offset / limit + 1).' }),
    pageSize: t.exposeInt('pageSize', { description: 'The same as limit.' }),
    totalPages: t.exposeInt('totalPages', { description: 'Number of pages of this size.' }),
  }),
});

const StockBucketFilter = builder.enumType('StockBucketFilter', {
  description: 'Which quantity of the ledger rows to list; ALL lists every quantity.',
  values: {
    ON_HAND: { description: 'On hand (adjustments, receipts, counts, lot corrections, ...).' },
    RESERVED: { description: 'Reserved.' },
    ON_HOLD: { description: 'On hold.' },
    PICKED: { description: 'Picked.' },
    RECALLED: { description: 'Recalled.' },
    EXPIRED: { description: 'Expired.' },
    ALL: { description: 'Every quantity.' },
  } as const,
});

type Types = typeof builder.$inferSchemaTypes;

const filterArgs = (t: { arg: ArgBuilder<Types> }) => ({
  inventoryItemId: t.arg.id({ description: 'Only rows of this stock line.' }),
  productMasterId: t.arg.id({ description: 'Only rows of this product.' }),
  locationId: t.arg.id({ description: 'Only rows at this location.' }),
  startDate: t.arg.string({ description: 'From this ISO date (start of day, UTC) or date-time.' }),
  endDate: t.arg.string({ description: `Up to this ISO date (the whole day, UTC, included) or date-time with a time zone; at most ${MAX_WINDOW_DAYS} days after startDate.` }),
  bucket: t.arg({ type: StockBucketFilter, description: 'Which quantity (default ON_HAND).' }),
  transactionType: t.arg.string({ description: 'Only these transaction types, comma-separated (for example ADJUSTMENT,COUNT).' }),
});

const AbsoluteInput = contractInput('StockAdjustmentInput', stockAdjustment, {
  description: 'Set on hand of a stock line to a counted quantity.',
  types: { reasonCodeId: 'String' },
});

const DeltaInput = contractInput('StockDeltaAdjustmentInput', stockDeltaAdjustment, {
  description: 'Change on hand of a stock line by a signed amount.',
  types: { reasonCodeId: 'String' },
});

const LotCorrectionInput = contractInput('LotCorrectionInput', lotCorrection, {
  description: 'Move quantity from one lot to another lot of the same product at the same location and bin.',
  types: { reasonCodeId: 'String' },
});

builder.queryFields((t) => ({
  reasonCodes: t.prismaField({
    type: ['ReasonCode'],
    description: 'Active adjustment reason codes of the organization, by code. A plain list, bounded by design: the fixed set every organization is seeded with (no operation adds codes).',
    authScopes: { permission: 'inventory.adjust' },
    resolve: (query, _parent, _args, ctx) => activeReasonCodes(ctx, query),
  }),
  stockTransactions: t.prismaConnection({
    type: 'StockTransaction',
    cursor: 'id',
    description: 'Stock ledger rows of the organization, newest first, as a Relay connection.',
    authScopes: { permission: 'inventory.adjust' },
    args: filterArgs(t),
    totalCount: (_parent, args, ctx) => countLedger(ctx, args),
    resolve: (query, _parent, args, ctx) => findLedger(ctx, args, query),
  }),
  stockTransactionHistory: t.field({
    type: LedgerPageType,
    description: "REST adapter's shape (GET /api/inventory/adjustments): stock ledger rows by offset.",
    deprecationReason: "The REST adapter's offset shape (GET /api/inventory/adjustments); GraphQL clients use the connection `stockTransactions`.",
    authScopes: { permission: 'inventory.adjust' },
    args: {
      ...filterArgs(t),
      limit: t.arg.int({ description: 'Page size, 1 to 500 (default 50).' }),
      offset: t.arg.int({ description: 'Rows to skip (default 0).' }),
    },
    resolve: (_parent, args, ctx) => ledgerPage(ctx, args),
  }),
}));

builder.mutationFields((t) => ({
  adjustStock: t.field({
    refusals: ['ValidationError', 'InsufficientStockError'],
    type: AdjustmentResultType,
    description: 'Sets on hand of a stock line to an absolute quantity, with an ADJUSTMENT ledger row.',
    authScopes: { permission: 'inventory.adjust' },
    args: { input: t.arg({ type: AbsoluteInput, required: true, description: 'The adjustment.' }) },
    resolve: (_parent, args, ctx) => adjustStock(ctx, parseInput(stockAdjustment, args.input)),
  }),
  adjustStockBy: t.field({
    refusals: ['ValidationError', 'InsufficientStockError'],
    type: AdjustmentResultType,
    description: 'Changes on hand of a stock line by a signed amount, with an ADJUSTMENT ledger row.',
    authScopes: { permission: 'inventory.adjust' },
    args: { input: t.arg({ type: DeltaInput, required: true, description: 'The adjustment.' }) },
    resolve: (_parent, args, ctx) => adjustStockBy(ctx, parseInput(stockDeltaAdjustment, args.input)),
  }),
  correctLot: t.field({
    refusals: ['ValidationError', 'InsufficientStockError'],
    type: LotCorrectionResultType,
    description: 'Moves quantity from one lot to another (two LOT_CORRECTION ledger rows, one transaction).',
    authScopes: { permission: 'inventory.adjust' },
    args: { input: t.arg({ type: LotCorrectionInput, required: true, description: 'The correction.' }) },
    resolve: (_parent, args, ctx) => correctLot(ctx, parseInput(lotCorrection, args.input)),
  }),
}));
