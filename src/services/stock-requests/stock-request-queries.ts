import type { z } from 'zod';
import { STOCK_REQUESTS_DEFAULT_LIMIT, type stockRequestHistoryQuery, type stockRequestListQuery } from '../../contracts/stock-requests/stock-request-queries.js';
import type { RequestContext } from '../../context.js';
import type { Prisma, StockRequestPriority, StockRequestStatus } from '../../generated/prisma/client.js';
import { notFound } from '../../kernel/errors.js';
import { checkFilterIds } from '../filter-ids.js';
import { escapeLike } from '../search.js';
import { type ListWindow, orgId } from '../tenant.js';
import { REQUEST_WITH_LINES } from './stock-request-shape.js';

/** The filters as their contracts output them (parsed once, where they come in). */
export type StockRequestListArgs = z.output<typeof stockRequestListQuery>;
export type StockRequestHistoryArgs = z.output<typeof stockRequestHistoryQuery>;

/** The number a search names: `12`, `SR-12` or `SR-000012`. */
export const numberIn = (search: string) => {
  const match = /^(?:SR-)?(\d{1,9})$/i.exec(search);
  return match ? Number(match[1]) : null;
};

const DAY_MS = 86_400_000;

/** The instants a creation-date window covers: from midnight UTC of `from` to the end of `to` (excluded: the next midnight). */
export const createdWindow = (f: { from?: string; to?: string }) => ({
  since: f.from ? new Date(`${f.from}T00:00:00Z`) : null,
  before: f.to ? new Date(Date.parse(`${f.to}T00:00:00Z`) + DAY_MS) : null,
});

const createdWithin = (f: { from?: string; to?: string }) => {
  const { since, before } = createdWindow(f);
  return { ...(since ? { gte: since } : {}), ...(before ? { lt: before } : {}) };
};

/** A page of the organization's stock requests, newest first, with the total; a connection's window replaces limit and offset. */
export async function listStockRequests(ctx: RequestContext, f: StockRequestListArgs, window?: ListWindow) {
  await checkFilterIds(ctx, { locationId: [f.requestingLocationId, f.supplyingLocationId] });
  const number = f.search ? numberIn(f.search) : null;
  const where: Prisma.StockRequestWhereInput = {
    organizationId: orgId(ctx),
    ...(f.status?.length ? { status: { in: f.status as StockRequestStatus[] } } : {}),
    ...(f.priority?.length ? { priority: { in: f.priority as StockRequestPriority[] } } : {}),
    ...(f.requestingLocationId ? { requestingLocationId: f.requestingLocationId } : {}),
    ...(f.supplyingLocationId ? { supplyingLocationId: f.supplyingLocationId } : {}),
    ...(f.requesterId ? { requesterId: f.requesterId } : {}),
    ...(f.from || f.to ? { createdAt: createdWithin(f) } : {}),
    ...(f.search ? { OR: [{ reason: { contains: escapeLike(f.search), mode: 'insensitive' } }, ...(number != null ? [{ number }] : [])] } : {}),
  };
  const limit = window ? window.take : (f.limit ?? STOCK_REQUESTS_DEFAULT_LIMIT);
  const offset = window ? window.skip : (f.offset ?? 0);
  const [requests, total] = await Promise.all([
    ctx.prisma.stockRequest.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip: offset, take: limit, ...REQUEST_WITH_LINES }),
    ctx.prisma.stockRequest.count({ where }),
  ]);
  return { requests, total, limit, offset };
}

/** One request of the organization with its lines; unknown or foreign: 404. */
export async function getStockRequest(ctx: RequestContext, id: string) {
  const request = await ctx.prisma.stockRequest.findFirst({ where: { id, organizationId: orgId(ctx) }, ...REQUEST_WITH_LINES });
  if (!request) throw notFound('Stock request');
  return request;
}

/** The request's history (status moves, rollbacks, comments, line changes), oldest first, a page at a time. */
export async function stockRequestHistory(ctx: RequestContext, id: string, f: StockRequestHistoryArgs) {
  const request = await ctx.prisma.stockRequest.findFirst({ where: { id, organizationId: orgId(ctx) }, select: { id: true, status: true } });
  if (!request) throw notFound('Stock request');
  const where = { requestId: id };
  const [events, total] = await Promise.all([
    ctx.prisma.stockRequestEvent.findMany({ where, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], skip: f.offset, take: f.limit }),
    ctx.prisma.stockRequestEvent.count({ where }),
  ]);
  return { id: request.id, status: request.status, events, total, limit: f.limit, offset: f.offset };
}
