import type { RequestContext } from '../../context.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { isoWeekStart } from '../import/appliers/demand-history.js';
import { weekAfter } from './engine/forecast-series.js';
import { orgId } from '../tenant.js';

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

export interface SeriesFilter {
  productMasterId?: string;
  locationId?: string;
  channel?: string;
  /** Only history before this week (the first forecast week), yyyy-mm-dd of its Monday. */
  before?: string;
}

/** One product × location × channel of the demand history, as the engine reads it. */
export interface DemandSeries {
  productMasterId: string;
  locationId: string;
  channel: string;
  /** Mondays from the first history week to the last, every week (yyyy-mm-dd). */
  weekStarts: string[];
  /** Actual units per week; a week without a record counts as 0. */
  values: number[];
}

const day = (date: Date) => date.toISOString().slice(0, 10);

/** Monday (yyyy-mm-dd) of the ISO week holding a calendar day. */
export const mondayOf = (date: string) => day(isoWeekStart(new Date(`${date}T00:00:00Z`)));

/** Whole weeks from one Monday to another. */
export const weeksBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / WEEK_MS);

function whereOf(ctx: RequestContext, filter: SeriesFilter): Prisma.DemandHistoryWhereInput {
  return {
    organizationId: orgId(ctx),
    ...(filter.productMasterId ? { productMasterId: filter.productMasterId } : {}),
    ...(filter.locationId ? { locationId: filter.locationId } : {}),
    ...(filter.channel ? { channel: filter.channel } : {}),
    ...(filter.before ? { weekStart: { lt: new Date(`${filter.before}T00:00:00Z`) } } : {}),
  };
}

/**
 * One page of the series matching the filter (ordered by product, location, channel) with their
 * history, and how many series match in all. Two queries whatever the page size: the series keys,
 * then the history of the page's series; the series are paged before any history is read. With
 * noHistoryAbove, more matching series than that give the total and no series.
 */
export async function readDemandSeries(ctx: RequestContext, filter: SeriesFilter, page: { skip: number; take: number; noHistoryAbove?: number }) {
  const where = whereOf(ctx, filter);
  const keys = await ctx.prisma.demandHistory.groupBy({
    by: ['productMasterId', 'locationId', 'channel'],
    where,
    orderBy: [{ productMasterId: 'asc' }, { locationId: 'asc' }, { channel: 'asc' }],
  });
  const onPage = keys.slice(page.skip, page.skip + page.take);
  // A caller that refuses more than so many series reads no history for them.
  if (!onPage.length || (page.noHistoryAbove !== undefined && keys.length > page.noHistoryAbove)) return { total: keys.length, series: [] as DemandSeries[] };
  const rows = await ctx.prisma.demandHistory.findMany({
    where: { ...where, OR: onPage.map((k) => ({ productMasterId: k.productMasterId, locationId: k.locationId, channel: k.channel })) },
    select: { productMasterId: true, locationId: true, channel: true, weekStart: true, actualUnits: true },
    orderBy: { weekStart: 'asc' },
  });
  const byKey = new Map<string, Map<string, number>>();
  const keyOf = (k: { productMasterId: string; locationId: string; channel: string }) => `${k.productMasterId}\u0000${k.locationId}\u0000${k.channel}`;
  for (const row of rows) {
    let weeks = byKey.get(keyOf(row));
    if (!weeks) byKey.set(keyOf(row), (weeks = new Map()));
    weeks.set(day(row.weekStart), row.actualUnits);
  }
  const series = onPage.flatMap((k): DemandSeries[] => {
    const weeks = byKey.get(keyOf(k));
    // Deleted between the two reads.
    if (!weeks) return [];
    const recorded = [...weeks.keys()].sort();
    const first = recorded[0]!;
    const count = weeksBetween(first, recorded.at(-1)!) + 1;
    const weekStarts = Array.from({ length: count }, (_, i) => weekAfter(first, i));
    return [{ productMasterId: k.productMasterId, locationId: k.locationId, channel: k.channel, weekStarts, values: weekStarts.map((w) => weeks.get(w) ?? 0) }];
  });
  return { total: keys.length, series };
}
