import type { RequestContext } from '../../../context.js';
import { Prisma } from '../../../generated/prisma/client.js';
import { isoWeekStart } from '../../../kernel/iso-weeks.js';
import { isoDay, weekAfter } from '../engine/forecast-series.js';
import { orgId } from '../../tenant.js';

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
 * Weeks of history a forecast fits at most: the most recent ones of each series (before `before`). Older
 * weeks are never read, so two records centuries apart make a series of this many weeks, not of every week
 * between them. Five years: five seasons for the seasonal methods (they look back 52 weeks, the backtest 8
 * origins) and 60 months for the long-term trend. The engine's cost grows faster than the length: a series
 * of 520 weeks forecast 104 weeks ahead took 1.8 s to fit, one of 260 weeks 0.6 s.
 */
export const MAX_HISTORY_WEEKS = 260;

/**
 * One page of the series matching the filter (ordered by product, location, channel) with their
 * history, and how many series match in all. Two queries whatever the page size: the series keys,
 * then the history of the page's series (readSeriesOfKeys: the last MAX_HISTORY_WEEKS weeks of each);
 * the series are paged before any history is read. With noHistoryAbove, more matching series than that
 * give the total and no series.
 */
export async function readDemandSeries(ctx: RequestContext, filter: SeriesFilter, page: { skip: number; take: number; noHistoryAbove?: number }) {
  const keys = await ctx.prisma.demandHistory.groupBy({
    by: ['productMasterId', 'locationId', 'channel'],
    where: whereOf(ctx, filter),
    orderBy: [{ productMasterId: 'asc' }, { locationId: 'asc' }, { channel: 'asc' }],
  });
  const onPage = keys.slice(page.skip, page.skip + page.take);
  // A caller that refuses more than so many series reads no history for them.
  if (!onPage.length || (page.noHistoryAbove !== undefined && keys.length > page.noHistoryAbove)) return { total: keys.length, series: [] as DemandSeries[] };
  return { total: keys.length, series: await readSeriesOfKeys(ctx, onPage, filter.before) };
}

/** A product × location × channel of the demand history. */
export interface SeriesKey {
  productMasterId: string;
  locationId: string;
  channel: string;
}

const keyOf = (k: SeriesKey) => `${k.productMasterId}\u0000${k.locationId}\u0000${k.channel}`;

/** The series from its recorded weeks (ascending, at most MAX_HISTORY_WEEKS apart) and units: every week from the first to the last, a missing one 0. */
export function fillWeeks(key: SeriesKey, weeks: string[], units: number[]): DemandSeries {
  const byWeek = new Map(weeks.map((w, i) => [w, units[i]!]));
  const first = weeks[0]!;
  const count = weeksBetween(first, weeks.at(-1)!) + 1;
  const weekStarts = Array.from({ length: count }, (_, i) => weekAfter(first, i));
  return { productMasterId: key.productMasterId, locationId: key.locationId, channel: key.channel, weekStarts, values: weekStarts.map((w) => byWeek.get(w) ?? 0) };
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
 * the last MAX_HISTORY_WEEKS weeks of each (from its last record back), in one statement: the keys joined
 * as arrays (unnest), each series' weeks and units aggregated into arrays in SQL, so a batch of series
 * comes back as a row per series, not a row per week, and weeks outside the window are never read.
 */
export async function readSeriesOfKeys(ctx: RequestContext, keys: SeriesKey[], before: string | undefined): Promise<DemandSeries[]> {
  if (!keys.length) return [];
  const beforeSql = before ? Prisma.sql`AND d."weekStart" < ${before}::date` : Prisma.empty;
  // LATERAL: index range scans of the unique key per series (its last week, then its window). A plain join
  // of the unnested keys is planned as a scan of the organization's whole history and a sort (370 ms
  // instead of 70 ms for 250 series of an organization of 1,000, and growing with the organization).
  const rows = await ctx.prisma.$queryRaw<(SeriesKey & { weeks: string[] | null; units: number[] | null })[]>`
    SELECT k.p AS "productMasterId", k.l AS "locationId", k.c AS channel, h.weeks, h.units
    FROM unnest(${keys.map((k) => k.productMasterId)}::text[], ${keys.map((k) => k.locationId)}::text[], ${keys.map((k) => k.channel)}::text[]) AS k(p, l, c)
    CROSS JOIN LATERAL (
      SELECT MAX(d."weekStart") AS last FROM "demand_history" d
      WHERE d."organizationId" = ${orgId(ctx)} AND d."productMasterId" = k.p AND d."locationId" = k.l AND d.channel = k.c ${beforeSql}
    ) m
    CROSS JOIN LATERAL (
      SELECT array_agg(to_char(d."weekStart", 'YYYY-MM-DD') ORDER BY d."weekStart") AS weeks, array_agg(d."actualUnits" ORDER BY d."weekStart") AS units
      FROM "demand_history" d
      WHERE d."organizationId" = ${orgId(ctx)} AND d."productMasterId" = k.p AND d."locationId" = k.l AND d.channel = k.c ${beforeSql}
        AND d."weekStart" > m.last - ${MAX_HISTORY_WEEKS * 7}::int
    ) h`;
  const byKey = new Map(rows.map((r) => [keyOf(r), r]));
  return keys.flatMap((k): DemandSeries[] => {
    const row = byKey.get(keyOf(k));
    // No history (before `before`) any more: deleted since the keys were read.
    if (!row?.weeks?.length) return [];
    return [fillWeeks(k, row.weeks, row.units!)];
  });
}
