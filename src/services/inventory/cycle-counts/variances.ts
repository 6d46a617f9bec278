import type { z } from 'zod';
import { VARIANCE_PAGE, type varianceQuery } from '../../../contracts/inventory/cycle-counts/resolve.js';
import type { RequestContext } from '../../../context.js';
import { Prisma } from '../../../generated/prisma/client.js';
import { checkFilterIds } from '../../filter-ids.js';
import { type ListWindow, orgId, pageWindow } from '../../tenant.js';

export type VarianceArgs = z.output<typeof varianceQuery>;

export interface Variance {
  lineId: string;
  batchId: string;
  productMasterId: string;
  sku: string;
  productName: string;
  lotId: string | null;
  lotCode: string | null;
  binId: string | null;
  binCode: string | null;
  expectedQty: number;
  countedQty: number;
  varianceQty: number;
  unitCost: number | null;
  varianceValue: number | null;
  countedAt: Date;
}

/**
 * Counted, unresolved lines of the location's open and completed batches whose count differs from what the
 * system expected at that moment, largest absolute value first (units where there is no cost), then by SKU.
 */
export interface VariancePage {
  type: 'to-resolve';
  lines: Variance[];
  count: number;
  page: number;
  pageSize: number;
  total: number;
  totalPages: number;
}

export async function cycleCountVariances(ctx: RequestContext, args: VarianceArgs, window?: ListWindow): Promise<VariancePage> {
  await checkFilterIds(ctx, { locationId: args.locationId });
  const organizationId = orgId(ctx);
  const { page, limit, skip, take } = pageWindow(args.page, args.limit, VARIANCE_PAGE, window);
  // Lots and bins are joined to the page's rows only: every variance needs its product (the order is by value and
  // SKU), none its lot or bin code.
  const order = Prisma.sql`ORDER BY ABS(COALESCE("varianceValue", "varianceQty")) DESC, sku, "lineId"`;
  const rows = await ctx.prisma.$queryRaw<(Variance & { total: number })[]>`
    WITH v AS (
      SELECT c.id AS "lineId", c."batchId", c."productMasterId", pm.sku, pm.name AS "productName", c."lotId",
             c."binId", c."expectedQty", c."countedQty", (c."countedQty" - c."expectedQty") AS "varianceQty",
             pm."unitCost"::float8 AS "unitCost", ((c."countedQty" - c."expectedQty") * pm."unitCost")::float8 AS "varianceValue", c."countedAt"
      FROM cycle_count_lines c
      JOIN cycle_count_batches b ON b.id = c."batchId"
      JOIN product_masters pm ON pm.id = c."productMasterId"
      WHERE b."organizationId" = ${organizationId} AND b."locationId" = ${args.locationId} AND b.status <> 'CANCELLED'
        AND c.resolution IS NULL AND c."countedQty" IS NOT NULL AND c."countedQty" <> c."expectedQty"
    ), page AS (
      SELECT *, (COUNT(*) OVER ())::int AS total FROM v ${order} LIMIT ${take}::int OFFSET ${skip}::int
    )
    SELECT page.*, lot.code AS "lotCode", bin.code AS "binCode"
    FROM page LEFT JOIN lots lot ON lot.id = page."lotId" LEFT JOIN bins bin ON bin.id = page."binId"
    ${order}`;
  // A page past the end has no row to carry the total: ask for the first.
  const total: number = rows[0]?.total ?? (skip > 0 ? (await cycleCountVariances(ctx, { ...args, page: 1, limit: 1 })).count : 0);
  const lines: Variance[] = rows.map(({ total: _total, ...row }) => row);
  return { type: 'to-resolve', lines, count: total, page, pageSize: limit, total, totalPages: Math.ceil(total / limit) };
}
