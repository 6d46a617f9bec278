import type { OperatorContext } from '../../context.js';
import { underRetentionLock } from './retention-lock.js';

/** Resolved alerts deleted per statement. */
export const ALERT_PRUNE_BATCH = 5_000;

/**
 * Deletes up to ALERT_PRUNE_BATCH RESOLVED alerts resolved more than `days` ago. OPEN and ACKNOWLEDGED alerts
 * are never touched: a resolved alert does not open again (a returning condition raises a new one). Null:
 * another instance is pruning.
 */
export function pruneResolvedAlerts(ctx: OperatorContext, days: number): Promise<number | null> {
  return underRetentionLock(ctx, (tx) => tx.prisma.$executeRaw`
    DELETE FROM alerts
    WHERE id = ANY(ARRAY(
        SELECT id FROM alerts
        WHERE status = 'RESOLVED' AND "resolvedAt" < (now() AT TIME ZONE 'UTC') - ${days}::float8 * interval '1 day'
        LIMIT ${ALERT_PRUNE_BATCH}))
      AND status = 'RESOLVED'`);
}
