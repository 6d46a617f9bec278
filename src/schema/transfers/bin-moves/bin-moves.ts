import { binMove, locationBinsQuery } from '../../../contracts/transfers/bin-moves/bin-move.js';
import { contractArgs, contractInput, parseInput } from '../../contract-input.js';
import { builder } from '../../builder.js';
import { LocationType } from '../../master-data/location.js';
import { ownLocation, linked, ownRecord } from '../../record-loaders.js';
import { locationBins, moveBinStock } from '../../../services/transfers/bin-moves/bin-moves.js';
import { canReadTransfers, canWriteTransfers } from '../transfer-scopes.js';
import { BinType, LotType, StockLineType } from '../../inventory/stock-lines/stock-line.js';
import { ProductType } from '../../products/product.js';
import { readScopesOf } from '../../link-scopes.js';

type Report = Awaited<ReturnType<typeof locationBins>>;
type BinEntry = Report['bins'][number];
type Move = Awaited<ReturnType<typeof moveBinStock>>;

const BinStockRef = builder.objectRef<BinEntry['stock'][number]>('BinStock').implement({
  description: 'One stock line in a bin.',
  fields: (t) => ({
    stockLineId: t.exposeID('stockLineId', { description: 'The stock line.' }),
    stockLine: t.field({ type: StockLineType, nullable: true, authScopes: readScopesOf('StockLine'), description: 'The stock line (null only when it was deleted since).', resolve: (row, _args, ctx) => linked(ctx, 'stockLine', row.stockLineId) }),
    productMasterId: t.exposeID('productMasterId', { description: 'The product.' }),
    product: t.field({ type: ProductType, nullable: true, authScopes: readScopesOf('Product'), description: 'The product (null only when it was deleted since).', resolve: (row, _args, ctx) => linked(ctx, 'product', row.productMasterId) }),
    sku: t.exposeString('sku', { description: 'Its SKU.' }),
    productName: t.exposeString('productName', { description: 'Its name.' }),
    lotId: t.exposeID('lotId', { nullable: true, description: 'The lot.' }),
    lot: t.field({ type: LotType, nullable: true, authScopes: readScopesOf('Lot'), description: 'The lot (null when the line has none).', resolve: (row, _args, ctx) => linked(ctx, 'lot', row.lotId) }),
    lotCode: t.exposeString('lotCode', { nullable: true, description: 'Code of the lot.' }),
    expiryDate: t.expose('expiryDate', { type: 'Date', nullable: true, description: 'Expiry date of the lot.' }),
    qtyOnHand: t.exposeInt('qtyOnHand', { description: 'Units on hand.' }),
    qtyAvailable: t.exposeInt('qtyAvailable', { description: 'Units available (on hand minus reserved, held, picked, recalled, expired).' }),
  }),
});

const BinRef = builder.objectRef<BinEntry>('LocationBin').implement({
  description: 'A bin of a location with the stock in it.',
  fields: (t) => ({
    binId: t.exposeID('id', { description: 'The bin (its Bin id).' }),
    bin: t.field({ type: BinType, description: 'The bin itself.', resolve: (b, _args, ctx) => ownRecord(ctx, 'bin', b.id, 'Bin') }),
    code: t.exposeString('code', { description: 'Bin code.' }),
    locationId: t.exposeID('locationId', { description: 'Its location.' }),
    location: t.field({ type: LocationType, nullable: true, authScopes: readScopesOf('Location'), description: 'Its location (null only when it was deleted since).', resolve: (row, _args, ctx) => linked(ctx, 'location', row.locationId) }),
    totalOnHand: t.expose('totalOnHand', { type: 'BigQuantity', description: 'Units on hand in the bin.' }),
    totalAvailable: t.expose('totalAvailable', { type: 'BigQuantity', description: 'Units available in the bin.' }),
    stock: t.field({ type: [BinStockRef], description: 'Stock lines with units on hand, in the bin.', resolve: (b) => b.stock }),
  }),
});

const ReportRef = builder.objectRef<Report>('LocationBins').implement({
  description: 'The bins of a location with their stock.',
  fields: (t) => ({
    location: t.field({ type: LocationType, description: 'The location.', resolve: (r, _args, ctx) => ownLocation(ctx, r.location.id) }),
    bins: t.field({ type: [BinRef], description: 'Its bins, by code.', resolve: (r) => r.bins }),
  }),
});

const PieceRef = builder.objectRef<Move['pieces'][number]>('BinMovePiece').implement({
  description: 'Units of one lot moved from one stock line to another.',
  fields: (t) => ({
    lotId: t.exposeID('lotId', { nullable: true, description: 'The lot.' }),
    lot: t.field({ type: LotType, nullable: true, authScopes: readScopesOf('Lot'), description: 'The lot (null when the units have none).', resolve: (row, _args, ctx) => linked(ctx, 'lot', row.lotId) }),
    quantity: t.exposeInt('quantity', { description: 'Units moved.' }),
    fromStockLineId: t.exposeID('fromStockLineId', { description: 'The stock line in the source bin.' }),
    fromStockLine: t.field({ type: StockLineType, nullable: true, authScopes: readScopesOf('StockLine'), description: 'The stock line in the source bin (null only when it was deleted since).', resolve: (row, _args, ctx) => linked(ctx, 'stockLine', row.fromStockLineId) }),
    toStockLineId: t.exposeID('toStockLineId', { description: 'The stock line in the destination bin.' }),
    toStockLine: t.field({ type: StockLineType, nullable: true, authScopes: readScopesOf('StockLine'), description: 'The stock line in the destination bin (null only when it was deleted since).', resolve: (row, _args, ctx) => linked(ctx, 'stockLine', row.toStockLineId) }),
  }),
});

const MoveRef = builder.objectRef<Move>('BinMove').implement({
  description: 'Stock moved between two bins of one location (BIN_MOVE ledger rows with sourceId moveId).',
  fields: (t) => ({
    success: t.exposeBoolean('success', { description: 'Always true.' }),
    moveId: t.exposeID('moveId', { description: 'The move: sourceId of its ledger rows.' }),
    locationId: t.exposeID('locationId', { description: 'The location.' }),
    location: t.field({ type: LocationType, nullable: true, authScopes: readScopesOf('Location'), description: 'The location (null only when it was deleted since).', resolve: (row, _args, ctx) => linked(ctx, 'location', row.locationId) }),
    productMasterId: t.exposeID('productMasterId', { description: 'The product.' }),
    product: t.field({ type: ProductType, nullable: true, authScopes: readScopesOf('Product'), description: 'The product (null only when it was deleted since).', resolve: (row, _args, ctx) => linked(ctx, 'product', row.productMasterId) }),
    fromBinId: t.exposeID('fromBinId', { description: 'The bin the units left.' }),
    fromBin: t.field({ type: BinType, nullable: true, authScopes: readScopesOf('Bin'), description: 'The bin the units left (null only when it was deleted since).', resolve: (row, _args, ctx) => linked(ctx, 'bin', row.fromBinId) }),
    toBinId: t.exposeID('toBinId', { description: 'The bin they went to.' }),
    toBin: t.field({ type: BinType, nullable: true, authScopes: readScopesOf('Bin'), description: 'The bin they went to (null only when it was deleted since).', resolve: (row, _args, ctx) => linked(ctx, 'bin', row.toBinId) }),
    quantity: t.exposeInt('quantity', { description: 'Units moved.' }),
    pieces: t.field({ type: [PieceRef], description: 'Per lot: from which line to which.', resolve: (m) => m.pieces }),
  }),
});

const MoveInput = contractInput('BinMoveInput', binMove, { description: 'Move units of a product from one bin to another in one location.' });

builder.queryFields((t) => ({
  locationBins: t.field({
    type: ReportRef,
    description: 'The bins of a location with their stock (GET /api/inventory/transfers/bins).',
    authScopes: canReadTransfers,
    args: contractArgs(t, locationBinsQuery),
    resolve: (_parent, args, ctx) => locationBins(ctx, parseInput(locationBinsQuery, args)),
  }),
}));

builder.mutationFields((t) => ({
  moveBinStock: t.field({
    refusals: ['ValidationError', 'InsufficientStockError'],
    type: MoveRef,
    description: 'Moves available units between two bins of one location through the ledger (BIN_MOVE out and in); INSUFFICIENT_STOCK when the bin lacks them.',
    authScopes: canWriteTransfers,
    args: { input: t.arg({ type: MoveInput, required: true, description: 'The move.' }) },
    resolve: (_parent, args, ctx) => moveBinStock(ctx, parseInput(binMove, args.input)),
  }),
}));
