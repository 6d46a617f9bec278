import { builder } from '../../builder.js';
import {
  type AvailabilityCheckResult,
  type AvailabilityLine,
  type AvailabilityResult,
  type AvailabilitySummary,
  type AvailabilityTotals,
  checkAvailability,
  getAvailability,
  getAvailabilityLine,
} from '../../../services/inventory/availability/availability.js';
import { availabilityCheck, MAX_CHECK_ITEMS } from '../../../contracts/inventory/availability/availability-check.js';
import { stockMove } from '../../../contracts/inventory/availability/stock-move.js';
import { contractInput, parseInput } from '../../contract-input.js';
import { moveStock, STOCK_MOVE_ACTIONS, type StockMoveResult } from '../../../services/inventory/availability/stock-moves.js';
import { BinType, LotType, StockLineType } from '../stock-lines/stock-line.js';
import { LocationType } from '../../master-data/location.js';
import { ProductType } from '../../products/product.js';
import { linked, ownRecord } from '../../record-loaders.js';
import { readScopesOf } from '../../link-scopes.js';

const asString = (value: string | number | null | undefined) => (value == null ? null : String(value));

const AvailabilityLineType = builder.objectRef<AvailabilityLine>('AvailabilityLine').implement({
  description: 'A stock line as availability shows it (qty* naming). Available excludes lines of expired or recalled lots unless included.',
  fields: (t) => ({
    stockLineId: t.exposeID('id', { description: 'The stock line (inventory item): its StockLine id.' }),
    stockLine: t.field({ type: StockLineType, description: 'The stock line itself (its current state).', resolve: (line, _args, ctx) => ownRecord(ctx, 'stockLine', line.id, 'StockLine') }),
    productMasterId: t.exposeID('productMasterId', { description: 'Product.' }),
    product: t.field({ type: ProductType, nullable: true, authScopes: readScopesOf('Product'), description: 'The product (null only when it was deleted since).', resolve: (row, _args, ctx) => linked(ctx, 'product', row.productMasterId) }),
    locationId: t.exposeID('locationId', { description: 'Location.' }),
    location: t.field({ type: LocationType, nullable: true, authScopes: readScopesOf('Location'), description: 'The location (null only when it was deleted since).', resolve: (row, _args, ctx) => linked(ctx, 'location', row.locationId) }),
    lotId: t.exposeID('lotId', { nullable: true, description: 'Lot, when the line is lot-controlled.' }),
    lot: t.field({ type: LotType, nullable: true, authScopes: readScopesOf('Lot'), description: 'The lot (null when the line has none).', resolve: (row, _args, ctx) => linked(ctx, 'lot', row.lotId) }),
    binId: t.exposeID('binId', { nullable: true, description: 'Bin, when the line is in a bin.' }),
    bin: t.field({ type: BinType, nullable: true, authScopes: readScopesOf('Bin'), description: 'The bin (null when the line is in none).', resolve: (row, _args, ctx) => linked(ctx, 'bin', row.binId) }),
    expiryDate: t.expose('expiryDate', { type: 'Date', nullable: true, description: 'Expiry date of the lot, if any.' }),
    qtyOnHand: t.exposeInt('qtyOnHand', { description: 'Units physically at the line.' }),
    qtyAvailable: t.exposeInt('qtyAvailable', { description: 'Units that can be promised under the include flags (never below 0).' }),
    qtyReserved: t.exposeInt('qtyReserved', { description: 'Units reserved for orders.' }),
    qtyOnHold: t.exposeInt('qtyOnHold', { description: 'Units on hold.' }),
    qtyPicked: t.exposeInt('qtyPicked', { description: 'Units picked and not yet shipped.' }),
    qtyRecalled: t.exposeInt('qtyRecalled', { description: 'Units under recall.' }),
    qtyExpired: t.exposeInt('qtyExpired', { description: 'Units past their expiry.' }),
  }),
});

const totalFields = {
  totalOnHand: 'On hand over the lines.',
  totalAvailable: 'Available over the lines.',
  totalReserved: 'Reserved over the lines.',
  totalOnHold: 'On hold over the lines.',
  totalPicked: 'Picked over the lines.',
  totalRecalled: 'Recalled over the lines.',
  totalExpired: 'Expired over the lines.',
} as const;

const AvailabilityTotalsType = builder.objectRef<AvailabilityTotals>('AvailabilityTotals').implement({
  description: 'Sums over the stock lines availability counts (lines of expired or recalled lots left out unless included).',
  fields: (t) => Object.fromEntries(Object.entries(totalFields).map(([name, description]) => [name, t.expose(name as keyof AvailabilityTotals, { type: 'BigQuantity', description })])),
});

const AvailabilitySummaryType = builder.objectRef<AvailabilitySummary>('AvailabilitySummary').implement({
  description: 'The aggregate availability of the filtered lines.',
  fields: (t) => ({
    productMasterId: t.exposeID('productMasterId', { nullable: true, description: 'The product filtered on, if any.' }),
    product: t.field({ type: ProductType, nullable: true, authScopes: readScopesOf('Product'), description: 'The product filtered on (null without one).', resolve: (row, _args, ctx) => linked(ctx, 'product', row.productMasterId) }),
    locationId: t.exposeID('locationId', { nullable: true, description: 'The location filtered on, if any.' }),
    location: t.field({ type: LocationType, nullable: true, authScopes: readScopesOf('Location'), description: 'The location filtered on (null without one).', resolve: (row, _args, ctx) => linked(ctx, 'location', row.locationId) }),
    ...Object.fromEntries(Object.entries(totalFields).map(([name, description]) => [name, t.expose(name as keyof AvailabilityTotals, { type: 'BigQuantity', description })])),
    stockLines: t.field({
      type: [AvailabilityLineType],
      nullable: true,
      description: 'The lines behind the totals; null unless includeStockLines is true.',
      resolve: (s) => s.stockLines,
    }),
  }),
});

const AvailabilityResultType = builder.objectRef<AvailabilityResult>('AvailabilityResult').implement({
  description: 'Availability to promise: the stock lines with totals, or (summary) the aggregate.',
  fields: (t) => ({
    type: t.exposeString('type', { description: 'stockLines or summary.' }),
    count: t.exposeInt('count', { description: 'Number of stock lines counted.' }),
    totals: t.field({ type: AvailabilityTotalsType, description: 'Sums over the counted lines.', resolve: (r) => r.totals }),
    lines: t.field({ type: [AvailabilityLineType], nullable: true, description: 'The counted lines; null for a summary.', resolve: (r) => r.lines }),
    summary: t.field({ type: AvailabilitySummaryType, nullable: true, description: 'The aggregate; null unless summary is true.', resolve: (r) => r.summary }),
  }),
});

const AvailabilityCheckResultType = builder.objectRef<AvailabilityCheckResult>('AvailabilityCheckResult').implement({
  description: 'Whether one SKU at one location can supply a quantity.',
  fields: (t) => ({
    sku: t.exposeString('sku', { description: 'The SKU asked about.' }),
    locationId: t.exposeString('locationId', { description: 'The location asked about, as the item named it (id, code or normalized form).' }),
    requestedQuantity: t.exposeInt('requestedQuantity', { description: 'The quantity asked for.' }),
    availableQuantity: t.expose('availableQuantity', { type: 'BigQuantity', description: 'Units available, summed over the stock lines of the SKU at the location (0 for an unknown SKU).' }),
    isAvailable: t.exposeBoolean('isAvailable', { description: 'availableQuantity >= requestedQuantity.' }),
  }),
});

const AvailabilityCheckInput = contractInput('AvailabilityCheckInput', availabilityCheck, {
  description: `Items to check, 1 to ${MAX_CHECK_ITEMS}.`,
  types: { 'items.locationId': 'String' },
  names: { items: 'AvailabilityCheckItemInput' },
  descriptions: { items: 'One SKU, location and quantity to check.' },
});

const StockMoveActionEnum = builder.enumType('StockMoveAction', {
  description: 'How a stock move shifts quantity between the buckets of one line. On hand never changes.',
  values: {
    RESERVE: { description: 'Available → reserved.' },
    RELEASE: { description: 'Reserved → available.' },
    PICK: { description: 'Reserved → picked.' },
    UNPICK: { description: 'Picked → reserved.' },
    HOLD: { description: 'Available → on hold.' },
    RELEASE_HOLD: { description: 'On hold → available.' },
    RECALL: { description: 'Available → recalled.' },
    RELEASE_RECALL: { description: 'Recalled → available.' },
    EXPIRE: { description: 'Available → expired.' },
  } as const satisfies Record<(typeof STOCK_MOVE_ACTIONS)[number], { description: string }>,
});

const StockMoveInput = contractInput('StockMoveInput', stockMove, {
  description: 'A move of quantity between the buckets of one stock line.',
  types: { action: StockMoveActionEnum, sourceId: 'String' },
});

const StockMoveResultType = builder.objectRef<StockMoveResult>('StockMoveResult').implement({
  description: 'The line after a stock move and the ledger rows it wrote.',
  fields: (t) => ({
    success: t.exposeBoolean('success', { description: 'Always true (a refused move answers a MutationError instead).' }),
    inventoryItem: t.field({ type: AvailabilityLineType, description: 'The line after the move.', resolve: (r) => r.inventoryItem }),
    transactions: t.prismaField({ type: ['StockTransaction'], description: 'One ledger row per bucket changed.', resolve: (_query, r) => r.transactions }),
  }),
});

builder.queryFields((t) => {
  const includeArgs = () => ({
    includeExpired: t.arg.boolean({ description: 'Count lines of lots that expired before today and expired units (default false).' }),
    includeRecalled: t.arg.boolean({ description: 'Count lines of recalled lots and recalled units (default false).' }),
    includeOnHold: t.arg.boolean({ description: 'Count on-hold units as available (default false).' }),
  });
  return {
  availability: t.field({
    type: AvailabilityResultType,
    description: 'Availability to promise over the stock lines matching the filters (at least one of productMasterId, locationId, lotId, binId).',
    authScopes: { permission: 'inventory.read' },
    args: {
      locationId: t.arg.id({ description: 'Only lines at this location (404 when unknown).' }),
      productMasterId: t.arg.id({ description: 'Only lines of this product (404 when unknown).' }),
      productId: t.arg.id({ description: 'Deprecated alias of productMasterId; must match it when both are given.', deprecationReason: 'Use productMasterId.' }),
      lotId: t.arg.id({ description: 'Only lines in this lot (404 when unknown).' }),
      binId: t.arg.id({ description: 'Only lines in this bin (404 when unknown).' }),
      ...includeArgs(),
      summary: t.arg.boolean({ description: 'Return the aggregate instead of the lines (default false).' }),
      includeStockLines: t.arg.boolean({ description: 'With summary, also return the lines (default false).' }),
    },
    resolve: (_parent, args, ctx) =>
      getAvailability(ctx, {
        ...args,
        locationId: asString(args.locationId),
        productMasterId: asString(args.productMasterId),
        productId: asString(args.productId),
        lotId: asString(args.lotId),
        binId: asString(args.binId),
      }),
  }),
  availabilityLine: t.field({
    type: AvailabilityLineType,
    description: "One stock line in the availability naming; null when it is unknown or not the organization's.",
    orNullWhenAbsent: true,
    authScopes: { permission: 'inventory.read' },
    args: { id: t.arg.id({ required: true, description: 'Stock line (inventory item) id.' }), ...includeArgs() },
    resolve: (_parent, args, ctx) => getAvailabilityLine(ctx, String(args.id), args),
  }),
  checkAvailability: t.field({
    type: [AvailabilityCheckResultType],
    description: 'Whether each SKU at each location can supply the quantity; unknown SKUs have 0 available, unknown locations refuse the check. A plain list, bounded by design: one result per item of the input, which holds at most ' + MAX_CHECK_ITEMS + '.',
    authScopes: { permission: 'inventory.read' },
    args: { input: t.arg({ type: AvailabilityCheckInput, required: true, description: 'The items to check.' }) },
    resolve: (_parent, args, ctx) => checkAvailability(ctx, parseInput(availabilityCheck, args.input)),
  }),
  };
});

builder.mutationFields((t) => ({
  moveStock: t.field({
    refusals: ['ValidationError', 'NotFoundError', 'InsufficientStockError'],
    type: StockMoveResultType,
    description: 'Moves quantity between the buckets of one stock line (reserve, release, pick, hold, recall, expire), atomically with ledger rows.',
    authScopes: { permission: 'inventory.write' },
    args: {
      id: t.arg.id({ required: true, description: 'Stock line (inventory item) id.' }),
      input: t.arg({ type: StockMoveInput, required: true, description: 'The move.' }),
    },
    resolve: (_parent, args, ctx) => moveStock(ctx, String(args.id), parseInput(stockMove, args.input)),
  }),
}));
