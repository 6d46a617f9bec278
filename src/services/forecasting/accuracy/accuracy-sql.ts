import type { RequestContext } from '../../../context.js';
import type { AccuracyGroup } from '../../../contracts/forecasting/accuracy/forecast-accuracy-query.js';
import { Prisma } from '../../../generated/prisma/client.js';
import { SEASON } from '../engine/naive-methods.js';
import { orgId } from '../../tenant.js';
import { type AccuracyRow, metricsOf } from './accuracy-metrics.js';

export interface AccuracyFilter {
  productMasterId?: string;
  locationId?: string;
  channel?: string;
}

function filterSql(ctx: RequestContext, filter: AccuracyFilter) {
  return Prisma.sql`"organizationId" = ${orgId(ctx)}
    ${filter.productMasterId ? Prisma.sql`AND "productMasterId" = ${filter.productMasterId}` : Prisma.empty}
    ${filter.locationId ? Prisma.sql`AND "locationId" = ${filter.locationId}` : Prisma.empty}
    ${filter.channel ? Prisma.sql`AND channel = ${filter.channel}` : Prisma.empty}`;
}

/**
 * CTE `scales` (p, l, c, scale): each series' MASE denominator from its history before `before`, as the
 * engine scales its backtest (engine/backtest.ts errorScale): the weeks from the first to the last record,
 * a week without a record counting 0; the in-sample seasonal-naive MAE (lag 52) when the history is longer
 * than a season and that MAE is not 0, else the naive-1 MAE when not 0, else null. No `before`: no history.
 *
 * The gaps are not filled: each recorded week t adds |y(t) − y(t − lag)| (an unrecorded t − lag being 0)
 * and, when t + lag is inside the history but unrecorded, |y(t)| for that week. Every window has the same
 * partition and order, which the unique key's index already gives: one index scan, no sort, no self-join.
 */
export function scalesCte(ctx: RequestContext, filter: AccuracyFilter, before: string | null) {
  const season = Prisma.raw(String(SEASON * 7));
  const frame = (days: Prisma.Sql, side: 'PRECEDING' | 'FOLLOWING') => Prisma.sql`k RANGE BETWEEN '${days} days' ${Prisma.raw(side)} AND '${days} days' ${Prisma.raw(side)}`;
  const week = Prisma.raw('7');
  const terms = (days: Prisma.Sql, back: string, ahead: string) =>
    Prisma.sql`SUM(CASE WHEN w >= first + ${days} THEN ABS(y - COALESCE(${Prisma.raw(back)}, 0)) ELSE 0 END
      + CASE WHEN w + ${days} <= last AND ${Prisma.raw(ahead)} = 0 THEN ABS(y) ELSE 0 END)`;
  return Prisma.sql`
    history AS (
      SELECT "productMasterId" AS p, "locationId" AS l, channel AS c, "weekStart" AS w, "actualUnits" AS y,
        MIN("weekStart") OVER (k ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS first,
        MAX("weekStart") OVER (k ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS last,
        SUM("actualUnits") OVER (${frame(season, 'PRECEDING')}) AS back_season,
        COUNT(*) OVER (${frame(season, 'FOLLOWING')}) AS ahead_season,
        SUM("actualUnits") OVER (${frame(week, 'PRECEDING')}) AS back_week,
        COUNT(*) OVER (${frame(week, 'FOLLOWING')}) AS ahead_week
      FROM demand_history
      WHERE ${filterSql(ctx, filter)} AND ${before ? Prisma.sql`"weekStart" < ${before}::date` : Prisma.sql`FALSE`}
      WINDOW k AS (PARTITION BY "productMasterId", "locationId", channel ORDER BY "weekStart")
    ),
    sums AS (
      SELECT p, l, c, (MAX(last) - MIN(first)) / 7 + 1 AS n, ${terms(season, 'back_season', 'ahead_season')} AS seasonal,
        ${terms(week, 'back_week', 'ahead_week')} AS naive
      FROM history GROUP BY p, l, c
    ),
    scales AS (
      SELECT p, l, c,
        COALESCE(NULLIF(CASE WHEN n > ${Prisma.raw(String(SEASON))} THEN seasonal / (n - ${Prisma.raw(String(SEASON))}) END, 0), NULLIF(CASE WHEN n > 1 THEN naive / (n - 1) END, 0))::float8 AS scale
      FROM sums
    )`;
}

/** Each series' MASE denominator (see scalesCte); series without one are absent. */
export async function seriesScales(ctx: RequestContext, filter: AccuracyFilter, before: string) {
  const rows = await ctx.prisma.$queryRaw<{ p: string; l: string; c: string; scale: number }[]>`
    WITH ${scalesCte(ctx, filter, before)}
    SELECT p, l, c, scale FROM scales WHERE scale IS NOT NULL`;
  return new Map(rows.map((r) => [seriesKey(r.p, r.l, r.c), r.scale]));
}

export const seriesKey = (productMasterId: string, locationId: string, channel: string) => `${productMasterId}\u0000${locationId}\u0000${channel}`;

const GROUP_COLUMN: Record<Exclude<AccuracyGroup, 'method'>, Prisma.Sql> = {
  product: Prisma.sql`d."productMasterId"`,
  location: Prisma.sql`d."locationId"`,
  channel: Prisma.sql`d.channel`,
  total: Prisma.sql`''`,
};

interface SumsRow {
  g: string;
  points: number;
  zero_actual: number;
  scaled: number;
  actual: number;
  forecast: number;
  abs_error: number;
  scaled_error: number | null;
  percent_error: number | null;
}

/**
 * Accuracy of the imported forecastUnits against actualUnits over the recorded weeks from `from` to
 * `to`, one row per group, aggregated in one statement (one more counts the groups of a page past the end).
 */
export async function importedAccuracy(
  ctx: RequestContext,
  query: AccuracyFilter & { from: string | null; to: string | null; groupBy: Exclude<AccuracyGroup, 'method'> },
  page: { skip: number; take: number },
) {
  const group = GROUP_COLUMN[query.groupBy];
  const measured = Prisma.sql`
    WITH ${scalesCte(ctx, query, query.from)},
    measured AS (
      SELECT ${group} AS g, d."actualUnits" AS a, d."forecastUnits" AS f, s.scale
      FROM demand_history d
      LEFT JOIN scales s ON s.p = d."productMasterId" AND s.l = d."locationId" AND s.c = d.channel
      WHERE ${filterSql(ctx, query)}
        ${query.from ? Prisma.sql`AND d."weekStart" >= ${query.from}::date` : Prisma.empty}
        ${query.to ? Prisma.sql`AND d."weekStart" <= ${query.to}::date` : Prisma.empty}
    )`;
  return aggregateMeasured(ctx, measured, query.groupBy, page);
}

/**
 * One accuracy row per group `g` of a statement's `measured` CTE (g, a actual, f forecast, scale), in one
 * statement; one more counts the groups of a page past the end.
 */
export async function aggregateMeasured(ctx: RequestContext, measured: Prisma.Sql, groupBy: AccuracyGroup, page: { skip: number; take: number }) {
  // The window counts the groups before LIMIT applies; only a page past the end (or of no rows) needs a second statement.
  const rows = await ctx.prisma.$queryRaw<(SumsRow & { groups: number })[]>`${measured}
    SELECT g, COUNT(*)::int AS points, COUNT(*) FILTER (WHERE a = 0)::int AS zero_actual, COUNT(scale)::int AS scaled,
      SUM(a)::float8 AS actual, SUM(f)::float8 AS forecast, SUM(ABS(f - a))::float8 AS abs_error,
      SUM(ABS(f - a) / scale)::float8 AS scaled_error, SUM(ABS(f - a) / ABS(a)) FILTER (WHERE a <> 0)::float8 AS percent_error,
      (COUNT(*) OVER ())::int AS groups
    FROM measured GROUP BY g ORDER BY g COLLATE "C" LIMIT ${page.take} OFFSET ${page.skip}`;
  const total = rows.length
    ? rows[0]!.groups
    : page.skip || !page.take
      ? ((await ctx.prisma.$queryRaw<{ groups: number }[]>`${measured} SELECT COUNT(DISTINCT g)::int AS groups FROM measured`)[0]?.groups ?? 0)
      : 0;
  const data: AccuracyRow[] = rows.map((r) =>
    metricsOf(
      {
        productMasterId: groupBy === 'product' ? r.g : null,
        locationId: groupBy === 'location' ? r.g : null,
        channel: groupBy === 'channel' ? r.g : null,
        method: groupBy === 'method' ? r.g : null,
      },
      {
        points: r.points,
        zeroActualPoints: r.zero_actual,
        scaledPoints: r.scaled,
        actualTotal: r.actual,
        forecastTotal: r.forecast,
        absErrorTotal: r.abs_error,
        scaledErrorTotal: r.scaled_error ?? 0,
        percentErrorTotal: r.percent_error ?? 0,
      },
    ),
  );
  return { data, total, runId: undefined as string | undefined };
}
