import type { StockRequestEvent } from '../../generated/prisma/client.js';
import { requestReference, type StockRequestWithLines } from '../../services/stock-requests/stock-request-shape.js';
import { builder } from '../builder.js';
import { readScopesOf } from '../link-scopes.js';
import { LocationType } from '../master-data/location.js';
import { NodeRef } from '../node/node-interface.js';
import { ProductType } from '../products/product.js';
import { linked } from '../record-loaders.js';

type StockRequestLine = StockRequestWithLines['lines'][number];

export const StockRequestStatusEnum = builder.enumType('StockRequestStatus', {
  description:
    'Where a stock request is: DRAFT → SUBMITTED → APPROVED or REJECTED → PARTIALLY_FULFILLED (shipped, in part or whole) → FULFILLED (received); CANCELLED from DRAFT, SUBMITTED or APPROVED.',
  values: {
    DRAFT: { description: 'Being written by the requester: fields and lines may change; may be submitted, cancelled or deleted.' },
    SUBMITTED: { description: 'Waiting for an approver, who may set approved quantities, approve or reject it; may be rolled back to DRAFT or cancelled.' },
    APPROVED: { description: 'Approved with an approved quantity per line, reserved at the supplying location as far as available; may be fulfilled, rolled back to SUBMITTED or cancelled.' },
    REJECTED: { description: 'Rejected by an approver with a reason. Final.' },
    PARTIALLY_FULFILLED: { description: 'Units shipped on one or more transfers; the rest may be fulfilled later, or closed.' },
    FULFILLED: { description: 'Every approved unit shipped (or the remainder closed) and every transfer received. Final.' },
    CANCELLED: { description: 'Cancelled. Final.' },
  } as const,
});

export const StockRequestPriorityEnum = builder.enumType('StockRequestPriority', {
  description: 'How urgent a stock request is.',
  values: {
    LOW: { description: 'When convenient.' },
    NORMAL: { description: 'The default.' },
    HIGH: { description: 'Before normal requests.' },
    URGENT: { description: 'Immediately.' },
  } as const,
});

export const StockRequestEventKindEnum = builder.enumType('StockRequestEventKind', {
  description: 'What an entry of a stock request history records.',
  values: {
    CREATED: { description: 'The request was created (to DRAFT).' },
    STATUS: { description: 'A move forward: submit, approve, reject or cancel (from, to).' },
    ROLLBACK: { description: 'A step back: APPROVED → SUBMITTED or SUBMITTED → DRAFT (from, to).' },
    COMMENT: { description: 'A comment (note).' },
    LINES: { description: 'Lines added or changed (DRAFT) or approved quantities set (SUBMITTED).' },
    FULFILMENT: { description: 'Units shipped on an inventory transfer (transferId), perhaps with the remainder closed.' },
    RECEIPT: { description: 'Units of a transfer (transferId) received at the requesting location.' },
    RETURN: { description: 'A transfer (transferId) cancelled in transit: its units back at the supplying location, unfulfilled again.' },
  } as const,
});

export const StockRequestLineRef = builder.objectRef<StockRequestLine>('StockRequestLine').implement({
  interfaces: [NodeRef],
  description: 'One product of a stock request: requested, approved and fulfilled quantities.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Identifier.' }),
    productMasterId: t.exposeID('productMasterId', { description: 'The product (one line per product).' }),
    product: t.field({ type: ProductType, nullable: true, authScopes: readScopesOf('Product'), description: 'The product (null only when it was deleted since).', resolve: (row, _args, ctx) => linked(ctx, 'product', row.productMasterId) }),
    quantityRequested: t.exposeInt('quantityRequested', { description: 'Units asked for.' }),
    quantityApproved: t.exposeInt('quantityApproved', { nullable: true, description: 'Units approved (null until an approver sets it or approves the request).' }),
    quantityFulfilled: t.exposeInt('quantityFulfilled', { description: 'Units shipped to the requesting location (less any returned by a cancelled transfer).' }),
    quantityReserved: t.exposeInt('quantityReserved', { description: 'Units reserved for the line at the supplying location now; below the approved quantity not yet fulfilled when the approval found less available.' }),
    quantityReceived: t.exposeInt('quantityReceived', { description: 'Units received at the requesting location.' }),
    unit: t.exposeString('unit', { nullable: true, description: 'The unit the quantities count, in words.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the line was added.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When the line last changed.' }),
  }),
});

export const StockRequestEventRef = builder.objectRef<StockRequestEvent>('StockRequestEvent').implement({
  interfaces: [NodeRef],
  description: 'One entry of a stock request history: who, when, from which state to which, and a note.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Identifier.' }),
    kind: t.field({ type: StockRequestEventKindEnum, description: 'CREATED, STATUS, ROLLBACK, COMMENT, LINES, FULFILMENT, RECEIPT or RETURN.', resolve: (row) => row.kind }),
    fromStatus: t.field({ type: StockRequestStatusEnum, nullable: true, description: 'The state before a move (null for comments, line changes and creation).', resolve: (row) => row.fromStatus }),
    toStatus: t.field({ type: StockRequestStatusEnum, nullable: true, description: 'The state after a move (null for comments and line changes).', resolve: (row) => row.toStatus }),
    note: t.exposeString('note', { nullable: true, description: 'The comment, the reason of a rejection, or the note given with a move.' }),
    transferId: t.exposeID('transferId', { nullable: true, description: 'The inventory transfer a fulfilment shipped, or whose receipt or return this is.' }),
    actorType: t.exposeString('actorType', { description: 'USER or API_KEY.' }),
    actorId: t.exposeString('actorId', { description: 'The id of the user or API key.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When.' }),
  }),
});

export const StockRequestRef = builder.objectRef<StockRequestWithLines>('StockRequest').implement({
  interfaces: [NodeRef],
  description: 'A location asking another location of the organization for stock, with approval.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Identifier.' }),
    number: t.exposeInt('number', { description: 'Number of the request in the organization, from 1.' }),
    reference: t.string({ description: 'The number as people write it: SR- and six digits or more.', resolve: (row) => requestReference(row) }),
    requestingLocationId: t.exposeID('requestingLocationId', { description: 'The location asking for stock.' }),
    requestingLocation: t.field({ type: LocationType, nullable: true, authScopes: readScopesOf('Location'), description: 'The location asking (null only when it was deleted since).', resolve: (row, _args, ctx) => linked(ctx, 'location', row.requestingLocationId) }),
    supplyingLocationId: t.exposeID('supplyingLocationId', { description: 'The location asked to supply.' }),
    supplyingLocation: t.field({ type: LocationType, nullable: true, authScopes: readScopesOf('Location'), description: 'The location asked (null only when it was deleted since).', resolve: (row, _args, ctx) => linked(ctx, 'location', row.supplyingLocationId) }),
    neededBy: t.expose('neededBy', { type: 'Date', description: 'Date the stock is needed by.' }),
    priority: t.field({ type: StockRequestPriorityEnum, description: 'LOW, NORMAL, HIGH or URGENT.', resolve: (row) => row.priority }),
    reason: t.exposeString('reason', { nullable: true, description: 'Why the stock is needed.' }),
    status: t.field({ type: StockRequestStatusEnum, description: 'Where the request is.', resolve: (row) => row.status }),
    requesterType: t.exposeString('requesterType', { description: 'USER or API_KEY.' }),
    requesterId: t.exposeString('requesterId', { description: 'The id of the user or API key that created the request.' }),
    submittedAt: t.expose('submittedAt', { type: 'DateTime', nullable: true, description: 'When it was submitted (cleared by a rollback to DRAFT).' }),
    approvedAt: t.expose('approvedAt', { type: 'DateTime', nullable: true, description: 'When it was approved (cleared by a rollback to SUBMITTED).' }),
    approvedBy: t.exposeString('approvedBy', { nullable: true, description: 'Who approved it (user or API key id).' }),
    rejectedAt: t.expose('rejectedAt', { type: 'DateTime', nullable: true, description: 'When it was rejected.' }),
    rejectedBy: t.exposeString('rejectedBy', { nullable: true, description: 'Who rejected it (user or API key id).' }),
    rejectionReason: t.exposeString('rejectionReason', { nullable: true, description: 'Why it was rejected.' }),
    cancelledAt: t.expose('cancelledAt', { type: 'DateTime', nullable: true, description: 'When it was cancelled.' }),
    cancelledBy: t.exposeString('cancelledBy', { nullable: true, description: 'Who cancelled it (user or API key id).' }),
    remainderClosedAt: t.expose('remainderClosedAt', { type: 'DateTime', nullable: true, description: 'When the unfulfilled remainder was closed (a fulfilment with closeRemainder, or the move to FULFILLED).' }),
    remainderClosedBy: t.exposeString('remainderClosedBy', { nullable: true, description: 'Who closed the remainder (user or API key id).' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When it last changed.' }),
    lines: t.field({ type: [StockRequestLineRef], description: 'The lines, in the order they were added.', resolve: (row) => row.lines }),
  }),
});
