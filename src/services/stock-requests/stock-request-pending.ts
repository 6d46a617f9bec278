import type { z } from 'zod';
import { STOCK_REQUESTS_DEFAULT_LIMIT, type stockRequestPendingQuery } from '../../contracts/stock-requests/stock-request-queries.js';
import type { RequestContext } from '../../context.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { checkFilterIds } from '../filter-ids.js';
import { type ListWindow, orgId } from '../tenant.js';
import { REQUEST_WITH_LINES } from './stock-request-shape.js';
import { barredRequester } from './stock-request-state.js';

export type StockRequestPendingArgs = z.output<typeof stockRequestPendingQuery>;

/**
 * The SUBMITTED requests the caller may approve: all of them for a tenant administrator, else those of
 * other requesters (the rule of checkApprover). Most urgent first, then the longest waiting.
 */
export async function pendingApprovals(ctx: RequestContext, f: StockRequestPendingArgs, window?: ListWindow) {
  await checkFilterIds(ctx, { locationId: [f.requestingLocationId, f.supplyingLocationId] });
  const barred = barredRequester(ctx);
  const where: Prisma.StockRequestWhereInput = {
    organizationId: orgId(ctx),
    status: 'SUBMITTED',
    ...(barred ? { requesterId: { not: barred } } : {}),
    ...(f.requestingLocationId ? { requestingLocationId: f.requestingLocationId } : {}),
    ...(f.supplyingLocationId ? { supplyingLocationId: f.supplyingLocationId } : {}),
  };
  const limit = window ? window.take : (f.limit ?? STOCK_REQUESTS_DEFAULT_LIMIT);
  const offset = window ? window.skip : (f.offset ?? 0);
  const [requests, total] = await Promise.all([
    ctx.prisma.stockRequest.findMany({ where, orderBy: [{ priority: 'desc' }, { submittedAt: 'asc' }, { id: 'asc' }], skip: offset, take: limit, ...REQUEST_WITH_LINES }),
    ctx.prisma.stockRequest.count({ where }),
  ]);
  return { requests, total, limit, offset };
}
