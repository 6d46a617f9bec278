import {
  inventoryTransferActionInput,
  inventoryTransferCreate,
  inventoryTransferNote,
  inventoryTransferReceive,
  inventoryTransferUpdate,
  transferLineInput,
  transferReceiptLine,
} from '../../../contracts/transfers/inventory-transfers/inventory-transfer.js';
import { inTransitQuery, inventoryTransferListQuery, TRANSFERS_DEFAULT_LIMIT, TRANSFERS_MAX_LIMIT } from '../../../contracts/transfers/inventory-transfers/inventory-transfer-queries.js';
import { contractArgs, contractInput, parseInput } from '../../contract-input.js';
import { builder } from '../../builder.js';
import { ProductType } from '../../products/product.js';
import { LocationType } from '../../master-data/location.js';
import { ownProduct, ownLocation } from '../../record-loaders.js';
import { createTransfer, updateTransfer } from '../../../services/transfers/inventory-transfers/transfer-drafts.js';
import { getTransfer, inTransit, type InTransitRow, listTransfers } from '../../../services/transfers/inventory-transfers/transfer-queries.js';
import { cancelTransfer, receiveTransfer } from '../../../services/transfers/inventory-transfers/transfer-receiving.js';
import { shipTransfer } from '../../../services/transfers/inventory-transfers/transfer-shipping.js';
import { actOnTransfer } from '../../../services/transfers/inventory-transfers/transfer-actions.js';
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

const LineInput = contractInput('InventoryTransferLineInput', transferLineInput, { description: 'One line of a transfer.' });

const CreateInput = contractInput('InventoryTransferCreateInput', inventoryTransferCreate, {
  description: 'A new DRAFT transfer.',
  types: { lines: [LineInput] },
});

const UpdateInput = contractInput('InventoryTransferUpdateInput', inventoryTransferUpdate, {
  description: 'Field updates of a DRAFT transfer; absent fields stay, null clears reference, notes and expectedAt.',
  types: { lines: [LineInput] },
});

const ReceiptLineInput = contractInput('InventoryTransferReceiptLineInput', transferReceiptLine, { description: 'Units of one line received now.' });

const ReceiveInput = contractInput('InventoryTransferReceiveInput', inventoryTransferReceive, {
  description: 'A receipt: quantities per line, or everything still in transit when lines is absent.',
  types: { lines: [ReceiptLineInput] },
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

const ActionInput = contractInput('InventoryTransferActionInput', inventoryTransferActionInput, {
  description: 'One action on a transfer, as POST /api/inventory/transfers/{id} takes it.',
  types: { action: ActionEnum, receipt: ReceiveInput, changes: UpdateInput },
});

type QueryFieldBuilder = Parameters<Parameters<typeof builder.queryFields>[0]>[0];

/** The filters of the transfer list, the connection's and the REST adapter's page alike. */
const filterArgs = (t: QueryFieldBuilder) => contractArgs(t, inventoryTransferListQuery, { omit: ['limit', 'offset'] });

/** The list's arguments parsed with its contract, which reads date-times as the text of a query string. */
const listArgs = (args: Record<string, unknown>) =>
  parseInput(inventoryTransferListQuery, Object.fromEntries(Object.entries(args).map(([key, value]) => [key, value instanceof Date ? value.toISOString() : value])));

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
    args: contractArgs(t, inventoryTransferListQuery),
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
    args: contractArgs(t, inTransitQuery),
    resolve: (_parent, args, ctx) => inTransit(ctx, parseInput(inTransitQuery, args)),
  }),
}));

builder.mutationFields((t) => ({
  createInventoryTransfer: t.field({
    refusals: ['ValidationError'],
    type: InventoryTransferRef,
    description: 'Creates a DRAFT transfer; no stock moves until it is shipped.',
    authScopes: canWriteTransfers,
    args: { input: t.arg({ type: CreateInput, required: true, description: 'The transfer.' }) },
    resolve: (_parent, args, ctx) => createTransfer(ctx, parseInput(inventoryTransferCreate, args.input)),
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
    resolve: (_parent, args, ctx) => updateTransfer(ctx, String(args.id), parseInput(inventoryTransferUpdate, args.input)),
  }),
  shipInventoryTransfer: t.field({
    refusals: ['ValidationError', 'NotFoundError', 'ConflictError', 'InsufficientStockError'],
    type: InventoryTransferRef,
    description:
      'Ships a DRAFT transfer: every line leaves the source (TRANSFER_OUT ledger rows), all or nothing; INSUFFICIENT_STOCK with the lines at fault when the source lacks available stock.',
    authScopes: canWriteTransfers,
    args: {
      id: t.arg.id({ required: true, description: 'The transfer.' }),
      ...contractArgs(t, inventoryTransferNote),
    },
    resolve: (_parent, { id, ...note }, ctx) => shipTransfer(ctx, String(id), parseInput(inventoryTransferNote, note)),
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
    resolve: (_parent, args, ctx) => receiveTransfer(ctx, String(args.id), parseInput(inventoryTransferReceive, args.input ?? {})),
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
    resolve: (_parent, args, ctx) => actOnTransfer(ctx, String(args.id), parseInput(inventoryTransferActionInput, args.input)),
  }),
  cancelInventoryTransfer: t.field({
    refusals: ['ValidationError', 'NotFoundError', 'ConflictError'],
    type: InventoryTransferRef,
    description: 'Cancels a DRAFT or IN_TRANSIT transfer; units in transit go back to the source lots they left.',
    authScopes: canWriteTransfers,
    args: {
      id: t.arg.id({ required: true, description: 'The transfer.' }),
      ...contractArgs(t, inventoryTransferNote),
    },
    resolve: (_parent, { id, ...note }, ctx) => cancelTransfer(ctx, String(id), parseInput(inventoryTransferNote, note)),
  }),
}));
