import type { DbContext } from '../../context.js';
import type { InTransaction } from '../../db/transactions.js';
import { Prisma, type AlertRule } from '../../generated/prisma/client.js';
import type { PublishedEvent } from '../events/publisher/published-event.js';
import type { AlertCandidate, AlertKey } from './alert-writes.js';

/** Runs of a scenario looked at, newest first, for one with forecast weeks that have actuals. */
const RUNS_LOOKED_AT = 3;

interface Measure {
  points: number;
  actualTotal: number;
  forecastTotal: number;
  absoluteError: number;
}

/**
 * FORECAST_ACCURACY_DEGRADED, on forecast_run.finished (COMPLETED): the WAPE (Σ|F − A| / ΣA, in percent) of the
 * scenario's newest completed run whose stored weeks have recorded actuals (the run that finished, else the ones
 * before it, at most three looked at), over the series the rule's scope covers; above the rule's threshold it
 * raises (one alert per rule and scenario), at or below it resolves. No measurable week: nothing changes. One
 * query per finished run and rule (runs finish rarely) plus one per run looked at.
 */
export async function forecastAccuracyDegraded(ctx: InTransaction<DbContext>, events: PublishedEvent[], rules: AlertRule[]): Promise<{ raise: AlertCandidate[]; clear: AlertKey[] }> {
  const raise: AlertCandidate[] = [];
  const clear: AlertKey[] = [];
  for (const event of events) {
    if (event.type !== 'forecast_run.finished' || event.payload.status !== 'COMPLETED') continue;
    const applying = rules.filter((rule) => rule.organizationId === event.organizationId);
    if (!applying.length) continue;
    const scenarioId = String(event.payload.scenarioId);
    const runs = await ctx.prisma.$queryRaw<{ id: string; name: string; completedAt: Date }[]>`
      SELECT r.id, sc.name, r."completedAt" FROM forecast_runs r JOIN forecast_scenarios sc ON sc.id = r."scenarioId"
      WHERE r."organizationId" = ${event.organizationId} AND r."scenarioId" = ${scenarioId} AND r.status = 'COMPLETED'
        AND r."completedAt" <= (SELECT "completedAt" FROM forecast_runs WHERE id = ${String(event.payload.runId)})
      ORDER BY r."completedAt" DESC, r.id DESC LIMIT ${RUNS_LOOKED_AT}`;
    for (const rule of applying) {
      const found = await measuredRun(ctx, event.organizationId, runs, rule);
      if (!found) continue;
      const { run, measure } = found;
      const dedupKey = scenarioId;
      const wape = Math.round((measure.absoluteError / measure.actualTotal) * 1000) / 10;
      if (wape <= rule.threshold!) {
        clear.push({ ruleId: rule.id, dedupKey });
        continue;
      }
      raise.push({
        organizationId: event.organizationId,
        ruleId: rule.id,
        kind: 'FORECAST_ACCURACY_DEGRADED',
        severity: rule.severity,
        dedupKey,
        productId: rule.productId,
        locationId: rule.locationId,
        subjectType: 'FORECAST_RUN',
        subjectId: run.id,
        message: `Forecast of scenario ${run.name} is off by ${wape}% (WAPE over ${measure.points} weeks with actuals; rule: ${rule.threshold}%)`.slice(0, 1000),
        details: { wapePercent: wape, thresholdPercent: rule.threshold, points: measure.points, actualTotal: measure.actualTotal, forecastTotal: measure.forecastTotal, scenarioId, runId: run.id },
      });
    }
  }
  return { raise, clear };
}

/** The first of the runs (newest first) with measurable weeks under the rule's scope, and its measure. */
async function measuredRun(ctx: InTransaction<DbContext>, organizationId: string, runs: { id: string; name: string }[], rule: AlertRule) {
  for (const run of runs) {
    const [measure] = await ctx.prisma.$queryRaw<Measure[]>`
      SELECT COUNT(*)::int AS points, COALESCE(SUM(d."actualUnits"), 0)::float8 AS "actualTotal", COALESCE(SUM(p.f), 0)::float8 AS "forecastTotal",
        COALESCE(SUM(ABS(p.f - d."actualUnits")), 0)::float8 AS "absoluteError"
      FROM forecast_run_series s
      CROSS JOIN LATERAL unnest(s.forecasts) WITH ORDINALITY AS p(f, k)
      JOIN demand_history d ON d."organizationId" = ${organizationId} AND d."productMasterId" = s."productMasterId" AND d."locationId" = s."locationId"
        AND d.channel = s.channel AND d."weekStart" = s."firstWeek" + 7 * (p.k::int - 1)
      ${rule.categoryId ? Prisma.sql`JOIN product_masters pm ON pm.id = s."productMasterId" AND pm."categoryId" = ${rule.categoryId}` : Prisma.empty}
      WHERE s."runId" = ${run.id}
        ${rule.productId ? Prisma.sql`AND s."productMasterId" = ${rule.productId}` : Prisma.empty}
        ${rule.locationId ? Prisma.sql`AND s."locationId" = ${rule.locationId}` : Prisma.empty}`;
    if (measure && measure.points > 0 && measure.actualTotal > 0) return { run, measure };
  }
  return null;
}
