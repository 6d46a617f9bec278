// The asOf inventory summary widget over a long ledger (issue 21): one location of 2,000 stock lines whose
// ledger holds 1,000,000 rows over the past year, snapshots taken every 10,000 rows as the server's loop would,
// then GET /api/dashboard/widgets/inventory-summary?asOf=<random moment> measured through HTTP (p50, p99), beside
// a bare yardstick running the service's statements (the snapshot lookup, then inventorySummarySql) through `pg`.
// Goal on PostgreSQL: p99 under 200 ms. Before measuring, answers at sample moments are checked against the
// same statement with no snapshot at all (the ledger read from its first row): the snapshots change no figure.
import { randomBytes } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import pg from 'pg';
import { operatorContext } from '../../../src/context.js';
import { openDatabase } from '../../../src/db/database.js';
import { inventorySummarySql, type SummaryRow } from '../../../src/services/dashboard/inventory-summary/inventory-summary.js';
import { takeStockSnapshot } from '../../../src/services/dashboard/inventory-summary/stock-snapshots.js';
import { createScratchDatabase, loadBenchmarkData } from '../../harness/data.js';
import { getJson, startServer, stopServer } from '../../harness/servers.js';

export const WIDGET_LEDGER_ROWS = 1_000_000;
export const WIDGET_LINES = 2_000;
export const WIDGET_P99_GOAL_MS = 200;
const SNAPSHOT_EVERY_ROWS = 10_000;
const SPAN_DAYS = 365;
const DAY_MS = 86_400_000;

export interface WidgetBenchResult {
  ledgerRows: number;
  lines: number;
  snapshots: number;
  loadSeconds: number;
  snapshotSeconds: number;
  checks: { name: string; ok: boolean; detail: string }[];
  service: { p50: number; p99: number; requests: number };
  bare: { p50: number; p99: number; requests: number };
  ratioP50: number;
  ratioP99: number;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const stats = (times: number[]) => {
  const sorted = [...times].sort((x, y) => x - y);
  return { p50: Math.round(percentile(sorted, 50) * 10) / 10, p99: Math.round(percentile(sorted, 99) * 10) / 10, requests: times.length };
};

/** The ledger: row n (1..ROWS) is on line n mod LINES; every 4th row of a line moves RESERVED, the others ON_HAND, each row starting where the line's previous row of its bucket ended. */
async function loadLedger(client: pg.Client, organizationId: string) {
  const [{ id: locationId }] = (
    await client.query(`INSERT INTO locations (id, "organizationId", code, name, "updatedAt") VALUES (gen_random_uuid()::text, $1, 'WIDGET', 'Widget bench', now()) RETURNING id`, [organizationId])
  ).rows;
  await client.query(
    `INSERT INTO stock_lines (id, "organizationId", "productMasterId", "locationId", "lineKey", "updatedAt")
     SELECT gen_random_uuid()::text, $1, p.id, $2, '-:-', now()
     FROM (SELECT id FROM product_masters WHERE "organizationId" = $1 ORDER BY sku LIMIT $3) p`,
    [organizationId, locationId, WIDGET_LINES],
  );
  // k: the row's number on its line; j: its number among its line's rows of its bucket. ON_HAND goes 0 -> 105, then
  // swings 105 <-> 100; RESERVED 0 <-> 3: every part stays within on hand.
  await client.query(
    `WITH lines AS (SELECT id, "productMasterId", (row_number() OVER (ORDER BY id) - 1)::int AS i FROM stock_lines WHERE "locationId" = $2),
     r AS (
       SELECT n, n % ${WIDGET_LINES} AS i, (n / ${WIDGET_LINES}) % 4 = 3 AS reserve,
         CASE WHEN (n / ${WIDGET_LINES}) % 4 = 3 THEN (n / ${WIDGET_LINES}) / 4 ELSE (n / ${WIDGET_LINES}) - (n / ${WIDGET_LINES}) / 4 END AS j
       FROM generate_series(0, $3 - 1) n
     ),
     q AS (
       SELECT r.*,
         CASE WHEN reserve THEN (CASE WHEN j % 2 = 0 THEN 0 ELSE 3 END) WHEN j = 0 THEN 0 WHEN j % 2 = 1 THEN 105 ELSE 100 END AS before,
         CASE WHEN reserve THEN (CASE WHEN j % 2 = 0 THEN 3 ELSE 0 END) WHEN j % 2 = 1 THEN 100 ELSE 105 END AS after
       FROM r
     )
     INSERT INTO stock_transactions (id, "organizationId", "stockLineId", "productMasterId", "locationId", "transactionType", bucket,
       "deltaQty", "qtyBefore", "qtyAfter", "actorType", "createdBy", "createdAt")
     SELECT gen_random_uuid()::text, $1, l.id, l."productMasterId", $2,
       CASE WHEN q.reserve THEN 'RESERVE' ELSE 'ADJUSTMENT' END,
       (CASE WHEN q.reserve THEN 'RESERVED' ELSE 'ON_HAND' END)::"StockBucket",
       q.after - q.before, q.before, q.after, 'API_KEY', 'bench',
       (now() AT TIME ZONE 'UTC') - make_interval(days => ${SPAN_DAYS}) + (q.n * (${SPAN_DAYS}.0 * 86400 / $3)) * interval '1 second'
     FROM q JOIN lines l ON l.i = q.i
     ORDER BY q.n`,
    [organizationId, locationId, WIDGET_LEDGER_ROWS],
  );
  // The lines as their last rows left them.
  await client.query(
    `UPDATE stock_lines s SET "qtyOnHand" = x.on_hand, "qtyReserved" = x.reserved FROM (
       SELECT "stockLineId",
         (ARRAY_AGG("qtyAfter" ORDER BY seq DESC) FILTER (WHERE bucket = 'ON_HAND'))[1] AS on_hand,
         COALESCE((ARRAY_AGG("qtyAfter" ORDER BY seq DESC) FILTER (WHERE bucket = 'RESERVED'))[1], 0) AS reserved
       FROM stock_transactions WHERE "locationId" = $1 GROUP BY "stockLineId") x
     WHERE s.id = x."stockLineId"`,
    [locationId],
  );
  await client.query('ANALYZE');
  return locationId as string;
}

/** Snapshots as the loop takes them: a cut after every SNAPSHOT_EVERY_ROWS rows, up to a day before now (the last day is read from the ledger). */
async function takeSnapshots(databaseUrl: string, organizationId: string, client: pg.Client) {
  const database = await openDatabase({ databaseUrl });
  let count = 0;
  try {
    const ctx = operatorContext(database.prisma, 'bench-setup');
    const { rows } = await client.query(
      `SELECT "createdAt" AS at FROM (SELECT "createdAt", row_number() OVER (ORDER BY seq) AS n FROM stock_transactions WHERE "organizationId" = $1) t
       WHERE n % $2 = 0 AND "createdAt" < (now() AT TIME ZONE 'UTC') - interval '1 day' ORDER BY n`,
      [organizationId, SNAPSHOT_EVERY_ROWS],
    );
    for (const { at } of rows as { at: Date }[]) if (await takeStockSnapshot(ctx, organizationId, { at })) count += 1;
  } finally {
    await database.close();
  }
  await client.query('ANALYZE');
  return count;
}

/** The bare yardstick: the service's statements through `pg` (the location check and snapshot lookup, then the summary). */
async function bareSummary(pool: pg.Pool, organizationId: string, locationId: string, asOf: Date, withSnapshot = true) {
  const [location, snapshot] = await Promise.all([
    pool.query(`SELECT COUNT(*)::int AS count FROM locations WHERE id = $1 AND "organizationId" = $2`, [locationId, organizationId]),
    withSnapshot
      ? pool.query(`SELECT id, "takenAt" FROM stock_snapshots WHERE "organizationId" = $1 AND "takenAt" <= $2 ORDER BY "takenAt" DESC LIMIT 1`, [organizationId, asOf])
      : { rows: [] },
  ]);
  if (location.rows[0].count !== 1) throw new Error('location not found');
  const start = snapshot.rows[0] ? { id: snapshot.rows[0].id as string, takenAt: snapshot.rows[0].takenAt as Date } : null;
  const statement = inventorySummarySql(organizationId, locationId, asOf, start);
  const { rows } = await pool.query<SummaryRow>(statement.text, statement.values as unknown[]);
  return rows[0]!;
}

const figuresOf = (row: SummaryRow) => ({ onHand: Number(row.on_hand), available: Number(row.available), reserved: Number(row.reserved), value: Math.round(row.value * 10_000) / 10_000 });

export async function benchWidget(adminUrl: string, options: { requests?: number; log?: (m: string) => void } = {}): Promise<WidgetBenchResult> {
  const log = options.log ?? console.log;
  const requests = options.requests ?? 400;
  const scratch = await createScratchDatabase(adminUrl);
  const client = new pg.Client({ connectionString: scratch.url });
  const pool = new pg.Pool({ connectionString: scratch.url, max: 1 });
  try {
    const started = performance.now();
    const { key, organizationId } = await loadBenchmarkData({ databaseUrl: scratch.url });
    await client.connect();
    const locationId = await loadLedger(client, organizationId);
    const loadSeconds = (performance.now() - started) / 1000;
    log(`loaded ${WIDGET_LEDGER_ROWS} ledger rows on ${WIDGET_LINES} stock lines in ${loadSeconds.toFixed(0)} s`);
    const snapStarted = performance.now();
    const snapshots = await takeSnapshots(scratch.url, organizationId, client);
    const snapshotSeconds = (performance.now() - snapStarted) / 1000;
    log(`took ${snapshots} snapshots in ${snapshotSeconds.toFixed(0)} s`);

    const now = Date.now();
    const moments = Array.from({ length: requests }, (_, i) => new Date(now - ((i * 7919) % (SPAN_DAYS * 1000)) * (DAY_MS / 1000) - 1000));
    const server = await startServer(
      'src/main.ts',
      { DATABASE_URL: scratch.url, SEED_DEMO: 'false', NODE_ENV: 'production', IMPORT_WORKERS: '0', STOCK_SNAPSHOT_POLL_SECONDS: '0', JWT_SECRET: randomBytes(32).toString('base64url') },
      'widget',
    );
    const checks: WidgetBenchResult['checks'] = [];
    const service: number[] = [];
    const bare: number[] = [];
    try {
      const headers = { authorization: `Bearer ${key}` };
      const path = (asOf: Date) => `/api/dashboard/widgets/inventory-summary?locationId=${locationId}&asOf=${asOf.toISOString()}`;
      // Exactness: the service's answer = the statement over the ledger from its first row, at sample moments.
      for (const asOf of moments.slice(0, 3)) {
        const answer = await getJson(`${server.base}${path(asOf)}`, { headers });
        const full = figuresOf(await bareSummary(pool, organizationId, locationId, asOf, false));
        const got = { onHand: answer.body.onHand, available: answer.body.available, reserved: answer.body.reserved, value: answer.body.value };
        checks.push({ name: `asOf ${asOf.toISOString()}: snapshot + ledger = ledger from the start`, ok: answer.status === 200 && isDeepStrictEqual(got, full), detail: `${JSON.stringify(got)} vs ${JSON.stringify(full)}; ${JSON.stringify(answer.body.computedFrom)}` });
      }
      const live = await getJson(`${server.base}/api/dashboard/widgets/inventory-summary?locationId=${locationId}`, { headers });
      const latest = await getJson(`${server.base}${path(new Date())}`, { headers });
      checks.push({ name: 'asOf now = the stock lines', ok: isDeepStrictEqual({ ...live.body, asOf: 0, computedFrom: 0 }, { ...latest.body, asOf: 0, computedFrom: 0 }), detail: `onHand ${live.body.onHand} / ${latest.body.onHand}` });
      for (const c of checks) log(`  ${c.ok ? 'ok  ' : 'FAIL'} ${c.name} (${c.detail})`);

      for (const asOf of moments.slice(0, 20)) await getJson(`${server.base}${path(asOf)}`, { headers });
      for (const asOf of moments) {
        const t = performance.now();
        const answer = await getJson(`${server.base}${path(asOf)}`, { headers });
        service.push(performance.now() - t);
        if (answer.status !== 200) throw new Error(`answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 300)}`);
      }
      for (const asOf of moments.slice(0, 20)) await bareSummary(pool, organizationId, locationId, asOf);
      for (const asOf of moments) {
        const t = performance.now();
        await bareSummary(pool, organizationId, locationId, asOf);
        bare.push(performance.now() - t);
      }
    } finally {
      await stopServer(server);
    }
    const s = stats(service);
    const b = stats(bare);
    return {
      ledgerRows: WIDGET_LEDGER_ROWS,
      lines: WIDGET_LINES,
      snapshots,
      loadSeconds,
      snapshotSeconds,
      checks,
      service: s,
      bare: b,
      ratioP50: Math.round((s.p50 / b.p50) * 100) / 100,
      ratioP99: Math.round((s.p99 / b.p99) * 100) / 100,
    };
  } finally {
    await client.end().catch(() => {});
    await pool.end().catch(() => {});
    await scratch.drop();
  }
}
