import type { z } from 'zod';
import { REPLENISHMENT_DEFAULT_LIMIT, type replenishmentListQuery } from '../../../contracts/inventory/replenishment/replenishment-records.js';
import type { RequestContext } from '../../../context.js';
import type { Prisma, ReplenishmentStatus } from '../../../generated/prisma/client.js';
import { notFound } from '../../../kernel/errors.js';
import { checkFilterIds } from '../../filter-ids.js';
import { type ListWindow, orgId } from '../../tenant.js';

/** The filters as their contract outputs them (parsed once, where they come in). */
export type ReplenishmentListArgs = z.output<typeof replenishmentListQuery>;

/** A page of the organization's replenishment records, newest first, with the total; a connection's window replaces limit and offset. */
export async function listReplenishments(ctx: RequestContext, f: ReplenishmentListArgs, window?: ListWindow) {
  await checkFilterIds(ctx, { locationId: f.locationId, productMasterId: f.productMasterId });
  const where: Prisma.ReplenishmentRecordWhereInput = {
    organizationId: orgId(ctx),
    ...(f.locationId ? { locationId: f.locationId } : {}),
    ...(f.productMasterId ? { productMasterId: f.productMasterId } : {}),
    ...(f.status?.length ? { status: { in: f.status as ReplenishmentStatus[] } } : {}),
  };
  const limit = window ? window.take : (f.limit ?? REPLENISHMENT_DEFAULT_LIMIT);
  const offset = window ? window.skip : (f.offset ?? 0);
  const [records, total] = await Promise.all([
    ctx.prisma.replenishmentRecord.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip: offset, take: limit }),
    ctx.prisma.replenishmentRecord.count({ where }),
  ]);
  return { records, total, limit, offset };
}

/** One record of the organization; unknown or foreign: 404. */
export async function getReplenishment(ctx: RequestContext, id: string) {
  const record = await ctx.prisma.replenishmentRecord.findFirst({ where: { id, organizationId: orgId(ctx) } });
  if (!record) throw notFound('Replenishment record');
  return record;
}
