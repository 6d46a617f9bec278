import type { z } from 'zod';
import type { cycleCountAbcUpdate } from '../../../contracts/inventory/cycle-counts/abc-config.js';
import type { RequestContext } from '../../../context.js';
import { inTransaction } from '../../../db/transactions.js';
import { Prisma } from '../../../generated/prisma/client.js';
import { newFieldErrors, validationError } from '../../../kernel/errors.js';
import { orgId } from '../../tenant.js';
import { reclassifyLocation, type Reclassification } from './abc-reclassify.js';

export type AbcUpdateInput = z.output<typeof cycleCountAbcUpdate>;

export interface AbcConfig {
  aPercent: number;
  bPercent: number;
  cPercent: number;
  aFrequencyDays: number;
  bFrequencyDays: number;
  cFrequencyDays: number;
}

export interface Tolerance {
  units: number;
  percent: number;
  value: number;
}

/** The organization's count tolerance (0, 0, 0 until it sets one: only exact counts are within it). */
export async function countTolerance(ctx: RequestContext): Promise<Tolerance> {
  const row = await ctx.prisma.cycleCountSettings.findUnique({ where: { organizationId: orgId(ctx) } });
  return { units: row?.toleranceUnits ?? 0, percent: row?.tolerancePercent ?? 0, value: row ? row.toleranceValue.toNumber() : 0 };
}

/**
 * The one rule of "within tolerance", as SQL over a count line's variance, its expected quantity and the
 * product's unit cost (numeric): at most `units` either way, or at most `percent` of the expected quantity
 * (an expected 0 has no percent), or worth at most `value` (products with a cost only). Compared in numeric,
 * so 3 × 0.1 is within a value of 0.3. Completing a batch and the accuracy report both use it.
 */
export function withinToleranceSql(tolerance: Tolerance, variance: Prisma.Sql, expected: Prisma.Sql, unitCost: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(ABS(${variance}) <= ${tolerance.units}::int
    OR (${expected} > 0 AND ABS(${variance})::numeric * 100 <= ${tolerance.percent}::numeric * ${expected})
    OR (${unitCost} IS NOT NULL AND ABS(${variance})::numeric * ${unitCost} <= ${tolerance.value}::numeric))`;
}

/** What an organization that never set its configuration counts with (the columns' defaults). */
export const DEFAULT_ABC_CONFIG: AbcConfig = { aPercent: 80, bPercent: 15, cPercent: 5, aFrequencyDays: 30, bFrequencyDays: 90, cFrequencyDays: 180 };

const KEYS = Object.keys(DEFAULT_ABC_CONFIG) as (keyof AbcConfig)[];
const PERCENTS = ['aPercent', 'bPercent', 'cPercent'] as const;

const pick = (row: AbcConfig): AbcConfig => Object.fromEntries(KEYS.map((key) => [key, row[key]])) as unknown as AbcConfig;

/** The organization's ABC configuration (the defaults until it sets one). */
export async function abcConfig(ctx: RequestContext): Promise<AbcConfig> {
  const row = await ctx.prisma.cycleCountSettings.findUnique({ where: { organizationId: orgId(ctx) } });
  return row ? pick(row) : { ...DEFAULT_ABC_CONFIG };
}

/** How often a product of the class is counted; an unclassified product is counted as a C. */
export function frequencyOf(config: AbcConfig, abcClass: string | null): number {
  return abcClass === 'A' ? config.aFrequencyDays : abcClass === 'B' ? config.bFrequencyDays : config.cFrequencyDays;
}

/**
 * The next count date of a level as SQL (`level` its alias): the last count plus its class's frequency
 * (frequencyOf's rule), today when it was never counted. The schedule and the suggestions both order by it.
 */
export function nextCountDateSql(config: AbcConfig, level: string, today: string): Prisma.Sql {
  const l = Prisma.raw(level);
  return Prisma.sql`COALESCE(${l}."lastCountedAt"::date + (CASE ${l}."abcClass"::text WHEN 'A' THEN ${config.aFrequencyDays}::int WHEN 'B' THEN ${config.bFrequencyDays}::int
    ELSE ${config.cFrequencyDays}::int END), ${today}::date)`;
}

/**
 * Sets the fields given (the others keep their value) and, when asked, reclassifies a location with the
 * result, in one transaction: a refused reclassification leaves the configuration as it was.
 */
export async function updateCycleCountAbc(ctx: RequestContext, input: AbcUpdateInput): Promise<{ config: AbcConfig; tolerance: Tolerance; reclassification: Reclassification | null }> {
  return inTransaction(ctx, async (ctx) => {
    const organizationId = orgId(ctx);
    const given = Object.fromEntries(KEYS.filter((key) => input[key] !== undefined).map((key) => [key, input[key]!])) as Partial<AbcConfig>;
    const config = { ...(await abcConfig(ctx)), ...given };
    const sum = config.aPercent + config.bPercent + config.cPercent;
    if (sum !== 100) {
      const details = newFieldErrors();
      const named = PERCENTS.filter((key) => key in given);
      for (const key of named.length ? named : PERCENTS) details[key] = [`aPercent + bPercent + cPercent must be 100 (is ${config.aPercent} + ${config.bPercent} + ${config.cPercent} = ${sum})`];
      throw validationError(details, 'The ABC percents must add up to 100');
    }
    const t = input.tolerance ?? {};
    const tolerance = { ...(await countTolerance(ctx)), ...Object.fromEntries(Object.entries(t).filter(([, v]) => v !== undefined)) } as Tolerance;
    const toleranceColumns = { toleranceUnits: tolerance.units, tolerancePercent: tolerance.percent, toleranceValue: tolerance.value };
    if (Object.keys(given).length || input.tolerance) {
      await ctx.prisma.cycleCountSettings.upsert({ where: { organizationId }, create: { organizationId, ...config, ...toleranceColumns }, update: { ...given, ...toleranceColumns } });
    }
    const reclassification = input.reclassify ? await reclassifyLocation(ctx, config, input.reclassify.locationId, input.reclassify.periodDays ?? 90) : null;
    return { config, tolerance, reclassification };
  });
}
