import { STOCK_REQUESTS_DEFAULT_LIMIT, STOCK_REQUESTS_MAX_LIMIT, stockRequestHistoryQuery, stockRequestListQuery } from '../../contracts/stock-requests/stock-request-queries.js';
import {
  stockRequestApprove,
  stockRequestApprovedLine,
  stockRequestComment,
  stockRequestCreate,
  stockRequestLine,
  stockRequestLineChange,
  stockRequestLinesSet,
  stockRequestMove,
  stockRequestReject,
  stockRequestStatusMove,
  stockRequestUpdate,
} from '../../contracts/stock-requests/stock-requests.js';
import { approveStockRequest } from '../../services/stock-requests/stock-request-approve.js';
import { cancelStockRequest } from '../../services/stock-requests/stock-request-cancel.js';
import { commentOnStockRequest } from '../../services/stock-requests/stock-request-comment.js';
import { createStockRequest, deleteStockRequest, updateStockRequest } from '../../services/stock-requests/stock-request-drafts.js';
import { setStockRequestLines } from '../../services/stock-requests/stock-request-lines.js';
import { getStockRequest, listStockRequests, stockRequestHistory } from '../../services/stock-requests/stock-request-queries.js';
import { rejectStockRequest } from '../../services/stock-requests/stock-request-reject.js';
import { rollbackStockRequest } from '../../services/stock-requests/stock-request-rollback.js';
import { moveStockRequest } from '../../services/stock-requests/stock-request-status.js';
import { submitStockRequest } from '../../services/stock-requests/stock-request-submit.js';
import { builder } from '../builder.js';
import { contractArgs, contractInput, parseInput } from '../contract-input.js';
import { positionCursors, windowConnection } from '../window-connection.js';
import { StockRequestEventRef, StockRequestPriorityEnum, StockRequestRef, StockRequestStatusEnum } from './stock-request-types.js';

const canRead = { permission: 'stockrequests.read' } as const;
const canWrite = { permission: 'stockrequests.write' } as const;
const canApprove = { permission: 'stockrequests.approve' } as const;

type Page = Awaited<ReturnType<typeof listStockRequests>>;
type History = Awaited<ReturnType<typeof stockRequestHistory>>;

const PageRef = builder.objectRef<Page>('StockRequestPage').implement({
  description: 'One page of stock requests, newest first.',
  fields: (t) => ({
    requests: t.field({ type: [StockRequestRef], description: 'Requests on this page.', resolve: (p) => p.requests }),
    total: t.exposeInt('total', { description: 'Requests matching the filters in all pages.' }),
    limit: t.exposeInt('limit', { description: 'Page size.' }),
    offset: t.exposeInt('offset', { description: 'Requests skipped before this page.' }),
  }),
});

const HistoryRef = builder.objectRef<History>('StockRequestHistory').implement({
  description: "A page of a stock request's history, oldest first, with its state now.",
  fields: (t) => ({
    requestId: t.exposeID('id', { description: 'The request.' }),
    status: t.field({ type: StockRequestStatusEnum, description: 'Its state now.', resolve: (h) => h.status }),
    events: t.field({ type: [StockRequestEventRef], description: 'Entries on this page, oldest first.', resolve: (h) => h.events }),
    total: t.exposeInt('total', { description: 'Entries in all pages.' }),
    limit: t.exposeInt('limit', { description: 'Page size.' }),
    offset: t.exposeInt('offset', { description: 'Entries skipped before this page.' }),
  }),
});

const LineInput = contractInput('StockRequestLineInput', stockRequestLine, { description: 'One product asked for.', types: { productMasterId: 'ID' } });
const LineChangeInput = contractInput('StockRequestLineChangeInput', stockRequestLineChange, {
  description: 'A line to add or change (DRAFT: quantityRequested), or its approved quantity (SUBMITTED: quantityApproved).',
  types: { productMasterId: 'ID' },
});
const ApprovedLineInput = contractInput('StockRequestApprovedLineInput', stockRequestApprovedLine, { description: 'The approved quantity of one line, named by its product.', types: { productMasterId: 'ID' } });
const CreateInput = contractInput('StockRequestCreateInput', stockRequestCreate, {
  description: 'A DRAFT stock request.',
  types: { requestingLocationId: 'ID', supplyingLocationId: 'ID', priority: StockRequestPriorityEnum, lines: [LineInput] },
});
const UpdateInput = contractInput('StockRequestUpdateInput', stockRequestUpdate, {
  description: 'Fields of a DRAFT request to change; lines given replace all.',
  types: { id: 'ID', requestingLocationId: 'ID', supplyingLocationId: 'ID', priority: StockRequestPriorityEnum, lines: [LineInput] },
});
const MoveInput = contractInput('StockRequestMoveInput', stockRequestMove, { description: 'The request to move, and a note kept in its history.', types: { id: 'ID' } });
const ApproveInput = contractInput('StockRequestApproveInput', stockRequestApprove, {
  description: 'The request to approve, with approved quantities of some lines (the others: as set earlier, else as requested).',
  types: { id: 'ID', lines: [ApprovedLineInput] },
});
const RejectInput = contractInput('StockRequestRejectInput', stockRequestReject, { description: 'The request to reject and why.', types: { id: 'ID' } });
const CommentInput = contractInput('StockRequestCommentInput', stockRequestComment, { description: 'A comment on a request.', types: { id: 'ID' } });
const LinesInput = contractInput('StockRequestLinesInput', stockRequestLinesSet, { description: 'Lines of a request to add or change.', types: { id: 'ID', lines: [LineChangeInput] } });
const StatusTargetEnum = builder.enumType('StockRequestStatusTarget', {
  description: 'The states moveStockRequest moves to.',
  values: {
    SUBMITTED: { description: 'Submit (DRAFT).' },
    APPROVED: { description: 'Approve whole (SUBMITTED; stockrequests.approve, not by the requester unless a tenant administrator).' },
    REJECTED: { description: 'Reject (SUBMITTED; stockrequests.approve), the note being the reason.' },
    CANCELLED: { description: 'Cancel (DRAFT, SUBMITTED or APPROVED).' },
    PARTIALLY_FULFILLED: { description: 'Fulfil (APPROVED or PARTIALLY_FULFILLED): ship everything approved and not yet fulfilled, as fulfilStockRequest without lines.' },
    FULFILLED: { description: 'Close (PARTIALLY_FULFILLED, every transfer received): the unfulfilled remainder closed and its reservation released.' },
  } as const,
});
const StatusInput = contractInput('StockRequestStatusInput', stockRequestStatusMove, { description: 'A move named by the state it reaches.', types: { id: 'ID', status: StatusTargetEnum } });

type QueryFieldBuilder = Parameters<Parameters<typeof builder.queryFields>[0]>[0];
const filterArgs = (t: QueryFieldBuilder) => contractArgs(t, stockRequestListQuery, { omit: ['limit', 'offset'] });

builder.queryFields((t) => ({
  stockRequests: t.connection(
    {
      type: StockRequestRef,
      description: "Stock requests with filters, newest first, as a Relay connection (NOT_FOUND for a filter location that is not the organization's).",
      authScopes: canRead,
      extensions: positionCursors(STOCK_REQUESTS_MAX_LIMIT),
      args: filterArgs(t),
      resolve: (_parent, args, ctx) =>
        windowConnection(args, STOCK_REQUESTS_DEFAULT_LIMIT, (window) => listStockRequests(ctx, parseInput(stockRequestListQuery, args), window).then((page) => ({ items: page.requests, total: page.total }))),
    },
    {
      name: 'StockRequestConnection',
      description: 'A page of stock requests with the cursors to fetch the next or previous page.',
      fields: (c) => ({ totalCount: c.int({ description: 'Requests matching the filters, in all pages.', resolve: (page) => page.totalCount }) }),
    },
  ),
  stockRequestsPage: t.field({
    type: PageRef,
    description: "REST adapter's shape (GET /api/stock-requests): a page of stock requests by limit and offset, newest first.",
    deprecationReason: "The REST adapter's page shape (GET /api/stock-requests); GraphQL clients use the connection `stockRequests`.",
    authScopes: canRead,
    args: contractArgs(t, stockRequestListQuery),
    resolve: (_parent, args, ctx) => listStockRequests(ctx, parseInput(stockRequestListQuery, args)),
  }),
  stockRequest: t.field({
    type: StockRequestRef,
    description: "One stock request with its lines; null when it is unknown or not the organization's.",
    orNullWhenAbsent: true,
    authScopes: canRead,
    args: { id: t.arg.id({ required: true, description: 'The request.' }) },
    resolve: (_parent, args, ctx) => getStockRequest(ctx, String(args.id)),
  }),
  stockRequestHistory: t.field({
    type: HistoryRef,
    description: "A page of a stock request's history (moves, rollbacks, comments, line changes), oldest first; null when the request is unknown or not the organization's.",
    orNullWhenAbsent: true,
    authScopes: canRead,
    args: { id: t.arg.id({ required: true, description: 'The request.' }), ...contractArgs(t, stockRequestHistoryQuery) },
    resolve: (_parent, args, ctx) => stockRequestHistory(ctx, String(args.id), parseInput(stockRequestHistoryQuery, args as Record<string, unknown>)),
  }),
}));

const move = (description: string) => ({ refusals: ['ValidationError', 'NotFoundError', 'ConflictError'] as const, type: StockRequestRef, description });

builder.mutationFields((t) => ({
  createStockRequest: t.field({
    refusals: ['ValidationError', 'NotFoundError'],
    type: StockRequestRef,
    description: "Creates a DRAFT stock request with its lines, numbered in the organization (NOT_FOUND for a location or product that is not the organization's).",
    authScopes: canWrite,
    args: { input: t.arg({ type: CreateInput, required: true, description: 'The request.' }) },
    resolve: (_parent, args, ctx) => createStockRequest(ctx, parseInput(stockRequestCreate, args.input)),
  }),
  updateStockRequest: t.field({
    ...move('Changes a DRAFT request (lines given replace all); any other state: ConflictError INVALID_STATE, nothing changed.'),
    authScopes: canWrite,
    args: { input: t.arg({ type: UpdateInput, required: true, description: 'The changes.' }) },
    resolve: (_parent, args, ctx) => updateStockRequest(ctx, parseInput(stockRequestUpdate, args.input)),
  }),
  deleteStockRequest: t.field({
    refusals: ['NotFoundError', 'ConflictError'],
    type: StockRequestRef,
    description: 'Deletes a DRAFT request with its lines and history, answering it as it was; any other state: ConflictError INVALID_STATE (cancel it instead).',
    authScopes: canWrite,
    args: { id: t.arg.id({ required: true, description: 'The request.' }) },
    resolve: (_parent, args, ctx) => deleteStockRequest(ctx, { id: String(args.id) }),
  }),
  submitStockRequest: t.field({
    ...move('DRAFT → SUBMITTED; any other state: ConflictError INVALID_STATE, nothing changed.'),
    authScopes: canWrite,
    args: { input: t.arg({ type: MoveInput, required: true, description: 'The request.' }) },
    resolve: (_parent, args, ctx) => submitStockRequest(ctx, parseInput(stockRequestMove, args.input)),
  }),
  approveStockRequest: t.field({
    ...move(
      'SUBMITTED → APPROVED, whole or with approved quantities of some lines (0 to the quantity requested). The requester may not approve their own request unless a tenant ' +
        'administrator (FORBIDDEN). Any other state: ConflictError INVALID_STATE, nothing changed.',
    ),
    authScopes: canApprove,
    args: { input: t.arg({ type: ApproveInput, required: true, description: 'The request and approved quantities.' }) },
    resolve: (_parent, args, ctx) => approveStockRequest(ctx, parseInput(stockRequestApprove, args.input)),
  }),
  rejectStockRequest: t.field({
    ...move('SUBMITTED → REJECTED with a reason; any other state: ConflictError INVALID_STATE, nothing changed.'),
    authScopes: canApprove,
    args: { input: t.arg({ type: RejectInput, required: true, description: 'The request and the reason.' }) },
    resolve: (_parent, args, ctx) => rejectStockRequest(ctx, parseInput(stockRequestReject, args.input)),
  }),
  cancelStockRequest: t.field({
    ...move('DRAFT, SUBMITTED or APPROVED → CANCELLED; any other state: ConflictError INVALID_STATE, nothing changed.'),
    authScopes: canWrite,
    args: { input: t.arg({ type: MoveInput, required: true, description: 'The request.' }) },
    resolve: (_parent, args, ctx) => cancelStockRequest(ctx, parseInput(stockRequestMove, args.input)),
  }),
  rollbackStockRequest: t.field({
    ...move(
      'Back one step before any fulfilment: APPROVED → SUBMITTED (the approval undone, approved quantities kept) or SUBMITTED → DRAFT (the submission undone, approved ' +
        'quantities cleared). Any other state: ConflictError INVALID_STATE, nothing changed.',
    ),
    authScopes: canWrite,
    args: { input: t.arg({ type: MoveInput, required: true, description: 'The request.' }) },
    resolve: (_parent, args, ctx) => rollbackStockRequest(ctx, parseInput(stockRequestMove, args.input)),
  }),
  moveStockRequest: t.field({
    ...move(
      'Moves a request to SUBMITTED, APPROVED (whole), REJECTED, CANCELLED, PARTIALLY_FULFILLED (fulfil everything open) or FULFILLED (close the remainder) by the ' +
        'transition of that name, with its rules and permissions (FORBIDDEN without them).',
    ),
    refusals: ['ValidationError', 'NotFoundError', 'ConflictError', 'InsufficientStockError'],
    authScopes: canWrite,
    args: { input: t.arg({ type: StatusInput, required: true, description: 'The request and the state to reach.' }) },
    resolve: (_parent, args, ctx) => moveStockRequest(ctx, parseInput(stockRequestStatusMove, args.input)),
  }),
  setStockRequestLines: t.field({
    ...move(
      'DRAFT: adds or changes lines (quantityRequested). SUBMITTED: an approver (stockrequests.approve, not the requester unless a tenant administrator, else FORBIDDEN) ' +
        'sets approved quantities. Any other state: ConflictError INVALID_STATE, nothing changed.',
    ),
    authScopes: canWrite,
    args: { input: t.arg({ type: LinesInput, required: true, description: 'The lines.' }) },
    resolve: (_parent, args, ctx) => setStockRequestLines(ctx, parseInput(stockRequestLinesSet, args.input)),
  }),
  commentOnStockRequest: t.field({
    refusals: ['ValidationError', 'NotFoundError', 'ConflictError'],
    type: StockRequestEventRef,
    description: "Adds a comment to a request's history, in any state (ConflictError INVALID_STATE once the history holds 1000 entries).",
    authScopes: canWrite,
    args: { input: t.arg({ type: CommentInput, required: true, description: 'The comment.' }) },
    resolve: (_parent, args, ctx) => commentOnStockRequest(ctx, parseInput(stockRequestComment, args.input)),
  }),
}));
