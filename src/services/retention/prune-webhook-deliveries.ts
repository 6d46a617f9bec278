import type { OperatorContext } from '../../context.js';
import { underRetentionLock } from './retention-lock.js';

/** Deliveries deleted per statement: each takes its attempts with it (up to WEBHOOK_MAX_ATTEMPTS per replay). */
export const DELIVERY_PRUNE_BATCH = 1_000;

/**
 * Deletes up to DELIVERY_PRUNE_BATCH finished (DELIVERED or FAILED) deliveries whose last attempt is older than
 * `days`, with their attempts (cascade). The state is checked again on the row being deleted, so a delivery
 * replayed meanwhile (PENDING again) is kept. Null: another instance is pruning.
 */
export function pruneFinishedWebhookDeliveries(ctx: OperatorContext, days: number): Promise<number | null> {
  return underRetentionLock(ctx, (tx) => tx.prisma.$executeRaw`
    DELETE FROM webhook_deliveries
    WHERE id = ANY(ARRAY(
        SELECT id FROM webhook_deliveries
        WHERE status IN ('DELIVERED', 'FAILED') AND "lastAttemptAt" < (now() AT TIME ZONE 'UTC') - ${days}::float8 * interval '1 day'
        LIMIT ${DELIVERY_PRUNE_BATCH}))
      AND status IN ('DELIVERED', 'FAILED') AND "lastAttemptAt" < (now() AT TIME ZONE 'UTC') - ${days}::float8 * interval '1 day'`);
}
