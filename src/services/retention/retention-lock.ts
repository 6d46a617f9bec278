import type { OperatorContext } from '../../context.js';
import { type InTransaction, inTransaction } from '../../db/transactions.js';

/**
 * Runs one pruning batch in a transaction holding the retention advisory lock; null when another instance holds
 * it (that instance is pruning: this one leaves the round to it). The lock is transaction-scoped, so a batch
 * of a process that dies releases it with its connection.
 */
export function underRetentionLock<T>(ctx: OperatorContext, work: (tx: InTransaction<OperatorContext>) => Promise<T>): Promise<T | null> {
  return inTransaction(ctx, async (tx) => {
    const [lock] = await tx.prisma.$queryRaw<{ locked: boolean }[]>`SELECT pg_try_advisory_xact_lock(hashtext('retention-sweep')) AS locked`;
    return lock?.locked ? work(tx) : null;
  });
}
