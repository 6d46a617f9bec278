// The demand history's part of the demand rate (HISTORY in demand-rate.ts), kept ready: per organization,
// product and location, the units of the DEMAND_WEEKS complete weeks before the organization's marked week.
// Triggers on demand_history recount the keys every write touches (migration 20261127233327); when a week
// begins, a loop refreshes each organization's sums for it. Until then readers sum the history themselves, so
// an answer never depends on whether the refresh has run (docs/planning.md, "Demand rate").
import { type App, operatorContext, type OperatorContext } from '../../../context.js';
import { inTransaction } from '../../../db/transactions.js';
import { Prisma } from '../../../generated/prisma/client.js';
import { startWorkLoops, type WorkLoops } from '../../work-loops.js';
import { DEMAND_WEEKS, THIS_WEEK } from './demand-rate.js';

/** The same key as the triggers' lock (hashtextextended of this text): one writer of an organization's sums at a time. */
const lockKey = (organizationId: string) => Prisma.sql`hashtextextended(${`demand_history_rates:${organizationId}`}, 0)`;

/** The next organization with demand history whose sums are not for this week; null: none. */
export async function nextOrganizationToRefresh(ctx: OperatorContext): Promise<string | null> {
  const [row] = await ctx.prisma.$queryRaw<{ id: string }[]>`
    SELECT o.id FROM organizations o
    WHERE NOT EXISTS (SELECT 1 FROM demand_history_rate_weeks w WHERE w."organizationId" = o.id AND w."weekStart" = ${THIS_WEEK})
      AND EXISTS (SELECT 1 FROM demand_history h WHERE h."organizationId" = o.id)
    ORDER BY o.id LIMIT 1`;
  return row?.id ?? null;
}

/**
 * Sums the organization's history again for this week and marks it. false when another instance holds the
 * organization's lock (it is refreshing, or a write of its history is in flight): try again later.
 */
export async function refreshDemandHistoryRates(ctx: OperatorContext, organizationId: string): Promise<boolean> {
  return inTransaction(
    ctx,
    async (tx) => {
      const [lock] = await tx.prisma.$queryRaw<{ locked: boolean }[]>`SELECT pg_try_advisory_xact_lock(${lockKey(organizationId)}) AS locked`;
      if (!lock?.locked) return false;
      await tx.prisma.$executeRaw`DELETE FROM demand_history_rates WHERE "organizationId" = ${organizationId}`;
      await tx.prisma.$executeRaw`
        INSERT INTO demand_history_rates ("organizationId", "locationId", "productMasterId", units)
        SELECT h."organizationId", h."locationId", h."productMasterId", SUM(h."actualUnits")
        FROM demand_history h
        WHERE h."organizationId" = ${organizationId}
          AND h."weekStart" >= ${THIS_WEEK} - ${DEMAND_WEEKS * 7}::int AND h."weekStart" < ${THIS_WEEK}
        GROUP BY 1, 2, 3 HAVING SUM(h."actualUnits") > 0`;
      await tx.prisma.$executeRaw`
        INSERT INTO demand_history_rate_weeks ("organizationId", "weekStart", "refreshedAt") VALUES (${organizationId}, ${THIS_WEEK}, now())
        ON CONFLICT ("organizationId") DO UPDATE SET "weekStart" = EXCLUDED."weekStart", "refreshedAt" = EXCLUDED."refreshedAt"`;
      return true;
    },
    { maxWait: 10_000, timeout: 120_000 },
  );
}

/** A loop (count 0: none) that refreshes, one organization per step, the sums not yet made for this week. */
export function startDemandHistoryRateLoop(app: App, options: { count: number; pollMs: number; log?: (m: string) => void }): WorkLoops {
  const ctx = operatorContext(app.prisma, 'demand-history-rates');
  return startWorkLoops({
    name: 'demand history rates',
    count: options.count,
    pollMs: options.pollMs,
    pauseMs: 50,
    step: async () => {
      const organizationId = await nextOrganizationToRefresh(ctx);
      return organizationId !== null && (await refreshDemandHistoryRates(ctx, organizationId));
    },
    log: options.log ?? ((m: string) => console.error(m)),
  });
}
