import { MAX_WINDOW_DAYS } from '../../../kernel/input-limits.js';
import { TRANSFERS_DEFAULT_LIMIT, TRANSFERS_MAX_LIMIT } from '../../../contracts/transfers/inventory-transfers/inventory-transfer-queries.js';
import { builder } from '../../builder.js';
import { ProductType } from '../../products/product.js';
import { LocationType } from '../../master-data/location.js';
import { ownProduct, ownLocation } from '../../record-loaders.js';
import { createTransfer, type TransferCreateInput, type TransferUpdateInput, updateTransfer } from '../../../services/transfers/inventory-transfers/transfer-drafts.js';
import { getTransfer, inTransit, type InTransitRow, listTransfers, type TransferListArgs } from '../../../services/transfers/inventory-transfers/transfer-queries.js';
import { cancelTransfer, receiveTransfer, type TransferReceiveInput } from '../../../services/transfers/inventory-transfers/transfer-receiving.js';
import { shipTransfer } from '../../../services/transfers/inventory-transfers/transfer-shipping.js';
import { actOnTransfer, type TransferActionInput } from '../../../services/transfers/inventory-transfers/transfer-actions.js';
import { InventoryTransferRef } from './inventory-transfer-types.js';
import { canReadTransfers, canWriteTransfers } from '../transfer-scopes.js';
import { positionCursors, windowConnection } from '../../window-connection.js';

type Page = Awaited<ReturnType<typeof listTransfers>>;

const PageRef = builder.objectRef<Page>('InventoryTransferPage').implement({
  description: 'One page of inventory transfers, newest first.',
  fields: (t) => ({
    transfers: t.field({ type: [InventoryTransferRef], description: 'Transfers on this page, with their lines.', resolve: (p) => p.transfers }),
    total: t.exposeInt('total', { description: 'Transfers matching the filters in all pages.' }),
    limit: t.exposeInt('limit', { description: 'Page size.' }),
    offset: t.exposeInt('offset', { description: 'Transfers skipped before this page.' }),
  }),
});

const InTransitRowRef = builder.objectRef<InTransitRow>('InTransitStock').implement({
  description: 'Units of one product in transit to or from one location (shipped, not yet received).',
  fields: (t) => ({
    productMasterId: t.exposeID('productMasterId', { description: 'The product.' }),
    product: t.field({ type: ProductType, description: 'The product.', resolve: (row, _args, ctx) => ownProduct(ctx, row.productMasterId) }),
    locationId: t.exposeID('locationId', { description: 'The location.' }),
    location: t.field({ type: LocationType, description: 'The location.', resolve: (row, _args, ctx) => ownLocation(ctx, row.locationId) }),
    inbound: t.expose('inbound', { type: 'BigQuantity', description: 'Units on their way to this location.' }),
    outbound: t.expose('outbound', { type: 'BigQuantity', description: 'Units shipped from this location and not yet received at their destination.' }),
  }),
});

const InTransitRef = builder.objectRef<Awaited<ReturnType<typeof inTransit>>>('InTransitReport').implement({
  description: 'Stock in transit per location and product.',
  fields: (t) => ({
    inTransit: t.field({ type: [InTransitRowRef], description: 'One entry per location and product with units in transit.', resolve: (r) => r.inTransit }),
    totalInbound: t.expose('totalInbound', { type: 'BigQuantity', description: 'Inbound units summed over the entries.' }),
    totalOutbound: t.expose('totalOutbound', { type: 'BigQuantity', description: 'Outbound units summed over the entries.' }),
  }),
});

const LineInput = builder.inputType('InventoryTransferLineInput', {
  description: 'One line of a transfer.',
  fields: (t) => ({
    productMasterId: t.id({ required: true, description: 'The product (404 when it is not one of the organization).' }),
    quantity: t.int({ required: true, description: 'Units to move, more than 0.' }),
    lotId: t.id({ description: 'Ship only from this lot of the product (absent: first-expiring lots first).' }),
    binId: t.id({ description: 'Ship only from this bin of the source location.' }),
    destBinId: t.id({ description: 'Put the units into this bin of the destination on receipt.' }),
  }),
});

const CreateInput = builder.inputType('InventoryTransferCreateInput', {
  description: 'A new DRAFT transfer.',
  fields: (t) => ({
    sourceLocationId: t.id({ required: true, description: 'Where the stock leaves from.' }),
    destLocationId: t.id({ required: true, description: 'Where the stock goes; not the source.' }),
    lines: t.field({ type: [LineInput], required: true, description: 'What to move (1 to 500 lines).' }),
    reference: t.string({ description: 'Your reference.' }),
    notes: t.string({ description: 'Free text.' }),
    expectedAt: t.field({ type: 'Date', description: 'Expected arrival date (YYYY-MM-DD).' }),
  }),
});

const UpdateInput = builder.inputType('InventoryTransferUpdateInput', {
  description: 'Field updates of a DRAFT transfer; absent fields stay, null clears reference, notes and expectedAt.',
  fields: (t) => ({
    sourceLocationId: t.id({ description: 'New source location.' }),
    destLocationId: t.id({ description: 'New destination location.' }),
    lines: t.field({ type: [LineInput], description: 'Replaces every line.' }),
    reference: t.string({ description: 'Your reference.' }),
    notes: t.string({ description: 'Free text.' }),
    expectedAt: t.field({ type: 'Date', description: 'Expected arrival date (YYYY-MM-DD); null clears it.' }),
  }),
});

const ReceiptLineInput = builder.inputType('InventoryTransferReceiptLineInput', {
  description: 'Units of one line received now.',
  fields: (t) => ({
    lineId: t.id({ required: true, description: 'The transfer line.' }),
    quantity: t.int({ required: true, description: 'Units received now; at most what is still in transit on the line.' }),
    destBinId: t.id({ description: "Destination bin (default: the line's destBinId)." }),
  }),
});

const ReceiveInput = builder.inputType('InventoryTransferReceiveInput', {
  description: 'A receipt: quantities per line, or everything still in transit when lines is absent.',
  fields: (t) => ({
    lines: t.field({ type: [ReceiptLineInput], description: 'Quantities received per line; absent: everything still in transit.' }),
    comment: t.string({ description: 'Kept on the ledger rows.' }),
  }),
});

const ActionEnum = builder.enumType('InventoryTransferAction', {
  description: 'What inventoryTransferAction does.',
  values: {
    ship: { description: 'DRAFT → IN_TRANSIT (shipInventoryTransfer).' },
    receive: { description: 'Receive shipped units (receiveInventoryTransfer), with `receipt`.' },
    cancel: { description: 'DRAFT or IN_TRANSIT → CANCELLED (cancelInventoryTransfer).' },
    update: { description: 'Field updates while DRAFT (updateInventoryTransfer), with `changes`.' },
  } as const,
});

const ActionInput = builder.inputType('InventoryTransferActionInput', {
  description: 'One action on a transfer, as POST /api/inventory/transfers/{id} takes it.',
  fields: (t) => ({
    action: t.field({ type: ActionEnum, required: true, description: 'The action.' }),
    comment: t.string({ description: 'Kept on the ledger rows (ship, cancel).' }),
    receipt: t.field({ type: ReceiveInput, description: 'The receipt (receive); absent: everything still in transit.' }),
    changes: t.field({ type: UpdateInput, description: 'The changes (update).' }),
  }),
});

// GraphQL ID inputs arrive as strings at run time (graphql-js coerces them); the contracts check them.
const asInput = <T>(value: unknown) => value as T;

type QueryFieldBuilder = Parameters<Parameters<typeof builder.queryFields>[0]>[0];

/** The filters of the transfer list, the connection's and the REST adapter's page alike. */
const filterArgs = (t: QueryFieldBuilder) => ({
  status: t.arg.string({ description: 'DRAFT, IN_TRANSIT, RECEIVED or CANCELLED (comma-separated for several, any case).' }),
  sourceLocationId: t.arg.id({ description: 'Only transfers from this location.' }),
  destLocationId: t.arg.id({ description: 'Only transfers to this location.' }),
  locationId: t.arg.id({ description: 'Only transfers from or to this location.' }),
  productMasterId: t.arg.id({ description: 'Only transfers with a line of this product.' }),
  createdFrom: t.arg({ type: 'DateTime', description: 'Created at or after.' }),
  createdTo: t.arg({ type: 'DateTime', description: `Created at or before; at most ${MAX_WINDOW_DAYS} days after createdFrom.` }),
  shippedFrom: t.arg({ type: 'DateTime', description: 'Shipped at or after.' }),
  shippedTo: t.arg({ type: 'DateTime', description: `Shipped at or before; at most ${MAX_WINDOW_DAYS} days after shippedFrom.` }),
});

type DateFilters = { createdFrom?: Date | null; createdTo?: Date | null; shippedFrom?: Date | null; shippedTo?: Date | null };

const listArgs = <T extends DateFilters>(args: T): TransferListArgs => ({
  ...asInput<TransferListArgs>(args),
  createdFrom: args.createdFrom?.toISOString(),
  createdTo: args.createdTo?.toISOString(),
  shippedFrom: args.shippedFrom?.toISOString(),
  shippedTo: args.shippedTo?.toISOString(),
});

builder.queryFields((t) => ({
  inventoryTransfers: t.connection(
    {
      type: InventoryTransferRef,
      description: 'Inventory transfers with filters, newest first, as a Relay connection (NOT_FOUND for a filter id that is not the organization\'s).',
      authScopes: canReadTransfers,
      extensions: positionCursors(TRANSFERS_MAX_LIMIT),
      args: filterArgs(t),
      resolve: (_parent, args, ctx) =>
        windowConnection(args, TRANSFERS_DEFAULT_LIMIT, (window) => listTransfers(ctx, listArgs(args), window).then((page) => ({ items: page.transfers, total: page.total }))),
    },
    {
      name: 'InventoryTransferConnection',
      description: 'A page of inventory transfers with the cursors to fetch the next or previous page.',
      fields: (c) => ({ totalCount: c.int({ description: 'Transfers matching the filters, in all pages.', resolve: (page) => page.totalCount }) }),
    },
  ),
  inventoryTransfersPage: t.field({
    type: PageRef,
    description: "REST adapter's shape (GET /api/inventory/transfers): a page of inventory transfers by limit and offset, newest first.",
    deprecationReason: "The REST adapter's page shape (GET /api/inventory/transfers); GraphQL clients use the connection `inventoryTransfers`.",
    authScopes: canReadTransfers,
    args: {
      ...filterArgs(t),
      limit: t.arg.int({ description: `Page size, 1 to ${TRANSFERS_MAX_LIMIT} (default ${TRANSFERS_DEFAULT_LIMIT}).` }),
      offset: t.arg.int({ description: 'Transfers to skip (default 0).' }),
    },
    resolve: (_parent, args, ctx) => listTransfers(ctx, listArgs(args)),
  }),
  inventoryTransfer: t.field({
    type: InventoryTransferRef,
    description: "One transfer with its lines; null when it is unknown or not the organization's.",
    orNullWhenAbsent: true,
    authScopes: canReadTransfers,
    args: { id: t.arg.id({ required: true, description: 'The transfer.' }) },
    resolve: (_parent, args, ctx) => getTransfer(ctx, String(args.id)),
  }),
  inventoryInTransit: t.field({
    type: InTransitRef,
    description: 'Stock in transit per location and product: inbound to and outbound from each location.',
    authScopes: canReadTransfers,
    args: {
      locationId: t.arg.id({ description: 'Only this location.' }),
      productMasterId: t.arg.id({ description: 'Only this product.' }),
    },
    resolve: (_parent, args, ctx) => inTransit(ctx, asInput(args)),
  }),
}));

builder.mutationFields((t) => ({
  createInventoryTransfer: t.field({
    refusals: ['ValidationError'],
    type: InventoryTransferRef,
    description: 'Creates a DRAFT transfer; no stock moves until it is shipped.',
    authScopes: canWriteTransfers,
    args: { input: t.arg({ type: CreateInput, required: true, description: 'The transfer.' }) },
    resolve: (_parent, args, ctx) => createTransfer(ctx, asInput<TransferCreateInput>(args.input)),
  }),
  updateInventoryTransfer: t.field({
    refusals: ['ValidationError', 'NotFoundError', 'ConflictError'],
    type: InventoryTransferRef,
    description: 'Changes fields of a DRAFT transfer (else INVALID_STATE).',
    authScopes: canWriteTransfers,
    args: {
      id: t.arg.id({ required: true, description: 'The transfer.' }),
      input: t.arg({ type: UpdateInput, required: true, description: 'The changes.' }),
    },
    resolve: (_parent, args, ctx) => updateTransfer(ctx, String(args.id), asInput<TransferUpdateInput>(args.input)),
  }),
  shipInventoryTransfer: t.field({
    refusals: ['ValidationError', 'NotFoundError', 'ConflictError', 'InsufficientStockError'],
    type: InventoryTransferRef,
    description:
      'Ships a DRAFT transfer: every line leaves the source (TRANSFER_OUT ledger rows), all or nothing; INSUFFICIENT_STOCK with the lines at fault when the source lacks available stock.',
    authScopes: canWriteTransfers,
    args: {
      id: t.arg.id({ required: true, description: 'The transfer.' }),
      comment: t.arg.string({ description: 'Kept on the ledger rows.' }),
    },
    resolve: (_parent, args, ctx) => shipTransfer(ctx, String(args.id), { comment: args.comment }),
  }),
  receiveInventoryTransfer: t.field({
    refusals: ['ValidationError', 'NotFoundError', 'ConflictError'],
    type: InventoryTransferRef,
    description: 'Receives shipped units at the destination (TRANSFER_IN rows, lots kept); RECEIVED when every shipped unit is in. Over-receipt: VALIDATION_ERROR.',
    authScopes: canWriteTransfers,
    args: {
      id: t.arg.id({ required: true, description: 'The transfer.' }),
      input: t.arg({ type: ReceiveInput, description: 'The receipt; absent: everything still in transit.' }),
    },
    resolve: (_parent, args, ctx) => receiveTransfer(ctx, String(args.id), asInput<TransferReceiveInput>(args.input ?? {})),
  }),
  inventoryTransferAction: t.field({
    refusals: ['ValidationError', 'NotFoundError', 'ConflictError', 'InsufficientStockError'],
    type: InventoryTransferRef,
    description: 'Ships, receives, cancels or updates a transfer, as the mutation of that name does (what POST /api/inventory/transfers/{id} runs).',
    authScopes: canWriteTransfers,
    args: {
      id: t.arg.id({ required: true, description: 'The transfer.' }),
      input: t.arg({ type: ActionInput, required: true, description: 'The action.' }),
    },
    resolve: (_parent, args, ctx) => actOnTransfer(ctx, String(args.id), asInput<TransferActionInput>(args.input)),
  }),
  cancelInventoryTransfer: t.field({
    refusals: ['ValidationError', 'NotFoundError', 'ConflictError'],
    type: InventoryTransferRef,
    description: 'Cancels a DRAFT or IN_TRANSIT transfer; units in transit go back to the source lots they left.',
    authScopes: canWriteTransfers,
    args: {
      id: t.arg.id({ required: true, description: 'The transfer.' }),
      comment: t.arg.string({ description: 'Kept on the ledger rows.' }),
    },
    resolve: (_parent, args, ctx) => cancelTransfer(ctx, String(args.id), { comment: args.comment }),
  }),
}));
