import type { RequestContext } from '../../../context.js';
import type { ChannelProjectionQuery } from '../../../contracts/forecasting/projections/channel-projection-query.js';
import { FORECAST_PAGING } from '../../../contracts/forecasting/demand/forecast-query.js';
import { answerPoint, levelsToFit, roundForecast } from '../demand/answer-points.js';
import { weekAfter } from '../engine/forecast-series.js';
import type { ForecastPoint, SeriesForecast, WeeklySeries } from '../engine/types.js';
import { checkForecastIds, fitWeeklySeries } from '../demand/fit-weekly-series.js';
import { MAX_HISTORY_WEEKS, weeksBetween } from '../demand/demand-series.js';
import type { ForecastEvent } from '../events/forecast-events.js';
import {
  appliedEvents,
  type AssumptionSet,
  overridePoint,
  type PointLiftSource,
  readAssumptions,
  readOverrides,
  seriesAssumptions,
  weekLift,
} from '../demand/forecast-assumptions.js';
import { overrideKey } from '../overrides/forecast-overrides.js';
import { readScenarioApplication, type ScenarioApplication, type SeriesAdjustment } from '../scenarios/scenario-adjustments.js';
import { type ListWindow, orgId, pageWindow } from '../../tenant.js';
import { asForecastRequest } from '../engine/engine-admission.js';
import { mapInSlices } from '../../../kernel/yielding.js';

const roundShare = (value: number) => Math.round(value * 1_000_000) / 1_000_000;

/** Where the shares came from: the recent weeks; the whole history (no recent demand); equal (no demand at all). */
export type ShareBasis = 'RECENT' | 'HISTORY' | 'EQUAL';

export interface ChannelShare {
  channel: string;
  share: number;
  /** Units of the channel over the share window. */
  recentUnits: number;
}

export interface ProjectionPoint {
  periodStart: string;
  forecast: number;
  lower: number;
  upper: number;
  lower95: number;
  upper95: number;
  intervals: { level: number; lower: number; upper: number }[];
  /** What the week's events multiplied the total's statistical forecast by (1: none). */
  liftFactor: number;
  liftSource: PointLiftSource;
  /** Channel: category × channel × global adjustment; total: category × global × Σ share × channel factor (what its channels add up to). */
  adjustmentFactor: number;
  /** Channel: its override set the point; total: some channel's did (the total is then the sum of its channels). */
  overridden: boolean;
  /** Channel: the override that won, or null; total: always null. */
  overrideId: string | null;
}

export interface ChannelPart {
  channel: string;
  share: number;
  /** The scenario's adjustments of this channel's series (its category, channel and global lifts); null without a scenario. */
  adjustments: SeriesAdjustment | null;
  points: ProjectionPoint[];
}

export interface ChannelProjection {
  productMasterId: string;
  locationId: string;
  method: SeriesForecast['method'];
  backtestError: number | null;
  intervalSource: SeriesForecast['intervalSource'];
  historyWeeks: number;
  lastHistoryWeek: string;
  shareBasis: ShareBasis;
  /** First and last week of the share window, and its length (shareWeeks, or the whole history when shorter). */
  shareFrom: string;
  shareWeeks: number;
  shares: ChannelShare[];
  /** Events that lifted at least one week of the total. */
  events: ForecastEvent[];
  /** The forecast of the product × location total (every channel summed). */
  total: ProjectionPoint[];
  channels: ChannelPart[];
}

interface PairHistory {
  productMasterId: string;
  locationId: string;
  /** Units per channel per week (yyyy-mm-dd Monday). */
  byChannel: Map<string, Map<string, number>>;
}

/**
 * One page of the product × location pairs of the demand history (by product, then location id), with every
 * channel's history over the pair's last MAX_HISTORY_WEEKS weeks (from its last record in any channel
 * back): older weeks are never read. Two queries: the pairs, then the windows of the page's pairs, a row per
 * pair and channel with its weeks and units as arrays.
 */
async function readPairs(ctx: RequestContext, filter: { productMasterId?: string; locationId?: string }, page: { skip: number; take: number }) {
  const keys = await ctx.prisma.demandHistory.groupBy({
    by: ['productMasterId', 'locationId'],
    where: {
      organizationId: orgId(ctx),
      ...(filter.productMasterId ? { productMasterId: filter.productMasterId } : {}),
      ...(filter.locationId ? { locationId: filter.locationId } : {}),
    },
    orderBy: [{ productMasterId: 'asc' }, { locationId: 'asc' }],
  });
  const onPage = keys.slice(page.skip, page.skip + page.take);
  if (!onPage.length) return { total: keys.length, pairs: [] as PairHistory[] };
  const rows = await ctx.prisma.$queryRaw<{ p: string; l: string; channel: string; weeks: string[]; units: number[] }[]>`
    SELECT k.p, k.l, h.channel, h.weeks, h.units
    FROM unnest(${onPage.map((k) => k.productMasterId)}::text[], ${onPage.map((k) => k.locationId)}::text[]) AS k(p, l)
    CROSS JOIN LATERAL (
      SELECT MAX(d."weekStart") AS last FROM "demand_history" d
      WHERE d."organizationId" = ${orgId(ctx)} AND d."productMasterId" = k.p AND d."locationId" = k.l
    ) m
    CROSS JOIN LATERAL (
      SELECT d.channel, array_agg(to_char(d."weekStart", 'YYYY-MM-DD')) AS weeks, array_agg(d."actualUnits") AS units
      FROM "demand_history" d
      WHERE d."organizationId" = ${orgId(ctx)} AND d."productMasterId" = k.p AND d."locationId" = k.l
        AND d."weekStart" > m.last - ${MAX_HISTORY_WEEKS * 7}::int
      GROUP BY d.channel
    ) h`;
  const pairs = new Map(onPage.map((k) => [`${k.productMasterId}\u0000${k.locationId}`, { ...k, byChannel: new Map<string, Map<string, number>>() }]));
  for (const row of rows) {
    const pair = pairs.get(`${row.p}\u0000${row.l}`);
    if (!pair) continue;
    pair.byChannel.set(row.channel, new Map(row.weeks.map((w, i) => [w, row.units[i]!])));
  }
  // A pair deleted between the two reads has no rows.
  return { total: keys.length, pairs: [...pairs.values()].filter((p) => p.byChannel.size) };
}

/** The weekly total over channels from the first history week to the last, every week (a missing week is 0). */
function totalSeries(pair: PairHistory) {
  const recorded = [...pair.byChannel.values()].flatMap((weeks) => [...weeks.keys()]).sort();
  const first = recorded[0]!;
  const count = weeksBetween(first, recorded.at(-1)!) + 1;
  const weekStarts = Array.from({ length: count }, (_, i) => weekAfter(first, i));
  const values = weekStarts.map((w) => [...pair.byChannel.values()].reduce((sum, weeks) => sum + (weeks.get(w) ?? 0), 0));
  return { weekStarts, values };
}

/**
 * Each channel's share of the pair's demand over the last `shareWeeks` history weeks. Without demand in
 * that window the shares come from the whole history, and without any demand they are equal.
 */
export function channelShares(byChannel: Map<string, Map<string, number>>, shareFrom: string) {
  const channels = [...byChannel.keys()].sort();
  const unitsOf = (weeks: Map<string, number>, from?: string) =>
    [...weeks].reduce((sum, [week, units]) => (from === undefined || week >= from ? sum + units : sum), 0);
  const recent = channels.map((c) => unitsOf(byChannel.get(c)!, shareFrom));
  const recentTotal = recent.reduce((a, b) => a + b, 0);
  const whole = channels.map((c) => unitsOf(byChannel.get(c)!));
  const wholeTotal = whole.reduce((a, b) => a + b, 0);
  const basis: ShareBasis = recentTotal > 0 ? 'RECENT' : wholeTotal > 0 ? 'HISTORY' : 'EQUAL';
  const shares = channels.map((channel, i) => ({
    channel,
    share: basis === 'RECENT' ? recent[i]! / recentTotal : basis === 'HISTORY' ? whole[i]! / wholeTotal : 1 / channels.length,
    recentUnits: recent[i]!,
  }));
  return { basis, shares };
}

/** 1 + lift, never below zero (a scenario's lifts, as seriesAdjustment multiplies them). */
const factorOf = (liftPct: number | null) => Math.max(0, 1 + (liftPct ?? 0));

type Override = { id: string; quantity: number };

/** Σ of channel points, every bound and interval (the total of a week some channel's override set). */
function sumPoints(points: ProjectionPoint[], base: ProjectionPoint): ProjectionPoint {
  const sum = (pick: (p: ProjectionPoint) => number) => roundForecast(points.reduce((s, p) => s + pick(p), 0));
  return {
    ...base,
    forecast: sum((p) => p.forecast),
    lower: sum((p) => p.lower),
    upper: sum((p) => p.upper),
    lower95: sum((p) => p.lower95),
    upper95: sum((p) => p.upper95),
    intervals: base.intervals.map((interval, i) => ({ level: interval.level, lower: sum((p) => p.intervals[i]!.lower), upper: sum((p) => p.intervals[i]!.upper) })),
    overridden: true,
  };
}

/**
 * One pair under the assumptions (forecast-assumptions.ts): events and the category and global adjustments
 * scale the total before it is split (they do not depend on the channel); each channel's part is then
 * multiplied by its share and its own channel adjustment, and its overrides win last. The total is what
 * its channels add up to, so channel adjustments and overrides show in it too.
 */
function projectPair(
  pair: PairHistory,
  fitted: SeriesForecast,
  shares: ChannelShare[],
  asked: number[],
  assumptions: AssumptionSet,
  scenario: ScenarioApplication | null,
  overrides: Map<string, Override>,
) {
  const { events } = seriesAssumptions(assumptions, scenario, { ...pair, channel: '' });
  const adjustments = shares.map((s) => (scenario ? seriesAssumptions(assumptions, scenario, { ...pair, channel: s.channel }).adjustment : null));
  const pairFactor = adjustments[0] ? factorOf(adjustments[0].categoryLiftPct) * factorOf(adjustments[0].globalLiftPct) : 1;
  const channelFactors = adjustments.map((a) => (a ? factorOf(a.channelLiftPct) : 1));
  const splitFactor = shares.reduce((sum, s, i) => sum + s.share * channelFactors[i]!, 0);
  const lifted = new Set<ForecastEvent>();
  const channelPoints: ProjectionPoint[][] = shares.map(() => []);
  const total = fitted.points.map((point: ForecastPoint): ProjectionPoint => {
    const lift = weekLift(events, point.periodStart);
    for (const e of lift.events) lifted.add(e);
    const common = { periodStart: point.periodStart, liftFactor: roundForecast(lift.factor), liftSource: lift.source };
    const parts = shares.map((s, i): ProjectionPoint => {
      const part = { ...common, ...answerPoint(point, asked, lift.factor * pairFactor * s.share * channelFactors[i]!) };
      const override = overrides.get(overrideKey(pair.productMasterId, pair.locationId, s.channel, point.periodStart));
      const adjustmentFactor = roundForecast(pairFactor * channelFactors[i]!);
      return override
        ? { ...overridePoint(part, override.quantity), adjustmentFactor, overridden: true, overrideId: override.id }
        : { ...part, adjustmentFactor, overridden: false, overrideId: null };
    });
    parts.forEach((p, i) => channelPoints[i]!.push(p));
    const whole: ProjectionPoint = {
      ...common,
      ...answerPoint(point, asked, lift.factor * pairFactor * splitFactor),
      adjustmentFactor: roundForecast(pairFactor * splitFactor),
      overridden: false,
      overrideId: null,
    };
    return parts.some((p) => p.overridden) ? sumPoints(parts, whole) : whole;
  });
  return {
    events: appliedEvents(events, lifted),
    total,
    channels: shares.map((s, i): ChannelPart => ({
      channel: s.channel,
      share: roundShare(s.share),
      adjustments: adjustments[i] ? { ...adjustments[i]!, factor: roundForecast(adjustments[i]!.factor) } : null,
      points: channelPoints[i]!,
    })),
  };
}

/**
 * The forecast of each product × location total (its channels summed) by the weekly engine, split per
 * week by each channel's recent share of the pair's demand. A channel's bounds are the total's bounds
 * times its share (the channels are taken to move together). Events, a scenario's adjustments and the
 * planners' overrides apply as in GET /api/forecast (projectPair says where each acts).
 */
export async function projectChannels(ctx: RequestContext, input: ChannelProjectionQuery, window?: ListWindow) {
  return asForecastRequest(ctx, async () => {
    await checkForecastIds(ctx, input);
    const scenario = input.scenarioId ? await readScenarioApplication(ctx, input.scenarioId) : null;
    const { page, limit, skip, take } = pageWindow(input.page, input.limit, FORECAST_PAGING, window);
    const { total, pairs } = await readPairs(ctx, input, { skip, take });

    const levels = levelsToFit(input.levels);
    const totals = pairs.map(totalSeries);
    const batch: WeeklySeries[] = totals.map((t, i) => ({ key: String(i), values: t.values, weekStarts: t.weekStarts }));
    const firstWeeks = totals.map((t) => weekAfter(t.weekStarts.at(-1)!, 1)).sort();
    const channelSeries = pairs.flatMap((p) => [...p.byChannel.keys()].map((channel) => ({ productMasterId: p.productMasterId, locationId: p.locationId, channel })));
    const forecastWeeks = firstWeeks.flatMap((w) => Array.from({ length: input.horizon }, (_, h) => weekAfter(w, h)));
    const [fitted, assumptions, overrides] = await Promise.all([
      batch.length ? fitWeeklySeries(ctx, new Map([[input.horizon, batch]]), levels) : Promise.resolve(new Map<string, SeriesForecast>()),
      firstWeeks.length
        ? readAssumptions(ctx, pairs, { from: firstWeeks[0]!, to: weekAfter(firstWeeks.at(-1)!, input.horizon) }, null)
        : Promise.resolve({ events: [], categories: new Map() } as AssumptionSet),
      readOverrides(ctx, channelSeries, forecastWeeks, scenario?.id ?? null),
    ]);

    const data = await mapInSlices(pairs, (pair, i): ChannelProjection => {
      const { weekStarts } = totals[i]!;
      const forecast = fitted.get(String(i))!;
      const shareWeeks = Math.min(input.shareWeeks, weekStarts.length);
      const shareFrom = weekStarts[weekStarts.length - shareWeeks]!;
      const { basis, shares } = channelShares(pair.byChannel, shareFrom);
      return {
        productMasterId: pair.productMasterId,
        locationId: pair.locationId,
        method: forecast.method,
        backtestError: forecast.backtestError === null ? null : roundForecast(forecast.backtestError),
        intervalSource: forecast.intervalSource,
        historyWeeks: weekStarts.length,
        lastHistoryWeek: weekStarts.at(-1)!,
        shareBasis: basis,
        shareFrom,
        shareWeeks,
        shares: shares.map((s) => ({ ...s, share: roundShare(s.share), recentUnits: roundForecast(s.recentUnits) })),
        ...projectPair(pair, forecast, shares, input.levels, assumptions, scenario, overrides),
      };
    });
    return {
      data,
      page,
      limit,
      total,
      totalPages: Math.ceil(total / limit),
      horizon: input.horizon,
      shareWeeks: input.shareWeeks,
      levels: input.levels,
      scenarioId: scenario?.id ?? null,
    };
  });
}
