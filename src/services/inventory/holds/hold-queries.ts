import type { z } from 'zod';
import { HOLDS_DEFAULT_LIMIT, type inventoryHoldListQuery } from '../../../contracts/inventory/holds/inventory-hold-queries.js';
import type { RequestContext } from '../../../context.js';
import type { InventoryHoldStatus, Prisma } from '../../../generated/prisma/client.js';
import { notFound } from '../../../kernel/errors.js';
import { checkFilterIds } from '../../filter-ids.js';
import { type ListWindow, orgId } from '../../tenant.js';
import { expireDueHolds } from './hold-release.js';
import { HOLD_WITH_LINES } from './hold-shape.js';

export type HoldListArgs = z.output<typeof inventoryHoldListQuery>;

/**
 * A page of holds, newest first, with the total (GET /api/inventory/holds); holds past their expiry are
 * released first, so the page shows them EXPIRED. A connection's window replaces limit and offset.
 */
export async function listHolds(ctx: RequestContext, f: HoldListArgs, window?: ListWindow) {
  await checkFilterIds(ctx, { locationId: f.locationId, productMasterId: f.productMasterId, lotId: f.lotId, inventoryItemId: f.stockLineId });
  await expireDueHolds(ctx);
  const stockLine: Prisma.StockLineWhereInput = {
    ...(f.locationId ? { locationId: f.locationId } : {}),
    ...(f.productMasterId ? { productMasterId: f.productMasterId } : {}),
    ...(f.lotId ? { lotId: f.lotId } : {}),
    ...(f.stockLineId ? { id: f.stockLineId } : {}),
  };
  const where: Prisma.InventoryHoldWhereInput = {
    organizationId: orgId(ctx),
    ...(f.status?.length ? { status: { in: f.status as InventoryHoldStatus[] } } : {}),
    ...(Object.keys(stockLine).length ? { lines: { some: { stockLine } } } : {}),
  };
  const limit = window ? window.take : (f.limit ?? HOLDS_DEFAULT_LIMIT);
  const offset = window ? window.skip : (f.offset ?? 0);
  const [holds, total] = await Promise.all([
    ctx.prisma.inventoryHold.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip: offset, take: limit, ...HOLD_WITH_LINES }),
    ctx.prisma.inventoryHold.count({ where }),
  ]);
  return { holds, total, limit, offset };
}

/** One hold with its lines (released first when past its expiry); 404 when unknown or another organization's. */
export async function getHold(ctx: RequestContext, id: string) {
  const where = { id, organizationId: orgId(ctx) };
  if (!(await ctx.prisma.inventoryHold.count({ where }))) throw notFound('Hold');
  await expireDueHolds(ctx, id);
  return ctx.prisma.inventoryHold.findFirstOrThrow({ where, ...HOLD_WITH_LINES });
}
