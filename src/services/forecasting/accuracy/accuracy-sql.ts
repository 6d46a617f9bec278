import type { RequestContext } from '../../../context.js';
import type { AccuracyGroup } from '../../../contracts/forecasting/forecast-accuracy-query.js';
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
 */
function scalesCte(ctx: RequestContext, filter: AccuracyFilter, before: string | null) {
  return Prisma.sql`
    history AS (
      SELECT "productMasterId" AS p, "locationId" AS l, channel AS c, "weekStart" AS w, "actualUnits" AS y
      FROM demand_history
      WHERE ${filterSql(ctx, filter)} AND ${before ? Prisma.sql`"weekStart" < ${before}::date` : Prisma.sql`FALSE`}
    ),
    spans AS (SELECT p, l, c, MIN(w) AS first, MAX(w) AS last FROM history GROUP BY p, l, c),
    weeks AS (
      SELECT s.p, s.l, s.c, g.w::date AS w, COALESCE(h.y, 0) AS y
      FROM spans s
      CROSS JOIN LATERAL generate_series(s.first::timestamp, s.last::timestamp, interval '7 days') AS g(w)
      LEFT JOIN history h ON h.p = s.p AND h.l = s.l AND h.c = s.c AND h.w = g.w::date
    ),
    lagged AS (
      SELECT p, l, c, ABS(y - LAG(y, ${Prisma.raw(String(SEASON))}) OVER k) AS seasonal, ABS(y - LAG(y, 1) OVER k) AS naive
      FROM weeks WINDOW k AS (PARTITION BY p, l, c ORDER BY w)
    ),
    scales AS (
      SELECT p, l, c, COALESCE(NULLIF(AVG(seasonal), 0), NULLIF(AVG(naive), 0))::float8 AS scale
      FROM lagged GROUP BY p, l, c
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
  // The window counts the groups before LIMIT applies; only a page past the end needs a second statement.
  const rows = await ctx.prisma.$queryRaw<(SumsRow & { groups: number })[]>`${measured}
    SELECT g, COUNT(*)::int AS points, COUNT(*) FILTER (WHERE a = 0)::int AS zero_actual, COUNT(scale)::int AS scaled,
      SUM(a)::float8 AS actual, SUM(f)::float8 AS forecast, SUM(ABS(f - a))::float8 AS abs_error,
      SUM(ABS(f - a) / scale)::float8 AS scaled_error, SUM(ABS(f - a) / ABS(a)) FILTER (WHERE a <> 0)::float8 AS percent_error,
      (COUNT(*) OVER ())::int AS groups
    FROM measured GROUP BY g ORDER BY g COLLATE "C" LIMIT ${page.take} OFFSET ${page.skip}`;
  const total = rows.length
    ? rows[0]!.groups
    : page.skip
      ? ((await ctx.prisma.$queryRaw<{ groups: number }[]>`${measured} SELECT COUNT(DISTINCT g)::int AS groups FROM measured`)[0]?.groups ?? 0)
      : 0;
  const data: AccuracyRow[] = rows.map((r) =>
    metricsOf(
      {
        productMasterId: query.groupBy === 'product' ? r.g : null,
        locationId: query.groupBy === 'location' ? r.g : null,
        channel: query.groupBy === 'channel' ? r.g : null,
        method: null,
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
  return { data, total };
}
