import type { z } from 'zod';
import {
  type forecastScenarioCreate as createSchema,
  type forecastScenarioListQuery as listSchema,
  type forecastScenarioUpdate as updateSchema,
  type ScenarioAssumptions,
} from '../../../contracts/forecasting/scenarios/forecast-scenario.js';
import type { RequestContext } from '../../../context.js';
import { Prisma, type ForecastScenario } from '../../../generated/prisma/client.js';
import { ForecastScenarioStatus } from '../../../generated/prisma/enums.js';
import { DomainError, newFieldErrors, notFound, validationError } from '../../../kernel/errors.js';
import { actorOf } from '../../actor-of.js';
import { type ListWindow, orgId } from '../../tenant.js';
import { recordForecastChange } from './forecast-changes.js';
import { inTransaction, type TxContext } from '../../../db/transactions.js';

/** Prisma query fragment from a Pothos resolver (select or include); empty for plain service calls. */
type Query = { select?: object; include?: object };

/** The inputs as their contracts output them (parsed once, where they come in). */
export type CreateForecastScenarioInput = z.output<typeof createSchema>;
/** A PATCH's changes, or (replace) a whole scenario. */
export type UpdateForecastScenarioInput = z.output<typeof updateSchema> | CreateForecastScenarioInput;
export type ForecastScenarioListArgs = z.output<typeof listSchema>;

/** The assumptions object of the interface, every key present (null when not set), or null when none were given. */
export interface ForecastScenarioAssumptions {
  narrative: string | null;
  globalLiftPct: number | null;
  categoryAdjustments: { categoryId: string; liftPct: number }[] | null;
  channelAdjustments: { channelId: string; liftPct: number }[] | null;
  includedEventIds: string[] | null;
}

export function scenarioAssumptions(scenario: Pick<ForecastScenario, 'assumptions'>): ForecastScenarioAssumptions | null {
  const stored = scenario.assumptions as ScenarioAssumptions | null;
  if (!stored) return null;
  return {
    narrative: stored.narrative ?? null,
    globalLiftPct: stored.globalLiftPct ?? null,
    categoryAdjustments: stored.categoryAdjustments ?? null,
    channelAdjustments: stored.channelAdjustments ?? null,
    includedEventIds: stored.includedEventIds ?? null,
  };
}

/** Who did something to a scenario, as stored: USER or API_KEY and the id. */
export const scenarioActor = (type: string | null, id: string | null) => (type && id ? { type, id } : null);

/**
 * Scenarios of the organization, newest first. Archived ones only with includeArchived, or when
 * status=ARCHIVED asks for them.
 */
export function listForecastScenarios(ctx: RequestContext, args: ForecastScenarioListArgs, query: Query = {}) {
  return ctx.prisma.forecastScenario.findMany({ ...query, where: scenarioListWhere(ctx, args), orderBy: SCENARIO_ORDER });
}

/** A window of the scenarios listForecastScenarios answers, in its order, with how many there are in all. */
export async function forecastScenarioWindow(ctx: RequestContext, args: ForecastScenarioListArgs, window: ListWindow, query: Query = {}) {
  const where = scenarioListWhere(ctx, args);
  const [total, items] = await Promise.all([
    ctx.prisma.forecastScenario.count({ where }),
    window.take ? ctx.prisma.forecastScenario.findMany({ ...query, where, orderBy: SCENARIO_ORDER, skip: window.skip, take: window.take }) : [],
  ]);
  return { items, total };
}

const SCENARIO_ORDER: Prisma.ForecastScenarioOrderByWithRelationInput[] = [{ createdAt: 'desc' }, { id: 'desc' }];

function scenarioListWhere(ctx: RequestContext, args: ForecastScenarioListArgs) {
  const where: Prisma.ForecastScenarioWhereInput = { organizationId: orgId(ctx), type: args.type };
  if (args.status) where.status = args.status;
  else if (!args.includeArchived) where.status = { not: ForecastScenarioStatus.ARCHIVED };
  return where;
}

export async function getForecastScenario(ctx: RequestContext, scenarioId: string, query: Query = {}) {
  const db = ctx.prisma;
  const scenario = await db.forecastScenario.findFirst({ ...query, where: { id: scenarioId, organizationId: orgId(ctx) } });
  if (!scenario) throw notFound('Scenario');
  return scenario;
}

/**
 * The ids the assumptions name must be categories, channels and events of the organization; each
 * unknown one is named by its place (`assumptions.categoryAdjustments.2.categoryId`).
 */
async function checkAssumptions(ctx: RequestContext, assumptions: ScenarioAssumptions | null | undefined) {
  const db = ctx.prisma;
  if (!assumptions) return;
  const organizationId = orgId(ctx);
  const categoryIds = assumptions.categoryAdjustments?.map((a) => a.categoryId) ?? [];
  const channelIds = assumptions.channelAdjustments?.map((a) => a.channelId) ?? [];
  const eventIds = assumptions.includedEventIds ?? [];
  const [categories, channels, events] = await Promise.all([
    categoryIds.length ? db.category.findMany({ where: { organizationId, id: { in: categoryIds } }, select: { id: true } }) : [],
    channelIds.length ? db.channel.findMany({ where: { organizationId, id: { in: channelIds } }, select: { id: true } }) : [],
    eventIds.length ? db.externalEvent.findMany({ where: { organizationId, id: { in: eventIds } }, select: { id: true } }) : [],
  ]);
  const details = newFieldErrors();
  const missing = (ids: string[], found: { id: string }[], field: (index: number) => string, message: string) => {
    const known = new Set(found.map((row) => row.id));
    ids.forEach((id, index) => {
      if (!known.has(id)) details[`assumptions.${field(index)}`] = [message];
    });
  };
  missing(categoryIds, categories, (i) => `categoryAdjustments.${i}.categoryId`, 'Category not found');
  missing(channelIds, channels, (i) => `channelAdjustments.${i}.channelId`, 'Channel not found');
  missing(eventIds, events, (i) => `includedEventIds.${i}`, 'Event not found');
  if (Object.keys(details).length) throw validationError(details);
}

/** Only keys that were given are stored, so a stored object reads back as it was sent. */
function storedAssumptions(assumptions: ScenarioAssumptions | null | undefined) {
  if (assumptions == null) return Prisma.DbNull;
  return Object.fromEntries(Object.entries(assumptions).filter(([, value]) => value != null)) as Prisma.InputJsonObject;
}

export async function createForecastScenario(ctx: RequestContext, input: CreateForecastScenarioInput, query: Query = {}) {
  await checkAssumptions(ctx, input.assumptions);
  const { actorType, createdBy } = actorOf(ctx);
  return ctx.prisma.forecastScenario.create({
    ...query,
    data: {
      organizationId: orgId(ctx),
      name: input.name,
      type: input.type,
      description: input.description ?? null,
      assumptions: storedAssumptions(input.assumptions),
      createdByType: actorType,
      createdBy,
    },
  });
}

const readOnly = (scenario: ForecastScenario, doing: string) =>
  new DomainError('INVALID_STATE', `${scenario.status === 'ARCHIVED' ? 'An' : 'A'} ${scenario.status} scenario is read-only: only a DRAFT can be ${doing}`);

/**
 * Moves or changes a scenario under a row lock, so that two requests cannot both take it out of a state
 * (two publishes, or an update racing a publish), and returns it as it is afterwards.
 */
function withLockedScenario(ctx: RequestContext, scenarioId: string, query: Query, change: (ctx: TxContext, scenario: ForecastScenario) => Promise<void>) {
  return inTransaction(ctx, async (ctx) => {
    const tx = ctx.prisma;
    const organizationId = orgId(ctx);
    await tx.$executeRaw`SELECT 1 FROM forecast_scenarios WHERE id = ${scenarioId} AND "organizationId" = ${organizationId} FOR UPDATE`;
    const scenario = await getForecastScenario(ctx, scenarioId, {});
    await change(ctx, scenario);
    return getForecastScenario(ctx, scenarioId, query);
  });
}

/**
 * Changes a DRAFT. `replace` (PUT) sets every updatable field, clearing description and assumptions
 * when absent (the input is a whole scenario, as forecastScenarioCreate outputs it); otherwise (PATCH) absent
 * fields stay as they are. Assumptions are replaced as a whole.
 */
export function updateForecastScenario(ctx: RequestContext, scenarioId: string, input: UpdateForecastScenarioInput, options: { replace?: boolean } = {}, query: Query = {}) {
  return withLockedScenario(ctx, scenarioId, query, async (ctx, scenario) => {
    const tx = ctx.prisma;
    if (scenario.status !== ForecastScenarioStatus.DRAFT) throw readOnly(scenario, 'changed');
    await checkAssumptions(ctx, input.assumptions);
    const cleared = options.replace ? null : undefined;
    await tx.forecastScenario.update({
      where: { id: scenario.id },
      data: {
        name: input.name,
        type: input.type,
        description: input.description === undefined ? cleared : input.description,
        assumptions: input.assumptions === undefined ? (options.replace ? Prisma.DbNull : undefined) : storedAssumptions(input.assumptions),
      },
    });
  });
}

/** DRAFT → PUBLISHED, with a PUBLISH row in the change history. */
export function publishForecastScenario(ctx: RequestContext, scenarioId: string, query: Query = {}) {
  return withLockedScenario(ctx, scenarioId, query, async (ctx, scenario) => {
    const tx = ctx.prisma;
    if (scenario.status !== ForecastScenarioStatus.DRAFT) throw readOnly(scenario, 'published');
    const { actorType, createdBy } = actorOf(ctx);
    await tx.forecastScenario.update({
      where: { id: scenario.id },
      data: { status: ForecastScenarioStatus.PUBLISHED, publishedAt: new Date(), publishedByType: actorType, publishedBy: createdBy },
    });
    await recordForecastChange(ctx, { scenarioId: scenario.id, kind: 'PUBLISH' });
  });
}

/**
 * DRAFT or PUBLISHED → ARCHIVED (what DELETE does: the scenario and its history stay), with an ARCHIVE
 * row in the change history. An archived scenario cannot be archived again.
 */
export function archiveForecastScenario(ctx: RequestContext, scenarioId: string, query: Query = {}) {
  return withLockedScenario(ctx, scenarioId, query, async (ctx, scenario) => {
    const tx = ctx.prisma;
    if (scenario.status === ForecastScenarioStatus.ARCHIVED) {
      throw new DomainError('INVALID_STATE', 'The scenario is already archived');
    }
    await tx.forecastScenario.update({ where: { id: scenario.id }, data: { status: ForecastScenarioStatus.ARCHIVED, archivedAt: new Date() } });
    await recordForecastChange(ctx, { scenarioId: scenario.id, kind: 'ARCHIVE', note: `Archived from ${scenario.status}` });
  });
}
