import type { z } from 'zod';
import type { alertFilter } from '../../contracts/alerts/alerts.js';
import type { RequestContext } from '../../context.js';
import type { Alert, Prisma } from '../../generated/prisma/client.js';
import { notFound } from '../../kernel/errors.js';
import { checkFilterIds } from '../filter-ids.js';
import { type ListWindow, orgId } from '../tenant.js';

export type AlertFilter = z.output<typeof alertFilter>;

/** The organization's alerts matching the filters, newest first (by first seen), with their total; a page by limit/offset or a connection's window. */
export async function listAlerts(ctx: RequestContext, filter: AlertFilter, page: { limit: number; offset: number } | ListWindow) {
  await checkFilterIds(ctx, { locationId: filter.locationId, productMasterId: filter.productId });
  const where: Prisma.AlertWhereInput = {
    organizationId: orgId(ctx),
    status: filter.status,
    kind: filter.kind,
    severity: filter.severity,
    locationId: filter.locationId,
    productId: filter.productId,
    ...(filter.since ? { lastSeenAt: { gte: new Date(filter.since) } } : {}),
  };
  const [skip, take] = 'take' in page ? [page.skip, page.take] : [page.offset, page.limit];
  const [alerts, total] = await Promise.all([ctx.prisma.alert.findMany({ where, orderBy: { id: 'desc' }, skip, take }), ctx.prisma.alert.count({ where })]);
  return { alerts, total, limit: take, offset: skip };
}

/** One alert of the organization; unknown or foreign: 404. */
export async function getAlert(ctx: RequestContext, id: string): Promise<Alert> {
  const alert = await ctx.prisma.alert.findFirst({ where: { id, organizationId: orgId(ctx) } });
  if (!alert) throw notFound('Alert');
  return alert;
}
