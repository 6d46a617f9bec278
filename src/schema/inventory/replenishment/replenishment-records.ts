import {
  REPLENISHMENT_DEFAULT_LIMIT,
  REPLENISHMENT_MAX_LIMIT,
  replenishmentActionInput,
  replenishmentCreate,
  replenishmentItem,
  replenishmentListQuery,
  replenishmentMove,
} from '../../../contracts/inventory/replenishment/replenishment-records.js';
import { actOnReplenishment } from '../../../services/inventory/replenishment/replenishment-actions.js';
import { approveReplenishment } from '../../../services/inventory/replenishment/replenishment-approve.js';
import { cancelReplenishment } from '../../../services/inventory/replenishment/replenishment-cancel.js';
import { convertReplenishment } from '../../../services/inventory/replenishment/replenishment-convert.js';
import { createReplenishments } from '../../../services/inventory/replenishment/replenishment-create.js';
import { getReplenishment, listReplenishments } from '../../../services/inventory/replenishment/replenishment-queries.js';
import type { ReplenishmentRecord } from '../../../generated/prisma/client.js';
import { builder } from '../../builder.js';
import { contractArgs, contractInput, parseInput } from '../../contract-input.js';
import { positionCursors, windowConnection } from '../../window-connection.js';
import { ReplenishmentRecordRef, ReplenishmentSourceTypeEnum } from './replenishment-types.js';

const canRead = { permission: 'replenishment.read' } as const;
const canWrite = { permission: 'replenishment.write' } as const;

type Page = Awaited<ReturnType<typeof listReplenishments>>;

const PageRef = builder.objectRef<Page>('ReplenishmentRecordPage').implement({
  description: 'One page of replenishment records, newest first.',
  fields: (t) => ({
    records: t.field({ type: [ReplenishmentRecordRef], description: 'Records on this page.', resolve: (p) => p.records }),
    total: t.exposeInt('total', { description: 'Records matching the filters in all pages.' }),
    limit: t.exposeInt('limit', { description: 'Page size.' }),
    offset: t.exposeInt('offset', { description: 'Records skipped before this page.' }),
  }),
});

const RecordListRef = builder.objectRef<{ records: ReplenishmentRecord[] }>('ReplenishmentRecordList').implement({
  description: 'Replenishment records a mutation created or moved, in order.',
  fields: (t) => ({
    records: t.field({ type: [ReplenishmentRecordRef], description: 'The records.', resolve: (r) => r.records }),
  }),
});

const ItemInput = contractInput('ReplenishmentItemInput', replenishmentItem, {
  description: 'One item to record, as a replenishment suggestion carries it.',
  types: { productMasterId: 'ID', locationId: 'ID', supplierId: 'ID', sourceLocationId: 'ID', sourceType: ReplenishmentSourceTypeEnum },
});

const CreateInput = contractInput('ReplenishmentCreateInput', replenishmentCreate, {
  description: 'Items to record as PROPOSED replenishment records, all or none.',
  types: { items: [ItemInput] },
});

const MoveInput = contractInput('ReplenishmentMoveInput', replenishmentMove, {
  description: 'The record to move, and a comment kept on it.',
  types: { id: 'ID' },
});

const ActionEnum = builder.enumType('ReplenishmentAction', {
  description: 'What replenishmentAction does.',
  values: {
    create: { description: 'Record items as PROPOSED (createReplenishmentRecords), with `items`.' },
    approve: { description: 'PROPOSED → APPROVED (approveReplenishmentRecord), with `id`.' },
    convert: { description: 'APPROVED → ORDERED (convertReplenishmentRecord), with `id`.' },
    cancel: { description: 'PROPOSED or APPROVED → CANCELLED (cancelReplenishmentRecord), with `id`.' },
  } as const,
});

const ActionInput = contractInput('ReplenishmentActionInput', replenishmentActionInput, {
  description: 'One action, as POST /api/inventory/replenishment takes it.',
  types: { action: ActionEnum, items: [ItemInput], id: 'ID' },
});

type QueryFieldBuilder = Parameters<Parameters<typeof builder.queryFields>[0]>[0];
const filterArgs = (t: QueryFieldBuilder) => contractArgs(t, replenishmentListQuery, { omit: ['limit', 'offset'] });

builder.queryFields((t) => ({
  replenishmentRecords: t.connection(
    {
      type: ReplenishmentRecordRef,
      description: "Replenishment records with filters, newest first, as a Relay connection (NOT_FOUND for a filter id that is not the organization's).",
      authScopes: canRead,
      extensions: positionCursors(REPLENISHMENT_MAX_LIMIT),
      args: filterArgs(t),
      resolve: (_parent, args, ctx) =>
        windowConnection(args, REPLENISHMENT_DEFAULT_LIMIT, (window) => listReplenishments(ctx, parseInput(replenishmentListQuery, args), window).then((page) => ({ items: page.records, total: page.total }))),
    },
    {
      name: 'ReplenishmentRecordConnection',
      description: 'A page of replenishment records with the cursors to fetch the next or previous page.',
      fields: (c) => ({ totalCount: c.int({ description: 'Records matching the filters, in all pages.', resolve: (page) => page.totalCount }) }),
    },
  ),
  replenishmentRecordsPage: t.field({
    type: PageRef,
    description: "REST adapter's shape (GET /api/inventory/replenishment): a page of replenishment records by limit and offset, newest first.",
    deprecationReason: "The REST adapter's page shape (GET /api/inventory/replenishment); GraphQL clients use the connection `replenishmentRecords`.",
    authScopes: canRead,
    args: contractArgs(t, replenishmentListQuery),
    resolve: (_parent, args, ctx) => listReplenishments(ctx, parseInput(replenishmentListQuery, args)),
  }),
  replenishmentRecord: t.field({
    type: ReplenishmentRecordRef,
    description: "One replenishment record; null when it is unknown or not the organization's.",
    orNullWhenAbsent: true,
    authScopes: canRead,
    args: { id: t.arg.id({ required: true, description: 'The record.' }) },
    resolve: (_parent, args, ctx) => getReplenishment(ctx, String(args.id)),
  }),
}));

builder.mutationFields((t) => ({
  createReplenishmentRecords: t.field({
    refusals: ['ValidationError', 'NotFoundError'],
    type: RecordListRef,
    description: "Records suggestion items as PROPOSED replenishment records, all or none (NOT_FOUND for a product, location or supplier that is not the organization's).",
    authScopes: canWrite,
    args: { input: t.arg({ type: CreateInput, required: true, description: 'The items.' }) },
    resolve: async (_parent, args, ctx) => ({ records: await createReplenishments(ctx, parseInput(replenishmentCreate, args.input)) }),
  }),
  approveReplenishmentRecord: t.field({
    refusals: ['ValidationError', 'NotFoundError', 'ConflictError'],
    type: ReplenishmentRecordRef,
    description: 'PROPOSED → APPROVED; any other state: ConflictError INVALID_STATE, nothing changed.',
    authScopes: canWrite,
    args: { input: t.arg({ type: MoveInput, required: true, description: 'The record.' }) },
    resolve: (_parent, args, ctx) => approveReplenishment(ctx, parseInput(replenishmentMove, args.input)),
  }),
  convertReplenishmentRecord: t.field({
    refusals: ['ValidationError', 'NotFoundError', 'ConflictError'],
    type: ReplenishmentRecordRef,
    description:
      'APPROVED → ORDERED: a PENDING purchase order of one line (sourceType SUPPLIER) or a DRAFT inventory transfer (sourceType LOCATION), linked on the record; ' +
      'any other state: ConflictError INVALID_STATE, nothing created.',
    authScopes: canWrite,
    args: { input: t.arg({ type: MoveInput, required: true, description: 'The record.' }) },
    resolve: (_parent, args, ctx) => convertReplenishment(ctx, parseInput(replenishmentMove, args.input)),
  }),
  cancelReplenishmentRecord: t.field({
    refusals: ['ValidationError', 'NotFoundError', 'ConflictError'],
    type: ReplenishmentRecordRef,
    description: 'PROPOSED or APPROVED → CANCELLED; ORDERED or CANCELLED: ConflictError INVALID_STATE, nothing changed.',
    authScopes: canWrite,
    args: { input: t.arg({ type: MoveInput, required: true, description: 'The record.' }) },
    resolve: (_parent, args, ctx) => cancelReplenishment(ctx, parseInput(replenishmentMove, args.input)),
  }),
  replenishmentAction: t.field({
    refusals: ['ValidationError', 'NotFoundError', 'ConflictError'],
    type: RecordListRef,
    description: 'Creates records or moves one, as the mutation of that name does (what POST /api/inventory/replenishment runs): the records created, or the one moved.',
    authScopes: canWrite,
    args: { input: t.arg({ type: ActionInput, required: true, description: 'The action.' }) },
    resolve: async (_parent, args, ctx) => ({ records: await actOnReplenishment(ctx, parseInput(replenishmentActionInput, args.input)) }),
  }),
}));
