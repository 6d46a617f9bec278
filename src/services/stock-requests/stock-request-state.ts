import type { RequestContext } from '../../context.js';
import type { TxContext } from '../../db/transactions.js';
import type { StockRequest, StockRequestEventKind, StockRequestStatus } from '../../generated/prisma/client.js';
import { DomainError, notFound } from '../../kernel/errors.js';
import { appendEvents } from '../events/outbox/append-events.js';
import { actorOf } from '../actor-of.js';
import { isTenantAdmin } from '../tenant-admin.js';
import { authOf, orgId } from '../tenant.js';

/** What each move may start from; the one table of a stock request's states. */
const ALLOWED_FROM = {
  update: ['DRAFT'],
  delete: ['DRAFT'],
  'change lines of': ['DRAFT', 'SUBMITTED'],
  submit: ['DRAFT'],
  approve: ['SUBMITTED'],
  reject: ['SUBMITTED'],
  cancel: ['DRAFT', 'SUBMITTED', 'APPROVED'],
  'roll back': ['SUBMITTED', 'APPROVED'],
  fulfil: ['APPROVED', 'PARTIALLY_FULFILLED'],
  'close the remainder of': ['PARTIALLY_FULFILLED'],
  'record a transfer of': ['PARTIALLY_FULFILLED'],
  'comment on': ['DRAFT', 'SUBMITTED', 'APPROVED', 'REJECTED', 'PARTIALLY_FULFILLED', 'FULFILLED', 'CANCELLED'],
} as const satisfies Record<string, readonly StockRequestStatus[]>;

export type StockRequestMove = keyof typeof ALLOWED_FROM;

/**
 * Locks the organization's request (SELECT ... FOR UPDATE) for the rest of the transaction and checks that
 * `move` may start from its state: a second move of the same request waits here and then sees the state
 * the first left, so an approve and a cancel racing end in one of them. Unknown or foreign id: 404; wrong
 * state: 409 INVALID_STATE naming the state.
 */
export async function lockRequestFor(ctx: TxContext, id: string, move: StockRequestMove): Promise<StockRequest> {
  const [request] = await ctx.prisma.$queryRaw<StockRequest[]>`
    SELECT * FROM stock_requests WHERE id = ${id} AND "organizationId" = ${orgId(ctx)} FOR UPDATE`;
  if (!request) throw notFound('Stock request');
  const allowed: readonly StockRequestStatus[] = ALLOWED_FROM[move];
  if (!allowed.includes(request.status)) {
    throw new DomainError('INVALID_STATE', `Cannot ${move} a stock request that is ${request.status}; allowed from ${allowed.join(' or ')}`);
  }
  return request;
}

/**
 * Whose requests the caller may not approve: their own (the requester id is the caller's user or API key id),
 * unless a tenant administrator (an ADMIN user of the organization, or an API key with the * scope): null.
 */
export function barredRequester(ctx: RequestContext): string | null {
  return isTenantAdmin(ctx) ? null : authOf(ctx).actor.id;
}

/**
 * Approving (and setting approved quantities) needs stockrequests.approve, and the approver must not be
 * the requester, unless a tenant administrator (an ADMIN user of the organization, or an API key with the * scope).
 */
export function checkApprover(ctx: TxContext, request: StockRequest): void {
  const auth = authOf(ctx);
  if (!auth.permissions.has('stockrequests.approve')) throw new DomainError('FORBIDDEN', 'Approving a stock request needs the stockrequests.approve permission');
  if (request.requesterId === barredRequester(ctx)) {
    throw new DomainError('FORBIDDEN', 'The requester cannot approve their own stock request unless they are a tenant administrator');
  }
}

/** One entry of the request's history, by the caller (a fulfilment, receipt or return names its transfer). */
export async function recordEvent(
  ctx: TxContext,
  requestId: string,
  kind: StockRequestEventKind,
  move: { from?: StockRequestStatus | null; to?: StockRequestStatus | null; note?: string | null; transferId?: string | null } = {},
) {
  const { actorType, createdBy } = actorOf(ctx);
  const entry = await ctx.prisma.stockRequestEvent.create({
    data: { requestId, kind, fromStatus: move.from ?? null, toStatus: move.to ?? null, note: move.note ?? null, transferId: move.transferId ?? null, actorType, actorId: createdBy },
  });
  // The outbox hears of every entry that sets a status (what the status subscription sends).
  if (entry.toStatus && entry.toStatus !== entry.fromStatus) {
    await appendEvents(ctx, [
      { type: 'stock_request.moved', subjectId: requestId, payload: { requestId, historyEntryId: entry.id, kind, from: entry.fromStatus, to: entry.toStatus, transferId: entry.transferId } },
    ]);
  }
  return entry;
}

/** Moves the locked request to `to` with the other columns given, and records the move in its history. */
export async function moveRequest(
  ctx: TxContext,
  request: StockRequest,
  to: StockRequestStatus,
  data: Record<string, unknown>,
  note?: string | null,
  kind: StockRequestEventKind = 'STATUS',
) {
  await recordEvent(ctx, request.id, kind, { from: request.status, to, note });
  return ctx.prisma.stockRequest.update({ where: { id: request.id }, data: { ...data, status: to }, include: { lines: { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] } } });
}
