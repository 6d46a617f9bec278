import type { z } from 'zod';
import { type cycleCountAccuracyQuery, DEFAULT_ACCURACY_DAYS } from '../../../contracts/inventory/cycle-counts/accuracy-query.js';
import type { RequestContext } from '../../../context.js';
import { Prisma } from '../../../generated/prisma/client.js';
import { checkFilterIds } from '../../filter-ids.js';
import { orgId } from '../../tenant.js';
import { countTolerance, type Tolerance, withinToleranceSql } from './abc-config.js';

export type CycleCountAccuracyArgs = z.output<typeof cycleCountAccuracyQuery>;

export interface AccuracyFigures {
  /** Count lines of COMPLETED batches counted in the period (their last count). */
  countedLines: number;
  /** Of those, the lines whose variance is within the organization's tolerance (exact ones included). */
  withinTolerance: number;
  /** Of those, the lines counted exactly as expected. */
  exactLines: number;
  /** withinTolerance / countedLines × 100, two decimals; null when nothing was counted. */
  accuracyPercent: number | null;
}

export type AccuracyByClass = AccuracyFigures & { abcClass: 'A' | 'B' | 'C' | null };
export type AccuracyByLocation = AccuracyFigures & { locationId: string; locationCode: string; locationName: string };

export interface CycleCountAccuracy {
  locationId: string | null;
  from: Date;
  to: Date;
  tolerance: Tolerance;
  overall: AccuracyFigures;
  /** A, B, C and unclassified (null), always the four, in that order. */
  byClass: AccuracyByClass[];
  /** The locations with counted lines in the period, by code. */
  byLocation: AccuracyByLocation[];
}

interface Group {
  locationId: string;
  abcClass: 'A' | 'B' | 'C' | null;
  counted: number;
  within: number;
  exact: number;
}

const DAY_MS = 86_400_000;
const day = (date: Date) => date.toISOString().slice(0, 10);

function figures(groups: Group[]): AccuracyFigures {
  const countedLines = groups.reduce((sum, g) => sum + g.counted, 0);
  const withinTolerance = groups.reduce((sum, g) => sum + g.within, 0);
  const exactLines = groups.reduce((sum, g) => sum + g.exact, 0);
  return { countedLines, withinTolerance, exactLines, accuracyPercent: countedLines ? Math.round((withinTolerance / countedLines) * 10_000) / 100 : null };
}

/**
 * Inventory record accuracy: the share of counted lines whose count was within the organization's tolerance
 * (its tolerance now), over the lines of COMPLETED batches counted from `from` to `to` (UTC days, both
 * included; default the last 90 days), overall, by ABC class (the product's class at the location now;
 * unclassified apart) and by location. A line's count is its last one (a recount replaces it; a rejected
 * count that was not redone is not a count). IN_PROGRESS batches may still be recounted and CANCELLED ones
 * were abandoned: neither is measured.
 */
export async function cycleCountAccuracy(ctx: RequestContext, args: CycleCountAccuracyArgs): Promise<CycleCountAccuracy> {
  const organizationId = orgId(ctx);
  const locationId = args.locationId ?? null;
  await checkFilterIds(ctx, { locationId });
  const to = new Date(`${args.to ?? day(new Date())}T00:00:00Z`);
  const from = args.from ? new Date(`${args.from}T00:00:00Z`) : new Date(to.getTime() - (DEFAULT_ACCURACY_DAYS - 1) * DAY_MS);
  const tolerance = await countTolerance(ctx);
  const variance = Prisma.sql`(c."countedQty" - c."expectedQty")`;
  const within = withinToleranceSql(tolerance, variance, Prisma.sql`c."expectedQty"`, Prisma.sql`c."unitCost"`);
  const groups = await ctx.prisma.$queryRaw<Group[]>`
    SELECT b."locationId", l."abcClass"::text AS "abcClass", COUNT(*)::int AS counted,
           (COUNT(*) FILTER (WHERE ${within}))::int AS within, (COUNT(*) FILTER (WHERE ${variance} = 0))::int AS exact
    FROM cycle_count_lines c
    JOIN cycle_count_batches b ON b.id = c."batchId"
    LEFT JOIN inventory_levels l ON l."productMasterId" = c."productMasterId" AND l."locationId" = b."locationId"
    WHERE b."organizationId" = ${organizationId} AND b.status = 'COMPLETED' AND c."countedQty" IS NOT NULL
      AND c."countedAt" >= ${from} AND c."countedAt" < ${new Date(to.getTime() + DAY_MS)}
      ${locationId ? Prisma.sql`AND b."locationId" = ${locationId}` : Prisma.empty}
    GROUP BY 1, 2`;
  const locationIds = [...new Set(groups.map((g) => g.locationId))];
  const locations = locationIds.length
    ? await ctx.prisma.location.findMany({ where: { organizationId, id: { in: locationIds } }, select: { id: true, code: true, name: true }, orderBy: [{ code: 'asc' }, { id: 'asc' }] })
    : [];
  return {
    locationId,
    from,
    to,
    tolerance,
    overall: figures(groups),
    byClass: (['A', 'B', 'C', null] as const).map((abcClass) => ({ abcClass, ...figures(groups.filter((g) => g.abcClass === abcClass)) })),
    byLocation: locations.map((l) => ({ locationId: l.id, locationCode: l.code, locationName: l.name, ...figures(groups.filter((g) => g.locationId === l.id)) })),
  };
}
