import DataLoader from 'dataloader';
import { builder } from '../../builder.js';
import type { RequestContext } from '../../../context.js';
import {
  CYCLE_COUNT_BATCH_PAGE,
  cycleCountBatchAction,
  cycleCountBatchCreate,
  cycleCountBatchQuery,
} from '../../../contracts/inventory/cycle-counts/cycle-count-batch.js';
import { contractArgs, contractInput, parseInput } from '../../contract-input.js';
import { positionCursors, windowConnection } from '../../window-connection.js';
import { linked } from '../../record-loaders.js';
import { readScopesOf } from '../../link-scopes.js';
import { NodeRef } from '../../node/node-interface.js';
import { ProductType } from '../../products/product.js';
import { LocationType } from '../../master-data/location.js';
import { BinType, LotType, StockLineType } from '../stock-lines/stock-line.js';
import { batchLines, type BatchRow, type CountLine, listBatches, readBatch } from '../../../services/inventory/cycle-counts/batch-reads.js';
import { createCycleCountBatch } from '../../../services/inventory/cycle-counts/batch-create.js';
import { updateCycleCountBatch } from '../../../services/inventory/cycle-counts/batch-actions.js';

const CYCLE_COUNT = { permission: 'inventory.cyclecount' } as const;

// The lines of every batch a document reads, in one statement.
const perRequest = new WeakMap<object, DataLoader<string, CountLine[]>>();
function linesOf(ctx: RequestContext, batchId: string) {
  let loader = perRequest.get(ctx);
  if (!loader) {
    loader = new DataLoader(async (ids) => {
      const lines = await batchLines(ctx, ids);
      return ids.map((id) => lines.filter((line) => line.batchId === id));
    });
    perRequest.set(ctx, loader);
  }
  return loader.load(batchId);
}

export const CycleCountBatchStatusEnum = builder.enumType('CycleCountBatchStatus', {
  description: 'Where a cycle count batch is: IN_PROGRESS takes counts; COMPLETED and CANCELLED take nothing.',
  values: {
    IN_PROGRESS: { description: 'Being counted.' },
    COMPLETED: { description: 'Every line counted and the batch closed.' },
    CANCELLED: { description: 'Abandoned; its counts are kept and never resolved.' },
  } as const,
});

const CountEntryType = builder.objectRef<CountLine['history'][number]>('CycleCountEarlierCount').implement({
  description: 'A count a recount replaced.',
  fields: (t) => ({
    countedQty: t.exposeInt('countedQty', { description: 'Units counted then.' }),
    expectedQty: t.exposeInt('expectedQty', { description: 'On hand the system expected at that moment.' }),
    countedAt: t.exposeString('countedAt', { description: 'When (ISO date-time).' }),
    countedBy: t.exposeString('countedBy', { description: 'Who (user or API key id).' }),
  }),
});

const CountLineType = builder.objectRef<CountLine>('CycleCountLine').implement({
  interfaces: [NodeRef],
  description: 'One product, lot and bin to count in a batch: from the snapshot, or found by the counter.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Identifier of the line in its batch.' }),
    productMasterId: t.exposeID('productMasterId', { description: 'The product.' }),
    product: t.field({ type: ProductType, nullable: true, authScopes: readScopesOf('Product'), description: 'The product record.', resolve: (l, _a, ctx) => linked(ctx, 'product', l.productMasterId) }),
    sku: t.exposeString('sku', { description: "The product's SKU." }),
    productName: t.exposeString('productName', { description: "The product's name." }),
    lotId: t.exposeID('lotId', { nullable: true, description: 'The lot (null: none).' }),
    lot: t.field({ type: LotType, nullable: true, authScopes: readScopesOf('Lot'), description: 'The lot record.', resolve: (l, _a, ctx) => linked(ctx, 'lot', l.lotId) }),
    lotCode: t.exposeString('lotCode', { nullable: true, description: 'Code of the lot.' }),
    expiryDate: t.expose('expiryDate', { type: 'Date', nullable: true, description: 'Expiry date of the lot.' }),
    binId: t.exposeID('binId', { nullable: true, description: 'The bin (null: none).' }),
    bin: t.field({ type: BinType, nullable: true, authScopes: readScopesOf('Bin'), description: 'The bin record.', resolve: (l, _a, ctx) => linked(ctx, 'bin', l.binId) }),
    binCode: t.exposeString('binCode', { nullable: true, description: 'Code of the bin.' }),
    stockLineId: t.exposeID('stockLineId', { nullable: true, description: 'The stock line counted (null: a found line with no stock line).' }),
    stockLine: t.field({ type: StockLineType, nullable: true, authScopes: readScopesOf('StockLine'), description: 'The stock line record.', resolve: (l, _a, ctx) => linked(ctx, 'stockLine', l.stockLineId) }),
    snapshotQty: t.exposeInt('snapshotQty', { description: 'On hand when the batch was made (0 for a found line).' }),
    found: t.exposeBoolean('found', { description: 'Added by a count: the snapshot did not have it.' }),
    countedQty: t.exposeInt('countedQty', { nullable: true, description: 'Units counted (null: not counted yet).' }),
    expectedQty: t.exposeInt('expectedQty', { nullable: true, description: 'On hand at the moment of the count: the snapshot plus every movement since.' }),
    varianceQty: t.int({ nullable: true, description: 'countedQty - expectedQty (null: not counted yet).', resolve: (l) => (l.countedQty === null || l.expectedQty === null ? null : l.countedQty - l.expectedQty) }),
    countedAt: t.expose('countedAt', { type: 'DateTime', nullable: true, description: 'When it was last counted.' }),
    countedBy: t.exposeString('countedBy', { nullable: true, description: 'Who counted it last (user or API key id).' }),
    history: t.field({ type: [CountEntryType], description: 'Earlier counts recounts replaced, oldest first.', resolve: (l) => l.history }),
  }),
});

export const CycleCountBatchType = builder.objectRef<BatchRow>('CycleCountBatch').implement({
  interfaces: [NodeRef],
  description: 'A count of some stock lines of one location, assigned to a user, with the on hand each line had when it was made.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Identifier.' }),
    locationId: t.exposeID('locationId', { description: 'The location counted.' }),
    location: t.field({ type: LocationType, nullable: true, authScopes: readScopesOf('Location'), description: 'The location record.', resolve: (b, _a, ctx) => linked(ctx, 'location', b.locationId) }),
    status: t.field({ type: CycleCountBatchStatusEnum, description: 'Where the batch is.', resolve: (b) => b.status }),
    assigneeId: t.exposeID('assigneeId', { nullable: true, description: 'The user who counts (null: anyone).' }),
    createdBy: t.exposeString('createdBy', { description: 'Who made it (user or API key id).' }),
    itemCount: t.exposeInt('itemCount', { description: 'Lines to count, found lines included.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was made (the snapshot).' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When it last changed.' }),
    completedAt: t.expose('completedAt', { type: 'DateTime', nullable: true, description: 'When it was completed.' }),
    cancelledAt: t.expose('cancelledAt', { type: 'DateTime', nullable: true, description: 'When it was cancelled.' }),
    lines: t.field({ type: [CountLineType], description: `Its lines (at most 2000), by bin, SKU and lot.`, resolve: (b, _a, ctx) => linesOf(ctx, b.id) }),
  }),
});

type Page = Awaited<ReturnType<typeof listBatches>>;

const BatchPageType = builder.objectRef<Page>('CycleCountBatchPage').implement({
  description: 'One page of cycle count batches (what GET /api/inventory/cycle-count serves in mode batches).',
  fields: (t) => ({
    type: t.exposeString('type', { description: 'Always batches.' }),
    batches: t.field({ type: [CycleCountBatchType], description: 'Batches on this page, newest first.', resolve: (p) => p.batches }),
    count: t.exposeInt('count', { description: 'Batches matching the filters in all pages.' }),
    page: t.exposeInt('page', { description: 'Page number, from 1.' }),
    pageSize: t.exposeInt('pageSize', { description: 'Page size (the limit asked for).' }),
    total: t.exposeInt('total', { description: 'The same as count.' }),
    totalPages: t.exposeInt('totalPages', { description: 'Number of pages.' }),
  }),
});

const CreateInput = contractInput('CycleCountBatchCreateInput', cycleCountBatchCreate, {
  description: 'A new batch: the location, what to count (products, bins or the next N of the schedule) and who counts.',
  types: { locationId: 'ID', productMasterIds: ['ID'], binIds: ['ID'], assigneeId: 'ID' },
});

const ActionInput = contractInput('CycleCountBatchActionInput', cycleCountBatchAction, {
  description: 'Record counts, complete or cancel a batch.',
  types: { action: 'String', 'counts.lineId': 'ID', 'counts.productMasterId': 'ID', 'counts.lotId': 'ID', 'counts.binId': 'ID' },
  names: { counts: 'CycleCountEntryInput' },
  descriptions: { counts: 'One count: a line of the batch, or a product, lot and bin.' },
});

builder.queryFields((t) => {
  const args = (paging: 'pages' | 'window') => contractArgs(t, cycleCountBatchQuery, { omit: paging === 'window' ? ['page', 'limit'] : [], types: { locationId: 'ID', assigneeId: 'ID', status: CycleCountBatchStatusEnum } });
  return {
    cycleCountBatch: t.field({
      type: CycleCountBatchType,
      nullable: true,
      orNullWhenAbsent: true,
      description: "One cycle count batch with its lines; null when it is unknown or not the organization's.",
      authScopes: CYCLE_COUNT,
      args: { id: t.arg.id({ required: true, description: 'The batch.' }) },
      resolve: (_parent, args, ctx) => readBatch(ctx, String(args.id)),
    }),
    cycleCountBatches: t.connection(
      {
        extensions: positionCursors(CYCLE_COUNT_BATCH_PAGE.max),
        type: CycleCountBatchType,
        description: 'Cycle count batches of a location, newest first, as a Relay connection.',
        authScopes: CYCLE_COUNT,
        args: args('window'),
        resolve: (_parent, args, ctx) =>
          windowConnection(args, CYCLE_COUNT_BATCH_PAGE.limit, (window) =>
            listBatches(ctx, parseInput(cycleCountBatchQuery, args), window).then((page) => ({ items: page.batches, total: page.total })),
          ),
      },
      {
        name: 'CycleCountBatchConnection',
        description: 'A page of cycle count batches with the cursors to fetch the next or previous page.',
        fields: (c) => ({ totalCount: c.int({ description: 'Batches matching the filters.', resolve: (page) => page.totalCount }) }),
      },
    ),
    cycleCountBatchesPage: t.field({
      type: BatchPageType,
      description: "REST adapter's shape (GET /api/inventory/cycle-count, mode batches): batches by page number.",
      deprecationReason: "The REST adapter's page shape (GET /api/inventory/cycle-count?mode=batches); GraphQL clients use the connection `cycleCountBatches`.",
      authScopes: CYCLE_COUNT,
      args: args('pages'),
      resolve: (_parent, args, ctx) => listBatches(ctx, parseInput(cycleCountBatchQuery, args)),
    }),
  };
});

builder.mutationFields((t) => ({
  createCycleCountBatch: t.field({
    refusals: ['ValidationError', 'ConflictError'],
    type: CycleCountBatchType,
    description:
      'Creates a batch IN_PROGRESS over the stock lines chosen, each with its on hand now and its ledger position. A stock line already in an open count line ' +
      '(a batch IN_PROGRESS, or a COMPLETED one with its variance to resolve) is refused with INVALID_STATE, `fields` naming each such line and its batch.',
    authScopes: CYCLE_COUNT,
    args: { input: t.arg({ type: CreateInput, required: true, description: 'The batch.' }) },
    resolve: (_parent, args, ctx) => createCycleCountBatch(ctx, parseInput(cycleCountBatchCreate, args.input)),
  }),
  updateCycleCountBatch: t.field({
    refusals: ['ValidationError', 'NotFoundError', 'ConflictError'],
    type: CycleCountBatchType,
    description: 'Records counts (a recount replaces the earlier count and keeps it in the history), completes or cancels a batch. A batch that is not IN_PROGRESS: INVALID_STATE.',
    authScopes: CYCLE_COUNT,
    args: {
      id: t.arg.id({ required: true, description: 'The batch.' }),
      input: t.arg({ type: ActionInput, required: true, description: 'The action.' }),
    },
    resolve: (_parent, args, ctx) => updateCycleCountBatch(ctx, String(args.id), parseInput(cycleCountBatchAction, args.input)),
  }),
}));
