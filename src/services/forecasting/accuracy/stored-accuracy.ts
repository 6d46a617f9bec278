import type { RequestContext } from '../../../context.js';
import type { AccuracyGroup } from '../../../contracts/forecasting/accuracy/forecast-accuracy-query.js';
import { Prisma } from '../../../generated/prisma/client.js';
import { notFound } from '../../../kernel/errors.js';
import { orgId } from '../../tenant.js';
import { getForecastRun } from '../runs/forecast-runs.js';
import { type AccuracyFilter, aggregateMeasured, scalesCte } from './accuracy-sql.js';

const GROUP_COLUMN: Record<AccuracyGroup, Prisma.Sql> = {
  product: Prisma.sql`s."productMasterId"`,
  location: Prisma.sql`s."locationId"`,
  channel: Prisma.sql`s.channel`,
  method: Prisma.sql`s.method`,
  total: Prisma.sql`''`,
};

const day = (date: Date) => date.toISOString().slice(0, 10);

/** The run STORED measures: the one named, or the scenario's latest COMPLETED run. */
async function measuredRun(ctx: RequestContext, ids: { runId?: string; scenarioId?: string }) {
  if (ids.runId) return getForecastRun(ctx, ids.runId);
  const run = await ctx.prisma.forecastRun.findFirst({
    where: { organizationId: orgId(ctx), scenarioId: ids.scenarioId!, status: 'COMPLETED' },
    orderBy: [{ completedAt: 'desc' }, { id: 'desc' }],
  });
  if (!run) throw notFound('Completed forecast run of the scenario');
  return run;
}

/**
 * Accuracy of a stored run's points against the actuals recorded for their weeks, one row per group, in
 * one statement as IMPORTED is: the run's series, their points unnested (week k of a series is its
 * firstWeek + k weeks), joined to the demand history by product, location, channel and week (weeks without a recorded actual are not measured). MASE is scaled
 * by the history before `from`, else before the run's own from, else before its first stored week.
 */
export async function storedAccuracy(
  ctx: RequestContext,
  query: AccuracyFilter & { runId?: string; scenarioId?: string; from: string | null; to: string | null; groupBy: AccuracyGroup },
  page: { skip: number; take: number },
) {
  const run = await measuredRun(ctx, query);
  let before = query.from ?? (run.fromWeek ? day(run.fromWeek) : null);
  if (!before) {
    const [first] = await ctx.prisma.$queryRaw<{ w: Date | null }[]>`SELECT MIN("firstWeek") AS w FROM forecast_run_series WHERE "runId" = ${run.id}`;
    before = first?.w ? day(first.w) : null;
  }
  const measured = Prisma.sql`
    WITH ${scalesCte(ctx, query, before)},
    measured AS (
      SELECT ${GROUP_COLUMN[query.groupBy]} AS g, d."actualUnits" AS a, p.f, sc.scale
      FROM forecast_run_series s
      CROSS JOIN LATERAL unnest(s.forecasts) WITH ORDINALITY AS p(f, k)
      JOIN demand_history d ON d."organizationId" = ${orgId(ctx)} AND d."productMasterId" = s."productMasterId" AND d."locationId" = s."locationId"
        AND d.channel = s.channel AND d."weekStart" = s."firstWeek" + 7 * (p.k::int - 1)
      LEFT JOIN scales sc ON sc.p = s."productMasterId" AND sc.l = s."locationId" AND sc.c = s.channel
      WHERE s."runId" = ${run.id}
        ${query.productMasterId ? Prisma.sql`AND s."productMasterId" = ${query.productMasterId}` : Prisma.empty}
        ${query.locationId ? Prisma.sql`AND s."locationId" = ${query.locationId}` : Prisma.empty}
        ${query.channel ? Prisma.sql`AND s.channel = ${query.channel}` : Prisma.empty}
        ${query.from ? Prisma.sql`AND s."firstWeek" + 7 * (p.k::int - 1) >= ${query.from}::date` : Prisma.empty}
        ${query.to ? Prisma.sql`AND s."firstWeek" + 7 * (p.k::int - 1) <= ${query.to}::date` : Prisma.empty}
    )`;
  return { ...(await aggregateMeasured(ctx, measured, query.groupBy, page)), runId: run.id };
}
