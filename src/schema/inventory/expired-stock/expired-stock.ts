import { builder } from '../../builder.js';
import { expiredStockAction, expiredStockDestruction, expiredStockQuery } from '../../../contracts/inventory/expired-stock/expired-stock.js';
import { listExpiredStock, type ExpiredLine, type ExpiredStock } from '../../../services/inventory/expired-stock/expired-stock.js';
import { actOnExpiredStock, type ExpiredActionLine, type ExpiredActionResult } from '../../../services/inventory/expired-stock/expired-actions.js';
import { destroyExpiredStock, type DestructionResult, type DestructionTransfer } from '../../../services/inventory/expired-stock/expired-destruction.js';
import { InventoryTransferRef } from '../../transfers/inventory-transfers/inventory-transfer-types.js';
import { contractArgs, contractInput, parseInput } from '../../contract-input.js';
import { linked, ownRecord } from '../../record-loaders.js';
import { readScopesOf } from '../../link-scopes.js';
import { LotType, StockLineType } from '../stock-lines/stock-line.js';
import { LocationType } from '../../master-data/location.js';
import { ProductType } from '../../products/product.js';

const ExpiredLineType = builder.objectRef<ExpiredLine>('ExpiredStockLine').implement({
  description: 'A stock line with units on hand whose lot has expired.',
  fields: (t) => ({
    stockLineId: t.exposeID('stockLineId', { description: 'The stock line.' }),
    stockLine: t.field({ type: StockLineType, description: 'The stock line itself (its current state).', resolve: (row, _args, ctx) => ownRecord(ctx, 'stockLine', row.stockLineId, 'StockLine') }),
    productMasterId: t.exposeID('productMasterId', { description: 'The product.' }),
    product: t.field({ type: ProductType, nullable: true, authScopes: readScopesOf('Product'), description: 'The product (null only when it was deleted since).', resolve: (row, _args, ctx) => linked(ctx, 'product', row.productMasterId) }),
    sku: t.exposeString('sku', { description: 'SKU of the product.' }),
    locationId: t.exposeID('locationId', { description: 'The location.' }),
    location: t.field({ type: LocationType, nullable: true, authScopes: readScopesOf('Location'), description: 'The location (null only when it was deleted since).', resolve: (row, _args, ctx) => linked(ctx, 'location', row.locationId) }),
    lotId: t.exposeID('lotId', { description: 'The expired lot.' }),
    lot: t.field({ type: LotType, nullable: true, authScopes: readScopesOf('Lot'), description: 'The lot (null only when it was deleted since).', resolve: (row, _args, ctx) => linked(ctx, 'lot', row.lotId) }),
    lotCode: t.exposeString('lotCode', { description: 'Code of the lot.' }),
    binId: t.exposeID('binId', { nullable: true, description: 'The bin, when the line is in one.' }),
    expiryDate: t.expose('expiryDate', { type: 'Date', description: 'Expiry date of the lot.' }),
    daysExpired: t.exposeInt('daysExpired', { description: 'Days from the expiry date to asOf.' }),
    qtyOnHand: t.exposeInt('qtyOnHand', { description: 'Units on hand.' }),
    qtyExpired: t.exposeInt('qtyExpired', { description: 'Units already marked expired.' }),
    qtyAvailable: t.exposeInt('qtyAvailable', { description: 'Units not yet marked (nor reserved, held, picked or recalled): what mark-expired moves.' }),
    unitCost: t.expose('unitCost', { type: 'Decimal', nullable: true, description: "The product's unit cost (null when it has none)." }),
    value: t.expose('value', { type: 'Decimal', description: 'Units on hand × unit cost (0 without a unit cost).' }),
  }),
});

const ExpiredStockType = builder.objectRef<ExpiredStock>('ExpiredStock').implement({
  description: 'Expired stock as of a day, a page of lines (oldest expiry first) with totals over every matching line.',
  fields: (t) => ({
    asOf: t.expose('asOf', { type: 'Date', description: 'Lots that expired before this day are listed.' }),
    lines: t.field({ type: [ExpiredLineType], description: `The page of lines (at most limit).`, resolve: (r) => r.lines }),
    total: t.exposeInt('total', { description: 'Lines matching the filters.' }),
    totalUnits: t.expose('totalUnits', { type: 'BigQuantity', description: 'Units on hand over the matching lines.' }),
    totalExpiredUnits: t.expose('totalExpiredUnits', { type: 'BigQuantity', description: 'Units already marked expired over the matching lines.' }),
    totalValue: t.expose('totalValue', { type: 'Decimal', description: 'Value of the units on hand at unit cost (products without one count 0).' }),
    limit: t.exposeInt('limit', { description: 'Page size.' }),
    offset: t.exposeInt('offset', { description: 'Lines skipped.' }),
  }),
});

const ExpiredActionLineType = builder.objectRef<ExpiredActionLine>('ExpiredStockActionLine').implement({
  description: 'A stock line an expired-stock action changed.',
  fields: (t) => ({
    stockLineId: t.exposeID('stockLineId', { description: 'The stock line.' }),
    lotId: t.exposeID('lotId', { nullable: true, description: 'Its lot.' }),
    lotCode: t.exposeString('lotCode', { nullable: true, description: 'Code of its lot.' }),
    expiryDate: t.expose('expiryDate', { type: 'Date', nullable: true, description: 'Expiry date of its lot.' }),
    quantity: t.exposeInt('quantity', { description: 'Units marked expired, or written off.' }),
    qtyOnHand: t.exposeInt('qtyOnHand', { description: 'On hand after the action.' }),
    qtyExpired: t.exposeInt('qtyExpired', { description: 'Expired units after the action.' }),
  }),
});

const ExpiredActionResultType = builder.objectRef<ExpiredActionResult>('ExpiredStockActionResult').implement({
  description: 'What an expired-stock action changed (one ledger row per line and bucket changed).',
  fields: (t) => ({
    success: t.exposeBoolean('success', { description: 'Always true (a refused action answers a MutationError instead and changes nothing).' }),
    action: t.exposeString('action', { description: 'EXPIRE or CONSUME: the transaction type of its ledger rows.' }),
    lines: t.field({ type: [ExpiredActionLineType], description: 'The lines changed (bounded by the request: at most 500 lines, or those of one lot or location).', resolve: (r) => r.lines }),
    totalQuantity: t.exposeInt('totalQuantity', { description: 'Units acted on over the lines.' }),
  }),
});

const DestructionTransferType = builder.objectRef<DestructionTransfer>('ExpiredStockDestructionTransfer').implement({
  description: 'An inventory transfer that carries expired stock to the destruction location, created and shipped at once (IN_TRANSIT): one per source location.',
  fields: (t) => ({
    transferId: t.exposeID('transferId', { description: 'The transfer.' }),
    transfer: t.field({
      type: InventoryTransferRef,
      nullable: true,
      authScopes: readScopesOf('InventoryTransfer'),
      description: 'The transfer itself, to follow its receipt (null for a caller who may not read transfers).',
      resolve: (row, _args, ctx) => linked(ctx, 'inventoryTransfer', row.transferId),
    }),
    reference: t.exposeString('reference', { nullable: true, description: 'The document number, when given.' }),
    sourceLocationId: t.exposeID('sourceLocationId', { description: 'Where the stock left from.' }),
    destLocationId: t.exposeID('destLocationId', { description: 'The destruction location.' }),
    status: t.exposeString('status', { description: 'IN_TRANSIT: received at the destination the normal way (POST /api/inventory/transfers/{id}, action receive).' }),
    stockLineIds: t.exposeIDList('stockLineIds', { description: 'The stock lines whose units it carries.' }),
    totalQuantity: t.exposeInt('totalQuantity', { description: 'Units it carries.' }),
  }),
});

const DestructionResultType = builder.objectRef<DestructionResult>('ExpiredStockDestructionResult').implement({
  description: 'What sending expired stock for destruction changed: the lines, and the transfers to the destruction location or the document of the write-off.',
  fields: (t) => ({
    success: t.exposeBoolean('success', { description: 'Always true (a refused request answers a MutationError instead and changes nothing).' }),
    action: t.exposeString('action', { description: 'TRANSFER_OUT (sent to a destruction location) or DESTROY (written off): the transaction type of its ledger rows.' }),
    lines: t.field({ type: [ExpiredActionLineType], description: 'The lines changed (bounded by the request: at most 500 lines, or those of one lot or location).', resolve: (r) => r.lines }),
    totalQuantity: t.exposeInt('totalQuantity', { description: 'Units sent for destruction over the lines.' }),
    destinationLocationId: t.exposeID('destinationLocationId', { nullable: true, description: 'The destruction location (null for a write-off).' }),
    documentNumber: t.exposeString('documentNumber', { nullable: true, description: 'The destruction certificate or write-off document (on the ledger rows of a write-off; the transfers\' reference).' }),
    transfers: t.field({ type: [DestructionTransferType], description: 'The transfers to the destruction location (empty for a write-off).', resolve: (r) => r.transfers }),
  }),
});

const ExpiredStockActionInput = contractInput('ExpiredStockActionInput', expiredStockAction, {
  description: 'Which expired stock to act on, and why.',
  types: { reasonCodeId: 'String' },
  names: { lines: 'ExpiredStockActionLineInput' },
  descriptions: { lines: 'One stock line and how many of its units.' },
});

const ExpiredStockDestructionInput = contractInput('ExpiredStockDestructionInput', expiredStockDestruction, {
  description: 'Which expired stock to send for destruction, where (or under which document), and why.',
  types: { reasonCodeId: 'String' },
  names: { lines: 'ExpiredStockDestructionLineInput' },
  descriptions: { lines: 'One stock line and how many of its units.' },
});

builder.queryFields((t) => ({
  expiredStock: t.field({
    type: ExpiredStockType,
    description: 'Stock lines whose lot expired before asOf (default today), with totals in units and value; filter ids that are not the organization\'s are NOT_FOUND.',
    authScopes: { permission: 'inventory.read' },
    args: contractArgs(t, expiredStockQuery, { types: { asOf: 'Date' } }),
    resolve: (_parent, args, ctx) => listExpiredStock(ctx, parseInput(expiredStockQuery, args)),
  }),
}));

const inputArg = (t: any) => ({ input: t.arg({ type: ExpiredStockActionInput, required: true, description: 'The lines (or lot / location) and the reason.' }) });

builder.mutationFields((t) => ({
  markExpired: t.field({
    refusals: ['ValidationError'],
    type: ExpiredActionResultType,
    description: 'Moves available units of expired lots into expired (EXPIRE ledger rows), all or nothing. A line whose lot has not expired is refused unless force (admins only).',
    authScopes: { permission: 'inventory.write' },
    args: inputArg(t),
    resolve: (_parent, args, ctx) => actOnExpiredStock(ctx, 'EXPIRE', parseInput(expiredStockAction, args.input)),
  }),
  markExpiredConsumed: t.field({
    refusals: ['ValidationError'],
    type: ExpiredActionResultType,
    description: 'Writes expired stock off as used: on hand down, expired units first (CONSUME ledger rows), all or nothing. Unexpired lots are refused unless force (admins only).',
    authScopes: { permission: 'inventory.write' },
    args: inputArg(t),
    resolve: (_parent, args, ctx) => actOnExpiredStock(ctx, 'CONSUME', parseInput(expiredStockAction, args.input)),
  }),
  destroyExpiredStock: t.field({
    refusals: ['ValidationError'],
    type: DestructionResultType,
    description:
      'Sends expired stock for destruction, all or nothing: with destinationLocationId an inventory transfer per source location, shipped at once (TRANSFER_OUT rows; ' +
      'received at the destination as expired units), else a write-off under documentNumber (DESTROY rows). Unexpired lots are refused unless force (admins only).',
    authScopes: { permission: 'inventory.write' },
    args: { input: t.arg({ type: ExpiredStockDestructionInput, required: true, description: 'The lines (or lot / location), the destination or document, and the reason.' }) },
    resolve: (_parent, args, ctx) => destroyExpiredStock(ctx, parseInput(expiredStockDestruction, args.input)),
  }),
}));
