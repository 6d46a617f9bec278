import type { App } from '../../context.js';
import { startWorkLoops, type WorkLoops } from '../work-loops.js';

/** Scopes folded per statement: a long backlog is folded in short statements. */
const COMPACT_SCOPES = 500;

/**
 * Folds the deltas of up to COMPACT_SCOPES scopes that have more than one into one row each (none when they sum to
 * 0); returns how many scopes it folded. The sums are unchanged: the rows deleted are exactly those whose sum is
 * written back. Two instances at once fold each row once (the second's DELETE skips rows the first deleted).
 */
export async function compactRowCounts(app: Pick<App, 'prisma'>): Promise<number> {
  const [row] = await app.prisma.$queryRaw<{ scopes: bigint }[]>`
    WITH many AS (
      SELECT "organizationId", counted, "scopeId" FROM row_count_deltas
      GROUP BY 1, 2, 3 HAVING COUNT(*) > 1 LIMIT ${COMPACT_SCOPES}
    ), gone AS (
      DELETE FROM row_count_deltas d USING many m
      WHERE d."organizationId" = m."organizationId" AND d.counted = m.counted AND d."scopeId" = m."scopeId"
      RETURNING d."organizationId", d.counted, d."scopeId", d.delta
    ), folded AS (
      INSERT INTO row_count_deltas ("organizationId", counted, "scopeId", delta)
      SELECT "organizationId", counted, "scopeId", SUM(delta) FROM gone GROUP BY 1, 2, 3 HAVING SUM(delta) <> 0
    )
    SELECT (SELECT COUNT(*) FROM many) AS scopes`;
  return Number(row?.scopes ?? 0);
}

/** Folds row-count deltas every `everySeconds` (0: never; counts stay exact, reading them costs more as deltas pile up). */
export function startRowCountCompaction(app: App, options: { everySeconds: number; log: (message: string) => void }): WorkLoops {
  return startWorkLoops({
    name: 'row counts',
    count: options.everySeconds > 0 ? 1 : 0,
    pollMs: options.everySeconds * 1000,
    step: async () => (await compactRowCounts(app)) === COMPACT_SCOPES,
    log: options.log,
  });
}
