import { type App, operatorContext } from '../../../context.js';
import { inTransaction } from '../../../db/transactions.js';
import { NOW_UTC } from './recommendation-rows.js';

/** Advisory lock key of the sweep: one instance sweeps at a time, the others skip that round. */
const SWEEP_LOCK = 1_209_202_612;

/**
 * Marks every overdue PENDING recommendation (of every organization) EXPIRED. One idempotent set-based
 * UPDATE: run twice, or by two instances at once, it expires each row once (the second finds none). The
 * advisory lock only saves a second instance the work. Returns how many rows it expired.
 */
export async function expireOverdueRecommendations(app: Pick<App, 'prisma'>): Promise<number> {
  return inTransaction(operatorContext(app.prisma, 'recommendation-expiry-sweep'), async ({ prisma: tx }) => {
    const [lock] = await tx.$queryRaw<{ locked: boolean }[]>`SELECT pg_try_advisory_xact_lock(${SWEEP_LOCK}) AS locked`;
    if (!lock?.locked) return 0;
    return tx.$executeRaw`
      UPDATE transfer_recommendations SET status = 'EXPIRED', "updatedAt" = ${NOW_UTC}
      WHERE status = 'PENDING' AND "expiresAt" <= ${NOW_UTC}`;
  });
}

export interface ExpirySweep {
  stop(): Promise<void>;
}

/**
 * Sweeps every `everySeconds` (0: never; reads treat overdue recommendations as EXPIRED all the same).
 * The state lives in the database only, so any number of instances may run it.
 */
export function startRecommendationExpirySweep(app: App, options: { everySeconds: number; log?: (m: string) => void }): ExpirySweep {
  if (!(options.everySeconds > 0)) return { stop: async () => {} };
  const log = options.log ?? ((m: string) => console.error(m));
  let running: Promise<void> | null = null;
  let stopped = false;
  const timer = setInterval(() => {
    // A round still running (a slow database) is not joined by another.
    if (stopped || running) return;
    running = expireOverdueRecommendations(app)
      .then(() => {}, (error: Error) => {
        if (!stopped) log(`transfer recommendation expiry: ${error.message}`);
      })
      .finally(() => {
        running = null;
      });
  }, options.everySeconds * 1000);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
