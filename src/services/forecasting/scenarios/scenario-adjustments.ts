import type { RequestContext } from '../../../context.js';
import type { ForecastScenario } from '../../../generated/prisma/client.js';
import type { ForecastScenarioStatus, ForecastScenarioType } from '../../../generated/prisma/enums.js';
import { getForecastScenario, scenarioAssumptions } from './forecast-scenarios.js';
import { orgId } from '../../tenant.js';

/** A scenario's assumptions, read once and ready to apply to any number of series. */
export interface ScenarioApplication {
  id: string;
  name: string;
  type: ForecastScenarioType;
  status: ForecastScenarioStatus;
  /** null: every event in the window; otherwise only these (an empty set: none). */
  includedEventIds: Set<string> | null;
  categoryLifts: Map<string, number>;
  /** The adjusted channels of the organization, in the order the scenario lists them. */
  channelLifts: { id: string; name: string; type: string; liftPct: number }[];
  globalLiftPct: number | null;
}

/** What the scenario's adjustments did to one series; factor multiplies its forecast and bounds after the events. */
export interface SeriesAdjustment {
  scenarioId: string;
  categoryId: string | null;
  categoryLiftPct: number | null;
  channelId: string | null;
  channelLiftPct: number | null;
  globalLiftPct: number | null;
  factor: number;
}

/**
 * The organization's scenario, whatever its status (an ARCHIVED one stays readable, so past plans can be
 * looked at again), with the channels its channelAdjustments name. Unknown or foreign: NOT_FOUND.
 */
export async function readScenarioApplication(ctx: RequestContext, scenarioId: string): Promise<ScenarioApplication> {
  return scenarioApplicationOf(ctx, await getForecastScenario(ctx, scenarioId));
}

/** A scenario row (or a snapshot of it, as a forecast run keeps one) ready to apply. */
export async function scenarioApplicationOf(ctx: RequestContext, scenario: Pick<ForecastScenario, 'id' | 'name' | 'type' | 'status' | 'assumptions'>): Promise<ScenarioApplication> {
  const assumptions = scenarioAssumptions(scenario);
  const adjusted = assumptions?.channelAdjustments ?? [];
  const channels = adjusted.length
    ? await ctx.prisma.channel.findMany({ where: { organizationId: orgId(ctx), id: { in: adjusted.map((a) => a.channelId) } }, select: { id: true, name: true, type: true } })
    : [];
  const byId = new Map(channels.map((c) => [c.id, c]));
  return {
    id: scenario.id,
    name: scenario.name,
    type: scenario.type,
    status: scenario.status,
    includedEventIds: assumptions?.includedEventIds ? new Set(assumptions.includedEventIds) : null,
    categoryLifts: new Map((assumptions?.categoryAdjustments ?? []).map((a) => [a.categoryId, a.liftPct])),
    // A channel deleted since the scenario was written adjusts nothing.
    channelLifts: adjusted.flatMap((a) => {
      const channel = byId.get(a.channelId);
      return channel ? [{ ...channel, liftPct: a.liftPct }] : [];
    }),
    globalLiftPct: assumptions?.globalLiftPct ?? null,
  };
}

/** Category of each product (null: none), one query for a page of series. */
export async function readProductCategories(ctx: RequestContext, productIds: string[]): Promise<Map<string, string | null>> {
  if (!productIds.length) return new Map();
  const products = await ctx.prisma.productMaster.findMany({ where: { organizationId: orgId(ctx), id: { in: productIds } }, select: { id: true, categoryId: true } });
  return new Map(products.map((p) => [p.id, p.categoryId]));
}

/** Whether a scenario applies an event (no scenario: every event). */
export const scenarioIncludesEvent = (scenario: ScenarioApplication | null, eventId: string) =>
  !scenario?.includedEventIds || scenario.includedEventIds.has(eventId);

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * The channel adjustment of a demand-history channel label: the adjusted channel whose name equals the
 * label (case-insensitive; names are unique), else the first adjusted channel (in the scenario's order)
 * whose type equals it. So the label ALL (history without a channel) matches only a channel named or typed ALL.
 */
function channelFor(scenario: ScenarioApplication, label: string) {
  return scenario.channelLifts.find((c) => same(c.name, label)) ?? scenario.channelLifts.find((c) => same(c.type, label)) ?? null;
}

/** 1 + lift, never below zero. */
const factorOf = (liftPct: number | null) => Math.max(0, 1 + (liftPct ?? 0));

/** The category, channel and global adjustments of a scenario for one series, in that order. */
export function seriesAdjustment(scenario: ScenarioApplication, series: { productMasterId: string; channel: string }, categories: Map<string, string | null>): SeriesAdjustment {
  const categoryId = categories.get(series.productMasterId) ?? null;
  const categoryLiftPct = categoryId === null ? null : (scenario.categoryLifts.get(categoryId) ?? null);
  const channel = channelFor(scenario, series.channel);
  const channelLiftPct = channel?.liftPct ?? null;
  return {
    scenarioId: scenario.id,
    categoryId: categoryLiftPct === null ? null : categoryId,
    categoryLiftPct,
    channelId: channel?.id ?? null,
    channelLiftPct,
    globalLiftPct: scenario.globalLiftPct,
    factor: factorOf(categoryLiftPct) * factorOf(channelLiftPct) * factorOf(scenario.globalLiftPct),
  };
}
