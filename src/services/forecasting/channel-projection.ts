import type { RequestContext } from '../../context.js';
import { channelProjectionQuery, type ChannelProjectionQueryInput } from '../../contracts/forecasting/channel-projection-query.js';
import { FORECAST_PAGING } from '../../contracts/forecasting/forecast-query.js';
import { answerPoint, levelsToFit, roundForecast } from './answer-points.js';
import { weekAfter } from './engine/forecast-series.js';
import type { ForecastPoint, SeriesForecast, WeeklySeries } from './engine/types.js';
import { checkForecastIds, fitWeeklySeries } from './fit-weekly-series.js';
import { weeksBetween } from './demand-series.js';
import { orgId, pageArgs, parseInput } from '../tenant.js';

const roundShare = (value: number) => Math.round(value * 1_000_000) / 1_000_000;
const day = (date: Date) => date.toISOString().slice(0, 10);

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
  /** The forecast of the product × location total (every channel summed). */
  total: ProjectionPoint[];
  channels: { channel: string; share: number; points: ProjectionPoint[] }[];
}

interface PairHistory {
  productMasterId: string;
  locationId: string;
  /** Units per channel per week (yyyy-mm-dd Monday). */
  byChannel: Map<string, Map<string, number>>;
}

/** One page of the product × location pairs of the demand history (by product, then location id), with every channel's history. */
async function readPairs(ctx: RequestContext, filter: { productMasterId?: string; locationId?: string }, page: { skip: number; take: number }) {
  const where = {
    organizationId: orgId(ctx),
    ...(filter.productMasterId ? { productMasterId: filter.productMasterId } : {}),
    ...(filter.locationId ? { locationId: filter.locationId } : {}),
  };
  const keys = await ctx.prisma.demandHistory.groupBy({
    by: ['productMasterId', 'locationId'],
    where,
    orderBy: [{ productMasterId: 'asc' }, { locationId: 'asc' }],
  });
  const onPage = keys.slice(page.skip, page.skip + page.take);
  if (!onPage.length) return { total: keys.length, pairs: [] as PairHistory[] };
  const rows = await ctx.prisma.demandHistory.findMany({
    where: { ...where, OR: onPage.map((k) => ({ productMasterId: k.productMasterId, locationId: k.locationId })) },
    select: { productMasterId: true, locationId: true, channel: true, weekStart: true, actualUnits: true },
  });
  const pairs = new Map(onPage.map((k) => [`${k.productMasterId}\u0000${k.locationId}`, { ...k, byChannel: new Map<string, Map<string, number>>() }]));
  for (const row of rows) {
    const pair = pairs.get(`${row.productMasterId}\u0000${row.locationId}`);
    if (!pair) continue;
    let weeks = pair.byChannel.get(row.channel);
    if (!weeks) pair.byChannel.set(row.channel, (weeks = new Map()));
    weeks.set(day(row.weekStart), row.actualUnits);
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

function scaled(point: ForecastPoint, factor: number, asked: number[]): ProjectionPoint {
  return { periodStart: point.periodStart, ...answerPoint(point, asked, factor) };
}

/**
 * The forecast of each product × location total (its channels summed) by the weekly engine, split per
 * week by each channel's recent share of the pair's demand. A channel's bounds are the total's bounds
 * times its share (the channels are taken to move together).
 */
export async function projectChannels(ctx: RequestContext, raw: ChannelProjectionQueryInput) {
  const input = parseInput(channelProjectionQuery, raw);
  await checkForecastIds(ctx, input);
  const { page, limit, skip } = pageArgs(input.page, input.limit, FORECAST_PAGING);
  const { total, pairs } = await readPairs(ctx, input, { skip, take: limit });

  const levels = levelsToFit(input.levels);
  const totals = pairs.map(totalSeries);
  const batch: WeeklySeries[] = totals.map((t, i) => ({ key: String(i), values: t.values, weekStarts: t.weekStarts }));
  const fitted = batch.length ? await fitWeeklySeries(ctx, new Map([[input.horizon, batch]]), levels) : new Map<string, SeriesForecast>();

  const data = pairs.map((pair, i): ChannelProjection => {
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
      total: forecast.points.map((p) => scaled(p, 1, input.levels)),
      channels: shares.map((s) => ({ channel: s.channel, share: roundShare(s.share), points: forecast.points.map((p) => scaled(p, s.share, input.levels)) })),
    };
  });
  return { data, page, limit, total, totalPages: Math.ceil(total / limit), horizon: input.horizon, shareWeeks: input.shareWeeks, levels: input.levels };
}
