// Periodic copies of each organization's stock lines, so that stock as of a past moment is rebuilt from
// the latest copy before it plus a bounded stretch of ledger rows, not from the ledger's first row.
import { type App, operatorContext, type OperatorContext } from '../../../context.js';
import { inTransaction } from '../../../db/transactions.js';
import { Prisma } from '../../../generated/prisma/client.js';
import { startWorkLoops, type WorkLoops } from '../../work-loops.js';

export interface SnapshotPolicy {
  /** A snapshot is due once this many ledger rows were written after the previous one... */
  everyRows: number;
  /** ...or once the previous one is this old (and some row was written since), in hours. */
  everyHours: number;
  /**
   * How far behind the database clock the cut is, in seconds. A ledger row's createdAt is taken inside its
   * transaction; the cut waits for every transaction that could still commit a row at or before it
   * (stock changes time out after 15 s), so a snapshot never misses a row that commits late.
   */
  settleSeconds: number;
}

export const DEFAULT_SNAPSHOT_POLICY: SnapshotPolicy = { everyRows: 10_000, everyHours: 24, settleSeconds: 300 };

/** Advisory lock namespace: one instance snapshots an organization at a time. */
/**
 * Over a CTE `rows` of ledger rows (stockLineId, bucket, qtyAfter, createdAt, seq): `last`, each line's last row per
 * bucket, and `changed`, per line the quantity each bucket was left at (null: no row of that bucket), for the replay
 * of stock as of a moment: by the snapshots and by the widget's asOf.
 */
export const lastQuantitiesCtes = Prisma.sql`
  last AS (
    SELECT DISTINCT ON (r."stockLineId", r.bucket) r."stockLineId", r.bucket, r."qtyAfter"
    FROM rows r ORDER BY r."stockLineId", r.bucket, r."createdAt" DESC, r.seq DESC
  ),
  changed AS (
    SELECT l."stockLineId",
      MAX(l."qtyAfter") FILTER (WHERE l.bucket = 'ON_HAND') AS on_hand,
      MAX(l."qtyAfter") FILTER (WHERE l.bucket = 'RESERVED') AS reserved,
      MAX(l."qtyAfter") FILTER (WHERE l.bucket = 'ON_HOLD') AS on_hold,
      MAX(l."qtyAfter") FILTER (WHERE l.bucket = 'PICKED') AS picked,
      MAX(l."qtyAfter") FILTER (WHERE l.bucket = 'RECALLED') AS recalled,
      MAX(l."qtyAfter") FILTER (WHERE l.bucket = 'EXPIRED') AS expired
    FROM last l GROUP BY l."stockLineId"
  )`;

const SNAPSHOT_LOCK = 1_209_202_613;

const cutSql = (settleSeconds: number) =>
  Prisma.sql`(date_trunc('milliseconds', clock_timestamp() AT TIME ZONE 'UTC') - make_interval(secs => ${settleSeconds}))`;

/**
 * The next organization whose snapshot is due: ledger rows settled after its latest snapshot (or ever, with
 * none), at least everyRows of them (and at least as many as that snapshot copied lines, so that copying never
 * costs more than a line per ledger row) or the latest snapshot older than everyHours. null: none is due.
 */
export async function nextDueOrganization(ctx: OperatorContext, policy: SnapshotPolicy = DEFAULT_SNAPSHOT_POLICY): Promise<string | null> {
  const [due] = await ctx.prisma.$queryRaw<{ id: string }[]>`
    WITH cut AS (SELECT ${cutSql(policy.settleSeconds)} AS at)
    SELECT o.id FROM organizations o CROSS JOIN cut
      LEFT JOIN LATERAL (
        SELECT s."takenAt" AS at, GREATEST(s."lineCount", ${policy.everyRows}::int) AS due_rows
        FROM stock_snapshots s WHERE s."organizationId" = o.id ORDER BY s."takenAt" DESC LIMIT 1
      ) prev ON true
    WHERE (prev.at IS NULL OR prev.at < cut.at)
      AND EXISTS (
        SELECT 1 FROM stock_transactions t
        WHERE t."organizationId" = o.id AND t."createdAt" <= cut.at AND (prev.at IS NULL OR t."createdAt" > prev.at))
      AND (
        prev.at IS NULL OR prev.at < cut.at - make_interval(hours => ${policy.everyHours})
        OR (SELECT COUNT(*) FROM (
              SELECT 1 FROM stock_transactions t
              WHERE t."organizationId" = o.id AND t."createdAt" > prev.at AND t."createdAt" <= cut.at
              LIMIT prev.due_rows) n) >= prev.due_rows)
    ORDER BY prev.at NULLS FIRST, o.id
    LIMIT 1`;
  return due?.id ?? null;
}

/**
 * Takes a snapshot of the organization at the settled cut (or at `at`, a moment every transaction that could
 * write a row at or before has ended: tests and set-up): each stock line's quantities as of the cut, from the
 * previous snapshot plus the ledger rows between the two. Lines with every quantity 0 are left out.
 * Returns the snapshot, or null when another instance is taking one or there is nothing after the previous one.
 */
export async function takeStockSnapshot(
  ctx: OperatorContext,
  organizationId: string,
  options: { settleSeconds?: number; at?: Date } = {},
): Promise<{ id: string; takenAt: Date; lineCount: number; ledgerRows: number } | null> {
  return inTransaction(ctx, async ({ prisma: tx }) => {
    const [lock] = await tx.$queryRaw<{ locked: boolean }[]>`SELECT pg_try_advisory_xact_lock(${SNAPSHOT_LOCK}::int, hashtext(${organizationId})) AS locked`;
    if (!lock?.locked) return null;
    const [cut] = options.at
      ? [{ at: options.at }]
      : await tx.$queryRaw<{ at: Date }[]>`SELECT ${cutSql(options.settleSeconds ?? DEFAULT_SNAPSHOT_POLICY.settleSeconds)} AS at`;
    const takenAt = cut!.at;
    const prev = await tx.stockSnapshot.findFirst({ where: { organizationId }, orderBy: { takenAt: 'desc' }, select: { id: true, takenAt: true } });
    if (prev && prev.takenAt >= takenAt) return null;
    const snapshot = await tx.stockSnapshot.create({ data: { organizationId, takenAt, lineCount: 0, ledgerRows: 0 }, select: { id: true } });
    const at = Prisma.sql`(${takenAt.toISOString()}::timestamptz AT TIME ZONE 'UTC')`;
    const [counts] = await tx.$queryRaw<{ lines: number; rows: number }[]>`
      WITH rows AS MATERIALIZED (
        SELECT t."stockLineId", t.bucket, t."qtyAfter", t."createdAt", t.seq FROM stock_transactions t
        WHERE t."organizationId" = ${organizationId} AND t."createdAt" <= ${at}
          ${prev ? Prisma.sql`AND t."createdAt" > (${prev.takenAt.toISOString()}::timestamptz AT TIME ZONE 'UTC')` : Prisma.empty}
      ),
      ${lastQuantitiesCtes},
      base AS (SELECT * FROM stock_line_snapshots b WHERE b."snapshotId" = ${prev?.id ?? null}::text),
      copied AS (
        INSERT INTO stock_line_snapshots ("snapshotId", "organizationId", "stockLineId", "productMasterId", "locationId",
          "qtyOnHand", "qtyReserved", "qtyOnHold", "qtyPicked", "qtyRecalled", "qtyExpired")
        SELECT ${snapshot.id}, ${organizationId}, s.id, s."productMasterId", s."locationId", q.*
        FROM changed c FULL JOIN base b ON b."stockLineId" = c."stockLineId"
        JOIN stock_lines s ON s.id = COALESCE(c."stockLineId", b."stockLineId"),
        LATERAL (SELECT COALESCE(c.on_hand, b."qtyOnHand", 0), COALESCE(c.reserved, b."qtyReserved", 0), COALESCE(c.on_hold, b."qtyOnHold", 0),
                        COALESCE(c.picked, b."qtyPicked", 0), COALESCE(c.recalled, b."qtyRecalled", 0), COALESCE(c.expired, b."qtyExpired", 0)) q(a, r, h, p, rc, e)
        WHERE q.a <> 0 OR q.r <> 0 OR q.h <> 0 OR q.p <> 0 OR q.rc <> 0 OR q.e <> 0
        RETURNING 1
      )
      SELECT (SELECT COUNT(*) FROM copied)::int AS lines, (SELECT COUNT(*) FROM rows)::int AS rows`;
    await tx.stockSnapshot.update({ where: { id: snapshot.id }, data: { lineCount: counts!.lines, ledgerRows: counts!.rows } });
    return { id: snapshot.id, takenAt, lineCount: counts!.lines, ledgerRows: counts!.rows };
  }, { timeout: 120_000, maxWait: 10_000 });
}

/**
 * Loops that snapshot, one organization per step, every organization whose snapshot is due; off the
 * request thread's work (requests that arrived meanwhile go first after each step). count 0: none.
 */
export function startStockSnapshotLoop(app: App, options: { count: number; pollMs: number; policy?: SnapshotPolicy; log?: (m: string) => void }): WorkLoops {
  const policy = options.policy ?? DEFAULT_SNAPSHOT_POLICY;
  const ctx = operatorContext(app.prisma, 'stock-snapshots');
  return startWorkLoops({
    name: 'stock snapshots',
    count: options.count,
    pollMs: options.pollMs,
    pauseMs: 50,
    step: async () => {
      const organizationId = await nextDueOrganization(ctx, policy);
      if (!organizationId) return false;
      return (await takeStockSnapshot(ctx, organizationId, { settleSeconds: policy.settleSeconds })) !== null;
    },
    log: options.log ?? ((m: string) => console.error(m)),
  });
}
