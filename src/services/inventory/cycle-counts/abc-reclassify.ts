import { Prisma } from '../../../generated/prisma/client.js';
import type { AbcClass } from '../../../generated/prisma/enums.js';
import type { TxContext } from '../../../db/transactions.js';
import { validationError } from '../../../kernel/errors.js';
import { orgId } from '../../tenant.js';
import type { AbcConfig } from './abc-config.js';

export interface Reclassification {
  locationId: string;
  from: Date;
  to: Date;
  /** Products ranked: every product with a stock line or a level at the location. */
  productsRanked: number;
  /** Levels whose class is now another one (a product without a level before counts when it gets one). */
  changed: number;
  countA: number;
  countB: number;
  countC: number;
}

/** Ledger rows that move stock within the location or correct its records: not consumption, so not ranked. */
const NOT_OUTFLOWS = ['COUNT', 'COUNT_CORRECTION', 'LOT_CORRECTION', 'BIN_MOVE', 'PUT_AWAY'];

interface Ranked {
  productMasterId: string;
  value: number;
  current: AbcClass | null;
  hasLevel: boolean;
}

/**
 * Ranks the location's products by the value of their outflows over the last `periodDays` days (units
 * leaving on hand × the product's unit cost; the units alone when it has no cost) and gives each the class
 * its place in the cumulative value takes: A while the value before it is under aPercent of the total, B
 * under aPercent + bPercent, C after; a product that did not move is a C. Products without an inventory
 * level at the location get one (defaults) to carry the class.
 */
export async function reclassifyLocation(ctx: TxContext, config: AbcConfig, locationId: string, periodDays: number): Promise<Reclassification> {
  const organizationId = orgId(ctx);
  const location = await ctx.prisma.location.findFirst({ where: { id: locationId, organizationId }, select: { id: true } });
  if (!location) throw validationError({ 'reclassify.locationId': ['Location not found'] }, 'Location not found');
  const to = new Date();
  const from = new Date(to.getTime() - periodDays * 86_400_000);
  const rows = await ctx.prisma.$queryRaw<Ranked[]>`
    WITH products AS (
      SELECT "productMasterId" FROM stock_lines WHERE "organizationId" = ${organizationId} AND "locationId" = ${locationId}
      UNION
      SELECT "productMasterId" FROM inventory_levels WHERE "organizationId" = ${organizationId} AND "locationId" = ${locationId}
    ), moved AS (
      SELECT "productMasterId", -SUM("deltaQty") AS units
      FROM stock_transactions
      WHERE "organizationId" = ${organizationId} AND "locationId" = ${locationId} AND bucket = 'ON_HAND' AND "deltaQty" < 0
        AND "transactionType" NOT IN (${Prisma.join(NOT_OUTFLOWS)}) AND "createdAt" >= ${from}
      GROUP BY 1
    )
    SELECT p."productMasterId" AS "productMasterId",
           (COALESCE(m.units, 0) * COALESCE(pm."unitCost", 1))::float8 AS value,
           l."abcClass" AS current, (l.id IS NOT NULL) AS "hasLevel"
    FROM products p
    JOIN product_masters pm ON pm.id = p."productMasterId"
    LEFT JOIN moved m ON m."productMasterId" = p."productMasterId"
    LEFT JOIN inventory_levels l ON l."productMasterId" = p."productMasterId" AND l."locationId" = ${locationId}
    ORDER BY value DESC, pm.sku ASC`;
  const total = rows.reduce((sum, row) => sum + row.value, 0);
  const byClass: Record<AbcClass, string[]> = { A: [], B: [], C: [] };
  let before = 0;
  let changed = 0;
  for (const row of rows) {
    const share = total > 0 ? (before / total) * 100 : 100;
    const cls: AbcClass = row.value <= 0 ? 'C' : share < config.aPercent ? 'A' : share < config.aPercent + config.bPercent ? 'B' : 'C';
    before += row.value;
    byClass[cls].push(row.productMasterId);
    if (row.current !== cls) changed++;
  }
  const missing = rows.filter((row) => !row.hasLevel).map((row) => ({ organizationId, locationId, productMasterId: row.productMasterId }));
  if (missing.length) await ctx.prisma.inventoryLevel.createMany({ data: missing, skipDuplicates: true });
  for (const cls of ['A', 'B', 'C'] as const) {
    if (byClass[cls].length) {
      await ctx.prisma.inventoryLevel.updateMany({ where: { organizationId, locationId, productMasterId: { in: byClass[cls] }, abcClass: { not: cls } }, data: { abcClass: cls } });
      await ctx.prisma.inventoryLevel.updateMany({ where: { organizationId, locationId, productMasterId: { in: byClass[cls] }, abcClass: null }, data: { abcClass: cls } });
    }
  }
  return { locationId, from, to, productsRanked: rows.length, changed, countA: byClass.A.length, countB: byClass.B.length, countC: byClass.C.length };
}
