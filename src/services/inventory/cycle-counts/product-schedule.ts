import { escapeLike } from '../../search.js';
import type { z } from 'zod';
import { CYCLE_COUNT_PRODUCT_PAGE, type cycleCountProductQuery } from '../../../contracts/inventory/cycle-counts/cycle-count-query.js';
import type { RequestContext } from '../../../context.js';
import { Prisma } from '../../../generated/prisma/client.js';
import { notFound } from '../../../kernel/errors.js';
import { checkFilterIds } from '../../filter-ids.js';
import { type ListWindow, orgId, pageWindow } from '../../tenant.js';
import { abcConfig, nextCountDateSql } from './abc-config.js';

export type CycleCountProductArgs = z.output<typeof cycleCountProductQuery>;

export interface CycleCountProduct {
  productMasterId: string;
  sku: string;
  productName: string;
  locationId: string;
  lastCountedDate: Date | null;
  nextCountDate: Date;
  isOverdue: boolean;
  abcClass: 'A' | 'B' | 'C' | null;
  currentQty: number;
}

const likeTerm = (term: string) => `%${escapeLike(term)}%`;

/**
 * The count schedule of a location's products (every product with a stock line or an inventory level
 * there): last counted date, next count date (last + the class's frequency; never counted: today; an
 * unclassified product at the C frequency), overdue when the next count date is today or earlier; soonest
 * due first, then by SKU. currentQty is on hand over all its lines at the location.
 */
export async function cycleCountProducts(ctx: RequestContext, args: CycleCountProductArgs, window?: ListWindow) {
  const organizationId = orgId(ctx);
  const { locationId } = args;
  await checkFilterIds(ctx, { locationId, binId: args.binId });
  if (args.categoryId && !(await ctx.prisma.category.count({ where: { id: args.categoryId, organizationId } }))) throw notFound('Category');
  const { page, limit, skip, take } = pageWindow(args.page, args.limit, CYCLE_COUNT_PRODUCT_PAGE, window);
  const config = await abcConfig(ctx);
  const today = new Date().toISOString().slice(0, 10);
  const term = args.search?.trim();
  const filters = [
    term ? Prisma.sql`AND (pm.sku ILIKE ${likeTerm(term)} OR pm.name ILIKE ${likeTerm(term)})` : Prisma.empty,
    args.categoryId ? Prisma.sql`AND pm."categoryId" = ${args.categoryId}` : Prisma.empty,
    args.abcClass ? Prisma.sql`AND l."abcClass"::text = ${args.abcClass}` : Prisma.empty,
    args.binId
      ? Prisma.sql`AND EXISTS (SELECT 1 FROM stock_lines b WHERE b."organizationId" = ${organizationId} AND b."locationId" = ${locationId} AND b."productMasterId" = pm.id AND b."binId" = ${args.binId})`
      : Prisma.empty,
  ];
  // The schedule needs no stock: the page is chosen from the products and their levels, and only its rows sum their
  // lines (an index lookup each) rather than every line of the location being summed on every request.
  const schedule = Prisma.sql`
    WITH schedule AS (
      SELECT pm.id AS "productMasterId", pm.sku, pm.name AS "productName", l."abcClass"::text AS "abcClass",
             l."lastCountedAt"::date AS "lastCountedDate",
             ${nextCountDateSql(config, 'l', today)} AS "nextCountDate"
      FROM product_masters pm
      LEFT JOIN inventory_levels l ON l."productMasterId" = pm.id AND l."locationId" = ${locationId} AND l."organizationId" = ${organizationId}
      WHERE pm."organizationId" = ${organizationId}
        AND (l.id IS NOT NULL OR EXISTS (SELECT 1 FROM stock_lines s WHERE s."organizationId" = ${organizationId} AND s."locationId" = ${locationId} AND s."productMasterId" = pm.id))
        ${Prisma.join(filters, ' ')}
    )`;
  const overdueOnly = args.showOverdueOnly ? Prisma.sql`WHERE "nextCountDate" <= ${today}::date` : Prisma.empty;
  const order = Prisma.sql`ORDER BY "nextCountDate", sku, "productMasterId"`;
  const [rows, [totals]] = await Promise.all([
    take > 0
      ? ctx.prisma.$queryRaw<Omit<CycleCountProduct, 'locationId' | 'isOverdue'>[]>`${schedule}
          SELECT p.*, COALESCE((SELECT SUM(s."qtyOnHand") FROM stock_lines s
            WHERE s."organizationId" = ${organizationId} AND s."locationId" = ${locationId} AND s."productMasterId" = p."productMasterId"), 0)::int AS "currentQty"
          FROM (SELECT * FROM schedule ${overdueOnly} ${order} LIMIT ${take}::int OFFSET ${skip}::int) p ${order}`
      : Promise.resolve([]),
    ctx.prisma.$queryRaw<{ total: number; overdue: number }[]>`${schedule}
      SELECT COUNT(*)::int AS total, COUNT(*) FILTER (WHERE "nextCountDate" <= ${today}::date)::int AS overdue FROM schedule ${overdueOnly}`,
  ]);
  const todayDate = new Date(`${today}T00:00:00Z`);
  const products: CycleCountProduct[] = rows.map((row) => ({ ...row, locationId, isOverdue: row.nextCountDate.getTime() <= todayDate.getTime() }));
  const total = totals?.total ?? 0;
  return { type: 'all-products' as const, products, count: total, overdueCount: totals?.overdue ?? 0, page, pageSize: limit, total, totalPages: Math.ceil(total / limit) };
}
