import type { z } from 'zod';
import {
  type forecastOverrideListQuery as listSchema,
  type forecastOverrideSet as setSchema,
  OVERRIDES_DEFAULT_LIMIT,
} from '../../../contracts/forecasting/overrides/forecast-override.js';
import type { RequestContext } from '../../../context.js';
import type { ForecastOverride, Prisma } from '../../../generated/prisma/client.js';
import { ForecastScenarioStatus } from '../../../generated/prisma/enums.js';
import { DomainError, newFieldErrors, notFound, validationError } from '../../../kernel/errors.js';
import { actorOf } from '../../actor-of.js';
import { type ListWindow, orgId } from '../../tenant.js';
import { recordForecastChange } from '../scenarios/forecast-changes.js';
import { checkForecastIds } from '../demand/fit-weekly-series.js';
import { inTransaction, type TxContext } from '../../../db/transactions.js';


/** The input as its contract outputs it (parsed once, where it comes in). */
export type SetForecastOverrideInput = z.output<typeof setSchema>;
export type ForecastOverrideListArgs = z.output<typeof listSchema>;

const DEFAULT_CHANNEL = 'ALL';
const dateOf = (day: string) => new Date(`${day}T00:00:00Z`);

/** Who set an override, as stored. */
export const overrideActor = (override: Pick<ForecastOverride, 'setByType' | 'setBy'>) => ({ type: override.setByType, id: override.setBy });

/**
 * The scenario an override write names, locked for the transaction so that a publish or archive cannot
 * slip between the state check and the write: not the organization's is 404 (400 naming `field` when the
 * id is a field of the body), 409 unless a DRAFT.
 */
async function writableScenario(ctx: TxContext, scenarioId: string, field?: string) {
  const tx = ctx.prisma;
  const organizationId = orgId(ctx);
  await tx.$executeRaw`SELECT 1 FROM forecast_scenarios WHERE id = ${scenarioId} AND "organizationId" = ${organizationId} FOR UPDATE`;
  const scenario = await tx.forecastScenario.findFirst({ where: { id: scenarioId, organizationId }, select: { status: true } });
  if (!scenario) throw field ? validationError({ [field]: ['Scenario not found'] }) : notFound('Scenario');
  if (scenario.status !== ForecastScenarioStatus.DRAFT) {
    throw new DomainError('INVALID_STATE', `${scenario.status === 'ARCHIVED' ? 'An' : 'A'} ${scenario.status} scenario is read-only: only a DRAFT's overrides can change`);
  }
}

interface Point {
  productMasterId: string;
  locationId: string;
  channel: string;
  periodStart: Date;
}

const pointWhere = (organizationId: string, point: Point, scenarioId: string | null): Prisma.ForecastOverrideWhereInput => ({
  organizationId,
  productMasterId: point.productMasterId,
  locationId: point.locationId,
  channel: point.channel,
  periodStart: point.periodStart,
  scenarioId,
});

/** The override in effect for a scenario's point (its own, else the base one), or for the base forecast; null: the model's. */
async function effectiveOverride(ctx: TxContext, point: Point, scenarioId: string | null) {
  const organizationId = orgId(ctx);
  const rows = await ctx.prisma.forecastOverride.findMany({
    where: { ...pointWhere(organizationId, point, null), scenarioId: undefined, OR: scenarioId ? [{ scenarioId }, { scenarioId: null }] : [{ scenarioId: null }] },
  });
  return rows.find((r) => r.scenarioId === scenarioId) ?? rows.find((r) => r.scenarioId === null) ?? null;
}

/**
 * Creates or replaces the override of one week of one series (for one scenario, or the base forecast),
 * with an OVERRIDE row in the change history in the same transaction. totalBefore is the override that
 * was in effect for the point (for a scenario: its own, else the base one), null when it was the model's:
 * the model value is not fitted in a write.
 */
export async function setForecastOverride(ctx: RequestContext, input: SetForecastOverrideInput) {
  const organizationId = orgId(ctx);
  const scenarioId = input.scenarioId ?? null;
  const point: Point = {
    productMasterId: input.productMasterId,
    locationId: input.locationId,
    channel: input.channel ?? DEFAULT_CHANNEL,
    periodStart: dateOf(input.periodStart),
  };
  return inTransaction(ctx, async (ctx) => {
    const tx = ctx.prisma;
    const [product, location] = await Promise.all([
      tx.productMaster.count({ where: { id: point.productMasterId, organizationId } }),
      tx.location.count({ where: { id: point.locationId, organizationId } }),
    ]);
    // Ids in a body are fields being validated: 400 naming them (docs/variants.md, General).
    const details = newFieldErrors();
    if (!product) details.productMasterId = ['Product not found'];
    if (!location) details.locationId = ['Location not found'];
    if (Object.keys(details).length) throw validationError(details);
    if (scenarioId) await writableScenario(ctx, scenarioId, 'scenarioId');
    // Two writers of the same point wait for each other, so the second replaces the first instead of failing on the unique index.
    const key = [organizationId, scenarioId ?? '', point.productMasterId, point.locationId, point.channel, input.periodStart].join('|');
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${key}, 0))`;

    const before = await effectiveOverride(ctx, point, scenarioId);
    const { actorType, createdBy } = actorOf(ctx);
    const data = { quantity: input.quantity, note: input.note ?? null, setByType: actorType, setBy: createdBy };
    const own = before?.scenarioId === scenarioId ? before : null;
    const override = own
      ? await tx.forecastOverride.update({ where: { id: own.id }, data })
      : await tx.forecastOverride.create({ data: { organizationId, scenarioId, ...point, ...data } });
    await recordForecastChange(ctx, {
      scenarioId,
      kind: 'OVERRIDE',
      ...point,
      totalBefore: before?.quantity ?? null,
      totalAfter: input.quantity,
      note: input.note ?? null,
    });
    return override;
  });
}

/**
 * Removes an override (the point answers the model again, or for a scenario the base override), with an
 * OVERRIDE row in the change history: totalBefore the removed quantity, totalAfter the base override a
 * scenario's point falls back to, or null (the model's).
 */
export async function removeForecastOverride(ctx: RequestContext, overrideId: string) {
  const organizationId = orgId(ctx);
  return inTransaction(ctx, async (ctx) => {
    const tx = ctx.prisma;
    const found = await tx.forecastOverride.findFirst({ where: { id: overrideId, organizationId } });
    if (!found) throw notFound('Override');
    if (found.scenarioId) await writableScenario(ctx, found.scenarioId);
    const deleted = await tx.forecastOverride.deleteMany({ where: { id: overrideId, organizationId } });
    if (!deleted.count) throw notFound('Override');
    const fallback = found.scenarioId ? await tx.forecastOverride.findFirst({ where: pointWhere(organizationId, found, null) }) : null;
    await recordForecastChange(ctx, {
      scenarioId: found.scenarioId,
      kind: 'OVERRIDE',
      productMasterId: found.productMasterId,
      locationId: found.locationId,
      channel: found.channel,
      periodStart: found.periodStart,
      totalBefore: found.quantity,
      totalAfter: fallback?.quantity ?? null,
      note: 'Override removed',
    });
    return found;
  });
}

/** A page of the organization's overrides, by week then series (limit and offset, or a connection's window). Filters naming another organization's ids are 404. */
export async function forecastOverridePage(ctx: RequestContext, query: ForecastOverrideListArgs, window?: ListWindow) {
  const organizationId = orgId(ctx);
  await checkForecastIds(ctx, query);

  const where: Prisma.ForecastOverrideWhereInput = {
    organizationId,
    productMasterId: query.productMasterId,
    locationId: query.locationId,
    channel: query.channel,
    scenarioId: query.baseOnly ? null : query.scenarioId,
    periodStart: { gte: query.from ? dateOf(query.from) : undefined, lte: query.to ? dateOf(query.to) : undefined },
  };
  const limit = window?.take ?? query.limit ?? OVERRIDES_DEFAULT_LIMIT;
  const offset = window?.skip ?? query.offset ?? 0;
  const [total, entries] = await Promise.all([
    ctx.prisma.forecastOverride.count({ where }),
    ctx.prisma.forecastOverride.findMany({
      where,
      orderBy: [{ periodStart: 'asc' }, { productMasterId: 'asc' }, { locationId: 'asc' }, { channel: 'asc' }, { id: 'asc' }],
      skip: offset,
      take: limit,
    }),
  ]);
  return { entries, total, limit, offset, hasMore: offset + entries.length < total };
}

/**
 * The overrides that win over the model in a forecast of these series over these weeks, in one query:
 * keyed by series and week, a scenario's own override before the base one.
 */
export async function readPointOverrides(
  ctx: RequestContext,
  series: { productMasterId: string; locationId: string; channel: string }[],
  weeks: { from: string; to: string },
  scenarioId: string | null,
) {
  const winners = new Map<string, ForecastOverride>();
  if (!series.length) return winners;
  const rows = await ctx.prisma.forecastOverride.findMany({
    where: {
      organizationId: orgId(ctx),
      productMasterId: { in: [...new Set(series.map((s) => s.productMasterId))] },
      locationId: { in: [...new Set(series.map((s) => s.locationId))] },
      channel: { in: [...new Set(series.map((s) => s.channel))] },
      periodStart: { gte: dateOf(weeks.from), lte: dateOf(weeks.to) },
      OR: scenarioId ? [{ scenarioId: null }, { scenarioId }] : [{ scenarioId: null }],
    },
  });
  for (const row of rows) {
    const key = overrideKey(row.productMasterId, row.locationId, row.channel, row.periodStart.toISOString().slice(0, 10));
    const held = winners.get(key);
    if (!held || (held.scenarioId === null && row.scenarioId !== null)) winners.set(key, row);
  }
  return winners;
}

export const overrideKey = (productMasterId: string, locationId: string, channel: string, periodStart: string) =>
  `${productMasterId}|${locationId}|${channel}|${periodStart}`;
