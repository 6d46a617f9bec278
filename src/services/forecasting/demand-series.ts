import type { RequestContext } from '../../context.js';
import { Prisma } from '../../generated/prisma/client.js';
import { isoWeekStart } from '../import/appliers/demand-history.js';
import { isoDay, weekAfter } from './engine/forecast-series.js';
import { orgId } from '../tenant.js';

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

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

const day = (date: Date) => isoDay(date.getTime());

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
  return { total: keys.length, series: seriesOfRows(onPage, rows) };
}

/** A product × location × channel of the demand history. */
export interface SeriesKey {
  productMasterId: string;
  locationId: string;
  channel: string;
}

interface HistoryRow extends SeriesKey {
  weekStart: Date;
  actualUnits: number;
}

const keyOf = (k: SeriesKey) => `${k.productMasterId}\u0000${k.locationId}\u0000${k.channel}`;

/** The series of `keys` (in their order) from their history rows, every week from the first record to the last; a key without rows is left out. */
function seriesOfRows(keys: SeriesKey[], rows: HistoryRow[]): DemandSeries[] {
  const byKey = new Map<string, Map<string, number>>();
  for (const row of rows) {
    let weeks = byKey.get(keyOf(row));
    if (!weeks) byKey.set(keyOf(row), (weeks = new Map()));
    weeks.set(day(row.weekStart), row.actualUnits);
  }
  return keys.flatMap((k): DemandSeries[] => {
    const weeks = byKey.get(keyOf(k));
    // Deleted between the two reads.
    if (!weeks) return [];
    const recorded = [...weeks.keys()].sort();
    const first = recorded[0]!;
    const count = weeksBetween(first, recorded.at(-1)!) + 1;
    const weekStarts = Array.from({ length: count }, (_, i) => weekAfter(first, i));
    return [{ productMasterId: k.productMasterId, locationId: k.locationId, channel: k.channel, weekStarts, values: weekStarts.map((w) => weeks.get(w) ?? 0) }];
  });
}

/** Every series matching the filter, ordered as readDemandSeries pages them, with the Monday of its last history week (before filter.before). */
export async function listSeriesKeys(ctx: RequestContext, filter: SeriesFilter): Promise<(SeriesKey & { lastWeek: string })[]> {
  const keys = await ctx.prisma.demandHistory.groupBy({
    by: ['productMasterId', 'locationId', 'channel'],
    where: whereOf(ctx, filter),
    _max: { weekStart: true },
    orderBy: [{ productMasterId: 'asc' }, { locationId: 'asc' }, { channel: 'asc' }],
  });
  return keys.map((k) => ({ productMasterId: k.productMasterId, locationId: k.locationId, channel: k.channel, lastWeek: day(k._max.weekStart!) }));
}

/**
 * The history of these series (before `before`, a Monday, when given), as readDemandSeries answers them:
 * one statement, the keys joined as arrays (unnest), whatever their number. Each series comes back as
 * one row of two arrays (its weeks as days since 1970 and its units, in week order) rather than a row
 * per week: a run reads a million weeks, and a million row objects kept the request thread busy and
 * its garbage collector long enough to be seen in other requests' latency.
 */
export async function readSeriesOfKeys(ctx: RequestContext, keys: SeriesKey[], before: string | undefined): Promise<DemandSeries[]> {
  if (!keys.length) return [];
  const rows = await ctx.prisma.$queryRaw<(SeriesKey & { days: number[]; units: number[] })[]>`
    SELECT k.p AS "productMasterId", k.l AS "locationId", k.c AS channel,
           array_agg(d."weekStart" - DATE '1970-01-01' ORDER BY d."weekStart") AS days,
           array_agg(d."actualUnits" ORDER BY d."weekStart") AS units
    FROM unnest(${keys.map((k) => k.productMasterId)}::text[], ${keys.map((k) => k.locationId)}::text[], ${keys.map((k) => k.channel)}::text[]) AS k(p, l, c)
    JOIN demand_history d ON d."organizationId" = ${orgId(ctx)} AND d."productMasterId" = k.p AND d."locationId" = k.l AND d.channel = k.c
    ${before ? Prisma.sql`WHERE d."weekStart" < ${before}::date` : Prisma.empty}
    GROUP BY k.p, k.l, k.c`;
  const byKey = new Map(rows.map((r) => [keyOf(r), r]));
  return keys.flatMap((k): DemandSeries[] => {
    const row = byKey.get(keyOf(k));
    // Deleted since the keys were listed.
    if (!row) return [];
    const first = row.days[0]!;
    const count = Math.round((row.days.at(-1)! - first) / 7) + 1;
    const values = new Array<number>(count).fill(0);
    // As seriesOfRows: a record off the series' weekly grid (none: the import keys weeks by Monday) is not counted.
    row.days.forEach((d, i) => {
      if ((d - first) % 7 === 0) values[(d - first) / 7] = row.units[i]!;
    });
    const firstWeek = isoDay(first * DAY_MS);
    return [{ productMasterId: k.productMasterId, locationId: k.locationId, channel: k.channel, weekStarts: Array.from({ length: count }, (_, i) => weekAfter(firstWeek, i)), values }];
  });
}
