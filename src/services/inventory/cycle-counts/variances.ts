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
 * system expected at that moment, largest absolute value first (at the unit cost when counted; units where there
 * is no cost), then by SKU (as when the line was made).
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
  const { page, limit, skip, take } = pageWindow(args.page, args.limit, VARIANCE_PAGE, window);
  const rows = await ctx.prisma.$queryRaw<(Variance & { total: number })[]>(variancePageSql(orgId(ctx), args.locationId, skip, take));
  const total = rows[0]?.total ?? 0;
  const lines: Variance[] = rows.flatMap(({ total: _total, ...row }) => (row.lineId ? [row] : []));
  return { type: 'to-resolve', lines, count: total, page, pageSize: limit, total, totalPages: Math.ceil(total / limit) };
}

/**
 * The lines waiting at the location (varianceRank set), a page of them chosen from the queue's partial index alone
 * (an OFFSET reads every row it skips: from the index, not the table), with the count of them all on every row (a
 * page past the end: one row of the count, its lineId null). The lines, products, lots and bins are read for the
 * page's rows only.
 */
export function variancePageSql(organizationId: string, locationId: string, skip: number, take: number): Prisma.Sql {
  const waiting = Prisma.sql`c."organizationId" = ${organizationId} AND c."locationId" = ${locationId} AND c."varianceRank" IS NOT NULL`;
  return Prisma.sql`
    WITH t AS (SELECT COUNT(*)::int AS total FROM cycle_count_lines c WHERE ${waiting}),
    page AS (
      SELECT c.id, c."varianceRank", c.sku FROM cycle_count_lines c WHERE ${waiting}
      ORDER BY c."varianceRank" DESC, c.sku, c.id LIMIT ${take}::int OFFSET ${skip}::int
    )
    SELECT c.id AS "lineId", c."batchId", c."productMasterId", pm.sku, pm.name AS "productName", c."lotId", lot.code AS "lotCode",
           c."binId", bin.code AS "binCode", c."expectedQty", c."countedQty", (c."countedQty" - c."expectedQty") AS "varianceQty",
           c."unitCost"::float8 AS "unitCost", ((c."countedQty" - c."expectedQty") * c."unitCost")::float8 AS "varianceValue",
           c."countedAt", t.total
    FROM t LEFT JOIN page ON TRUE
    LEFT JOIN cycle_count_lines c ON c.id = page.id
    LEFT JOIN product_masters pm ON pm.id = c."productMasterId"
    LEFT JOIN lots lot ON lot.id = c."lotId" LEFT JOIN bins bin ON bin.id = c."binId"
    ORDER BY page."varianceRank" DESC, page.sku, page.id`;
}
