import { type App, operatorContext } from '../../context.js';
import { startWorkLoops, type WorkLoops } from '../work-loops.js';

/** Expired keys deleted per statement: a long backlog is pruned in short statements. */
const PRUNE_BATCH = 5_000;

/** Deletes up to PRUNE_BATCH expired idempotency keys (of every organization); returns how many. */
export async function pruneExpiredIdempotencyKeys(app: Pick<App, 'prisma'>): Promise<number> {
  const ctx = operatorContext(app.prisma, 'idempotency-key-sweep');
  return ctx.prisma.$executeRaw`
    DELETE FROM idempotency_keys WHERE ctid = ANY(ARRAY(
      SELECT ctid FROM idempotency_keys WHERE "expiresAt" <= (now() AT TIME ZONE 'UTC') LIMIT ${PRUNE_BATCH}))`;
}

/**
 * Prunes expired keys every `everySeconds` (0: never; an expired key is treated as absent all the same), in
 * batches until none is left. Any number of instances may run it: a row is deleted once.
 */
export function startIdempotencyKeySweep(app: App, options: { everySeconds: number; log: (message: string) => void }): WorkLoops {
  return startWorkLoops({
    name: 'idempotency keys',
    count: options.everySeconds > 0 ? 1 : 0,
    pollMs: options.everySeconds * 1000,
    step: async () => (await pruneExpiredIdempotencyKeys(app)) === PRUNE_BATCH,
    log: options.log,
  });
}
