import type { z } from 'zod';
import { CYCLE_COUNT_PRODUCT_PAGE, RECENT_VARIANCE_DAYS, type cycleCountSuggestionQuery } from '../../../contracts/inventory/cycle-counts/cycle-count-query.js';
import type { RequestContext } from '../../../context.js';
import { checkFilterIds } from '../../filter-ids.js';
import { type ListWindow, orgId, pageWindow } from '../../tenant.js';
import { abcConfig, nextCountDateSql } from './abc-config.js';
import { OPEN_LINE } from './open-lines.js';

export type CycleCountSuggestionArgs = z.output<typeof cycleCountSuggestionQuery>;

/** Why a product is suggested: its next count date has come, it was never counted, a recent count corrected it. */
export type SuggestionReason = 'OVERDUE' | 'NEVER_COUNTED' | 'RECENT_VARIANCE';

export interface CycleCountSuggestion {
  /** Place in the ranking, from 1. */
  rank: number;
  productMasterId: string;
  sku: string;
  productName: string;
  locationId: string;
  abcClass: 'A' | 'B' | 'C' | null;
  lastCountedDate: Date | null;
  nextCountDate: Date;
  isOverdue: boolean;
  currentQty: number;
  unitCost: number | null;
  /** currentQty × unitCost; null without a cost. */
  value: number | null;
  /** Accepted counts of it at the location that corrected on hand within RECENT_VARIANCE_DAYS. */
  recentVariances: number;
  /** When the last of those was resolved. */
  lastVarianceAt: Date | null;
  reasons: SuggestionReason[];
}

export interface SuggestionPage {
  type: 'suggestions';
  suggestions: CycleCountSuggestion[];
  /** Products that could be suggested (every page). */
  count: number;
  /** Of those, the overdue ones. */
  overdueCount: number;
  page: number;
  pageSize: number;
  total: number;
  totalPages: number;
}

type Row = Omit<CycleCountSuggestion, 'locationId' | 'isOverdue' | 'reasons'> & { overdue: boolean; total: number; overdueTotal: number };

/**
 * What to count next at a location: the one ranking that the suggestions mode shows and that a batch made
 * with `suggested: N` takes the first N of. Candidates: the products with a stock line at the location that
 * no open count line covers (a batch over them would be refused). Order:
 * 1. overdue (next count date today or earlier; never counted is due today), by class (A, B, then C and
 *    unclassified) and the value of on hand (highest first, no cost last);
 * 2. then products a count corrected within RECENT_VARIANCE_DAYS (accepted, non-zero corrections of earlier
 *    batches), by class and value, then the most corrected;
 * 3. then the rest by next count date, class and value.
 * Ties by SKU. No record of refused moves (negative availability) exists to rank by: the quantity rule
 * refuses them and nothing is written.
 */
export async function cycleCountSuggestions(ctx: RequestContext, args: CycleCountSuggestionArgs, window?: ListWindow): Promise<SuggestionPage> {
  const organizationId = orgId(ctx);
  const { locationId } = args;
  await checkFilterIds(ctx, { locationId });
  const { page, limit, skip, take } = pageWindow(args.page, args.limit, CYCLE_COUNT_PRODUCT_PAGE, window);
  const config = await abcConfig(ctx);
  const today = new Date().toISOString().slice(0, 10);
  const since = new Date(Date.now() - RECENT_VARIANCE_DAYS * 86_400_000);
  const rows = await ctx.prisma.$queryRaw<Row[]>`
    WITH lines AS (
      SELECT "productMasterId" AS pid, SUM("qtyOnHand")::int AS qty
      FROM stock_lines WHERE "organizationId" = ${organizationId} AND "locationId" = ${locationId}
      GROUP BY 1
    ), counting AS (
      SELECT DISTINCT c."productMasterId" AS pid
      FROM cycle_count_lines c JOIN cycle_count_batches b ON b.id = c."batchId"
      WHERE b."organizationId" = ${organizationId} AND b."locationId" = ${locationId} AND ${OPEN_LINE}
    ), corrected AS (
      SELECT c."productMasterId" AS pid, COUNT(*)::int AS n, MAX(c."resolvedAt") AS "lastAt"
      FROM cycle_count_lines c JOIN cycle_count_batches b ON b.id = c."batchId"
      WHERE b."organizationId" = ${organizationId} AND b."locationId" = ${locationId}
        AND c.resolution = 'ACCEPTED' AND c."correctionQty" <> 0 AND c."resolvedAt" >= ${since}
      GROUP BY 1
    ), candidates AS (
      SELECT pm.id AS "productMasterId", pm.sku, pm.name AS "productName", l."abcClass"::text AS "abcClass",
             l."lastCountedAt"::date AS "lastCountedDate", s.qty AS "currentQty", pm."unitCost"::float8 AS "unitCost",
             (s.qty * pm."unitCost")::float8 AS value, COALESCE(v.n, 0)::int AS "recentVariances", v."lastAt" AS "lastVarianceAt",
             ${nextCountDateSql(config, 'l', today)} AS "nextCountDate",
             CASE l."abcClass"::text WHEN 'A' THEN 0 WHEN 'B' THEN 1 ELSE 2 END AS class_rank
      FROM lines s
      JOIN product_masters pm ON pm.id = s.pid AND pm."organizationId" = ${organizationId}
      LEFT JOIN inventory_levels l ON l."productMasterId" = s.pid AND l."locationId" = ${locationId} AND l."organizationId" = ${organizationId}
      LEFT JOIN corrected v ON v.pid = s.pid
      WHERE NOT EXISTS (SELECT 1 FROM counting o WHERE o.pid = s.pid)
    ), ranked AS (
      SELECT *, ("nextCountDate" <= ${today}::date) AS overdue,
             CASE WHEN "nextCountDate" <= ${today}::date THEN 0 WHEN "recentVariances" > 0 THEN 1 ELSE 2 END AS tier
      FROM candidates
    )
    SELECT "productMasterId", sku, "productName", "abcClass", "lastCountedDate", "nextCountDate", "currentQty", "unitCost", value,
           "recentVariances", "lastVarianceAt", overdue,
           (ROW_NUMBER() OVER w)::int AS rank, (COUNT(*) OVER ())::int AS total, (COUNT(*) FILTER (WHERE overdue) OVER ())::int AS "overdueTotal"
    FROM ranked
    WINDOW w AS (ORDER BY tier, CASE WHEN tier = 2 THEN "nextCountDate" END, class_rank, value DESC NULLS LAST, "recentVariances" DESC, sku, "productMasterId")
    ORDER BY rank
    LIMIT ${take}::int OFFSET ${skip}::int`;
  // A page past the end has no row to carry the totals: ask for the first.
  const totals = rows[0] ?? (skip > 0 ? await firstRowTotals(ctx, args) : { total: 0, overdueTotal: 0 });
  const suggestions = rows.map(({ total: _t, overdueTotal: _o, overdue, ...row }): CycleCountSuggestion => ({
    ...row,
    locationId,
    isOverdue: overdue,
    reasons: [
      ...(overdue ? (['OVERDUE'] as const) : []),
      ...(row.lastCountedDate === null ? (['NEVER_COUNTED'] as const) : []),
      ...(row.recentVariances > 0 ? (['RECENT_VARIANCE'] as const) : []),
    ],
  }));
  const total = totals.total;
  return { type: 'suggestions', suggestions, count: total, overdueCount: totals.overdueTotal, page, pageSize: limit, total, totalPages: Math.ceil(total / limit) };
}

async function firstRowTotals(ctx: RequestContext, args: CycleCountSuggestionArgs) {
  const first = await cycleCountSuggestions(ctx, { ...args, page: 1, limit: 1 });
  return { total: first.count, overdueTotal: first.overdueCount };
}
