// The import part of `npm run bench` (issue 4): end to end, from the first POST to the last job
import { createPGlite } from '../../src/db/pglite-extensions.js';
// COMPLETED, for 100,000 catalog rows and 100,000 demand-history rows (and, without a target, 100,000
// inventory rows), posted as the loader
// (src/cli/import.ts) posts them, while a probe process measures GET /api/products?limit=50; then a
// bare COPY of the same rows into a scratch table of the same database, for scale.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { spawnTs, sleep, stop } from '../harness/children.js';
import { cpuBetween, machineCpu, sampleCpu } from '../harness/cpu.js';
import { getJson, startServer, stopServer } from '../harness/servers.js';
import { root } from '../harness/settings.js';
import { catalogData, demandData, inventoryData, LOADER_BATCH, LOADER_POLL_MS, prepareImportData, type ImportKindData } from './data.js';

export interface ImportResult {
  backend: string;
  kind: string;
  rows: number;
  seconds: number;
  processed: number;
  rejected: number;
  failed: string[];
  /** Time the POSTs took in all (storing the rows), ms. */
  postMs: number;
  /** Time between each job's completedAt and the poll that saw it, summed, ms (the loader's polling). */
  pollWaitMs: number;
  probe: { count: number; p50: number; p99: number; max: number; bad: number };
  cpu: { server: number; database: number; otherShare: number };
  copy?: { method: string; seconds: number };
  /** The same rows COPYed into a staging table and written with one INSERT ... SELECT ... ON CONFLICT (rolled back): the floor of any set-based import. */
  floor?: { seconds: number };
}

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : Number.NaN);

async function postLikeTheLoader(base: string, key: string, data: ImportKindData) {
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const result = { processed: 0, rejected: 0, failed: [] as string[], postMs: 0, pollWaitMs: 0 };
  for (let offset = 0; offset < data.rows.length; offset += LOADER_BATCH) {
    const body = JSON.stringify(data.rows.slice(offset, offset + LOADER_BATCH));
    const posted = performance.now();
    const response = await fetch(`${base}/api/import/${data.kind}`, { method: 'POST', headers, body, signal: AbortSignal.timeout(120_000) });
    let job = await response.json();
    result.postMs += performance.now() - posted;
    if (response.status !== 202) throw new Error(`POST /api/import/${data.kind} answered ${response.status}: ${JSON.stringify(job).slice(0, 500)}`);
    while (job.state !== 'COMPLETED' && job.state !== 'FAILED') {
      await sleep(LOADER_POLL_MS);
      const status = await getJson(`${base}/api/import/status/${job.jobId}`, { headers });
      if (status.status !== 200) throw new Error(`status of ${job.jobId}: ${status.status} ${JSON.stringify(status.body).slice(0, 500)}`);
      job = status.body;
    }
    result.processed += job.processedRows;
    result.rejected += job.rejectedRows;
    if (job.state === 'FAILED') result.failed.push(`${job.jobId}: ${job.failureReason}`);
    result.pollWaitMs += Math.max(0, Date.now() - Date.parse(job.completedAt));
  }
  return result;
}

async function importOne(backend: string, base: string, server: number, key: string, data: ImportKindData, database: string | undefined, work: string) {
  const probeFile = join(work, `probe-${data.kind}.json`);
  const probe = spawnTs('bench/import/latency-probe.ts', [`${base}/api/products?limit=50`, key, probeFile], {}, root);
  for (let i = 0; !probe.stdout().includes('ready'); i++) {
    if (probe.process.exitCode !== null || i > 300) throw new Error(`probe did not start:\n${probe.output()}`);
    await sleep(100);
  }
  const machineBefore = machineCpu();
  const before = sampleCpu(server, database);
  const startedAt = Date.now();
  const started = performance.now();
  const posted = await postLikeTheLoader(base, key, data);
  const seconds = (performance.now() - started) / 1000;
  const spent = cpuBetween(before, sampleCpu(server, database));
  const machineAfter = machineCpu();
  const endedAt = Date.now();
  await stop(probe);
  const samples = JSON.parse(await readFile(probeFile, 'utf8')) as [number, number, number][];
  const during = samples.filter(([at]) => at >= startedAt && at <= endedAt);
  const latencies = during.map(([, ms]) => ms).sort((a, b) => a - b);
  // The probe process and the bench itself are counted as "other" too: small next to the import.
  const others = machineAfter.busy - machineBefore.busy - spent.server - spent.database;
  const result: ImportResult = {
    backend,
    kind: data.kind,
    rows: data.rows.length,
    seconds,
    processed: posted.processed,
    rejected: posted.rejected,
    failed: posted.failed,
    postMs: posted.postMs,
    pollWaitMs: posted.pollWaitMs,
    probe: { count: latencies.length, p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: latencies.at(-1) ?? Number.NaN, bad: during.filter(([, , s]) => s !== 200).length },
    cpu: { server: spent.server, database: spent.database, otherShare: Math.max(0, others / Math.max(1e-9, machineAfter.total - machineBefore.total)) },
  };
  console.log(
    `  ${backend} ${data.kind}: ${Math.round(result.rows / seconds)} rows/s (${seconds.toFixed(2)} s; POSTs ${(posted.postMs / 1000).toFixed(2)} s, waiting for polls ${(posted.pollWaitMs / 1000).toFixed(2)} s), ` +
      `probe ${result.probe.count} requests p50 ${result.probe.p50.toFixed(1)} ms p99 ${result.probe.p99.toFixed(1)} ms, ` +
      `CPU ${spent.server.toFixed(1)} s Node + ${spent.database.toFixed(1)} s PostgreSQL` +
      (result.rejected || result.failed.length ? `, ${result.rejected} rejected, failed: ${result.failed.join('; ')}` : ''),
  );
  return result;
}

const run = promisify(execFile);

/** PostgreSQL: psql's \copy (COPY ... FROM STDIN) of the CSV into an unindexed scratch table. */
async function copyPostgres(url: string, data: ImportKindData, work: string): Promise<{ method: string; seconds: number }> {
  const file = join(work, `${data.kind}.csv`);
  await writeFile(file, data.csv);
  const name = data.table.split(' ')[0]!;
  await run('psql', [url, '-v', 'ON_ERROR_STOP=1', '-qc', `DROP TABLE IF EXISTS ${name}; CREATE TABLE ${data.table}`]);
  const started = performance.now();
  await run('psql', [url, '-v', 'ON_ERROR_STOP=1', '-qc', `\\copy ${name} FROM '${file}' WITH (FORMAT csv)`]);
  const seconds = (performance.now() - started) / 1000;
  await run('psql', [url, '-qc', `DROP TABLE ${name}`]);
  return { method: 'psql \\copy (COPY FROM STDIN), psql start-up included', seconds };
}

/** PGlite: COPY ... FROM '/dev/blob' with the CSV as the blob, in the service's data folder. */
async function copyPglite(dataDir: string, data: ImportKindData): Promise<{ method: string; seconds: number }> {
  const db = await createPGlite(dataDir);
  try {
    const name = data.table.split(' ')[0]!;
    await db.exec(`DROP TABLE IF EXISTS ${name}; CREATE TABLE ${data.table}`);
    const blob = new Blob([data.csv]);
    const started = performance.now();
    await db.query(`COPY ${name} FROM '/dev/blob' WITH (FORMAT csv)`, [], { blob });
    const seconds = (performance.now() - started) / 1000;
    await db.exec(`DROP TABLE ${name}`);
    return { method: "COPY FROM '/dev/blob'", seconds };
  } finally {
    await db.close();
  }
}

/**
 * The set-based floor: the kind's rows COPYed into a staging table, then written into the real tables with
 * one INSERT ... SELECT ... ON CONFLICT as the applier writes them (categories and SKUs resolved in SQL),
 * no validation, no chunks, no checkpoints; the transaction is rolled back and the tables vacuumed. No
 * import writing the same rows into the same indexed tables (their triggers firing) can go faster. Inventory
 * rows (new lines here) write each line with its quantities, a ledger row per non-zero bucket (the ledger's
 * triggers fire) and the level's minimum: the writes of the import, without its lock and its checks.
 */
function floorStatements(data: ImportKindData, organizationId: string): string[] | undefined {
  const org = `'${organizationId.replace(/'/g, "''")}'`;
  const staging = data.table.replace(/^bench_copy_/, 'bench_floor_');
  const name = staging.split(' ')[0]!;
  if (data.kind === 'catalog') {
    return [
      `CREATE TEMP TABLE ${staging}`,
      `COPY ${name} FROM STDIN WITH (FORMAT csv)`,
      `INSERT INTO categories (id, "organizationId", name, "updatedAt") SELECT gen_random_uuid()::text, ${org}, category, now() FROM (SELECT DISTINCT category FROM ${name} WHERE category IS NOT NULL) c ON CONFLICT ("organizationId", name) DO NOTHING`,
      `INSERT INTO product_masters (id, "organizationId", sku, name, description, "unitCost", "categoryId", "updatedAt")
       SELECT gen_random_uuid()::text, ${org}, s.external_id, s.name, s.description, s.unit_cost, c.id, now()
       FROM ${name} s LEFT JOIN categories c ON c."organizationId" = ${org} AND c.name = s.category
       ON CONFLICT ("organizationId", lower(sku)) DO UPDATE SET name = EXCLUDED.name, description = COALESCE(EXCLUDED.description, product_masters.description),
         "unitCost" = COALESCE(EXCLUDED."unitCost", product_masters."unitCost"), "categoryId" = COALESCE(EXCLUDED."categoryId", product_masters."categoryId"), "updatedAt" = now()
       WHERE product_masters.sku = EXCLUDED.sku`,
    ];
  }
  if (data.kind === 'demand-history') {
    return [
      `CREATE TEMP TABLE ${staging}`,
      `COPY ${name} FROM STDIN WITH (FORMAT csv)`,
      `INSERT INTO demand_history (id, "organizationId", "productMasterId", "locationId", channel, "weekStart", "actualUnits", "forecastUnits", "updatedAt")
       SELECT gen_random_uuid()::text, ${org}, p.id, l.id, 'ALL', date_trunc('week', s.day)::date, s.actual_demand, s.forecast_units, now()
       FROM ${name} s JOIN product_masters p ON p."organizationId" = ${org} AND lower(p.sku) = lower(s.sku)
       JOIN locations l ON l."organizationId" = ${org} AND l.code = s.location_code
       ON CONFLICT ("organizationId", "productMasterId", "locationId", channel, "weekStart")
       DO UPDATE SET "actualUnits" = EXCLUDED."actualUnits", "forecastUnits" = EXCLUDED."forecastUnits", "updatedAt" = now()`,
    ];
  }
  return [
    `CREATE TEMP TABLE ${staging}`,
    `COPY ${name} FROM STDIN WITH (FORMAT csv)`,
    `WITH lines AS (
       INSERT INTO stock_lines (id, "organizationId", "productMasterId", "locationId", "lineKey", "qtyOnHand", "qtyReserved", "updatedAt")
       SELECT gen_random_uuid()::text, ${org}, p.id, l.id, '-:-', s.on_hand, s.reserved, now()
       FROM ${name} s JOIN product_masters p ON p."organizationId" = ${org} AND lower(p.sku) = lower(s.sku)
       JOIN locations l ON l."organizationId" = ${org} AND l.code = s.location_code
       RETURNING id, "productMasterId", "locationId", "qtyOnHand", "qtyReserved")
     INSERT INTO stock_transactions (id, "organizationId", "stockLineId", "productMasterId", "locationId", "transactionType", bucket, "deltaQty", "qtyBefore", "qtyAfter", comment, "actorType", "createdBy", "sourceType", "sourceId")
     SELECT gen_random_uuid()::text, ${org}, x.id, x."productMasterId", x."locationId", 'IMPORT', b.bucket::"StockBucket", b.qty, 0, b.qty, 'Import row', 'API_KEY', 'bench', 'IMPORT_JOB', 'bench'
     FROM lines x CROSS JOIN LATERAL (VALUES ('ON_HAND', x."qtyOnHand"), ('RESERVED', x."qtyReserved")) AS b(bucket, qty)
     WHERE b.qty <> 0`,
    `INSERT INTO inventory_levels (id, "organizationId", "productMasterId", "locationId", "minQuantity", "reorderQuantity", "maxQuantity", "updatedAt")
     SELECT gen_random_uuid()::text, ${org}, p.id, l.id, s.threshold, s.threshold, s.threshold, now()
     FROM ${name} s JOIN product_masters p ON p."organizationId" = ${org} AND lower(p.sku) = lower(s.sku)
     JOIN locations l ON l."organizationId" = ${org} AND l.code = s.location_code
     ON CONFLICT ("productMasterId", "locationId") DO UPDATE SET "minQuantity" = EXCLUDED."minQuantity",
       "reorderQuantity" = GREATEST(inventory_levels."reorderQuantity", EXCLUDED."minQuantity"), "maxQuantity" = GREATEST(inventory_levels."maxQuantity", EXCLUDED."minQuantity"), "updatedAt" = now()`,
  ];
}

const FLOOR_TABLES: Record<string, string> = {
  catalog: 'product_masters, categories',
  'demand-history': 'demand_history',
  inventory: 'product_masters, categories, stock_lines, stock_transactions, inventory_levels, domain_events',
};

/**
 * What a kind's floor needs first, untimed in the same transaction: inventory rows name the catalog rows' new
 * SKUs, so the catalog's floor writes them before (and is rolled back with) the inventory's.
 */
const floorPrelude = (data: ImportKindData) => (data.kind === 'inventory' ? catalogData() : undefined);

/** PostgreSQL: the floor through psql, timed by its \timing from the COPY to the last statement. */
async function floorPostgres(url: string, data: ImportKindData, organizationId: string, work: string): Promise<{ seconds: number } | undefined> {
  const psqlLines = (kind: ImportKindData, file: string) => {
    const [create, copy, ...writes] = floorStatements(kind, organizationId)!;
    const name = copy!.split(' ')[1]!;
    return { create: `${create};`, timed: [`\\copy ${name} FROM '${file}' WITH (FORMAT csv)`, ...writes.map((w) => `${w.replace(/\s+/g, ' ')};`)] };
  };
  if (!floorStatements(data, organizationId)) return undefined;
  const file = join(work, `${data.kind}-floor.csv`);
  await writeFile(file, data.csv);
  const prelude = floorPrelude(data);
  const before = prelude ? psqlLines(prelude, join(work, `${prelude.kind}-floor.csv`)) : undefined;
  if (prelude) await writeFile(join(work, `${prelude.kind}-floor.csv`), prelude.csv);
  const own = psqlLines(data, file);
  const script = join(work, `${data.kind}-floor.sql`);
  await writeFile(
    script,
    ['BEGIN;', ...(before ? [before.create, ...before.timed] : []), own.create, '\\timing on', ...own.timed, '\\timing off', 'ROLLBACK;', `VACUUM ${FLOOR_TABLES[data.kind]};`, ''].join('\n'),
  );
  const { stdout } = await run('psql', [url, '-X', '-v', 'ON_ERROR_STOP=1', '-qf', script], { maxBuffer: 16 * 1024 * 1024 });
  const ms = [...stdout.matchAll(/Time: ([\d.]+) ms/g)].reduce((sum, m) => sum + Number(m[1]), 0);
  return { seconds: ms / 1000 };
}

/** PGlite: the floor with COPY ... FROM '/dev/blob', in the service's data folder (the service stopped). */
async function floorPglite(dataDir: string, data: ImportKindData, organizationId: string): Promise<{ seconds: number } | undefined> {
  const statements = floorStatements(data, organizationId);
  if (!statements) return undefined;
  const load = async (db: Awaited<ReturnType<typeof createPGlite>>, kind: ImportKindData, [copy, ...writes]: string[]) => {
    await db.query(copy!.replace('FROM STDIN', "FROM '/dev/blob'"), [], { blob: new Blob([kind.csv]) });
    for (const write of writes) await db.exec(write);
  };
  const [create, ...timed] = statements;
  const prelude = floorPrelude(data);
  const db = await createPGlite(dataDir);
  try {
    await db.exec('BEGIN');
    if (prelude) {
      const [preludeCreate, ...preludeTimed] = floorStatements(prelude, organizationId)!;
      await db.exec(preludeCreate!);
      await load(db, prelude, preludeTimed);
    }
    await db.exec(create!);
    const started = performance.now();
    await load(db, data, timed);
    const seconds = (performance.now() - started) / 1000;
    await db.exec('ROLLBACK');
    await db.exec(`VACUUM ${FLOOR_TABLES[data.kind]}`);
    return { seconds };
  } finally {
    await db.close();
  }
}

/** Both kinds on one backend: the service first (one server for both), then the bare COPYs. */
export async function benchImport(
  backend: string,
  target: { databaseUrl?: string; dataDir?: string },
  key: string,
  organizationId: string,
  database?: string,
): Promise<ImportResult[]> {
  await prepareImportData(target, organizationId);
  // Inventory last: its rows name the catalog's new SKUs, and it has no target.
  const kinds = [catalogData(), demandData(), inventoryData()];
  const work = await mkdtemp(join(tmpdir(), 'scm-bench-import-'));
  const dbEnv: Record<string, string> = target.databaseUrl ? { DATABASE_URL: target.databaseUrl } : { DATA_DIR: target.dataDir! };
  const results: ImportResult[] = [];
  try {
    // The floor first, rolled back (the service's import then finds the tables as they were, vacuumed).
    const floors = new Map<string, { seconds: number } | undefined>();
    for (const data of kinds) {
      const floor = target.databaseUrl ? await floorPostgres(target.databaseUrl, data, organizationId, work) : await floorPglite(target.dataDir!, data, organizationId);
      floors.set(data.kind, floor);
      if (floor) console.log(`  ${backend} set-based floor ${data.kind}: ${Math.round(data.rows.length / floor.seconds)} rows/s (COPY into staging + set-based INSERT ... SELECT into the real tables, rolled back)`);
    }
    const service = await startServer('src/main.ts', { ...dbEnv, SEED_DEMO: 'false', NODE_ENV: 'production', JWT_SECRET: randomBytes(32).toString('base64url') }, `${backend}-import`);
    try {
      for (const data of kinds) results.push({ ...(await importOne(backend, service.base, service.child.process.pid!, key, data, database, work)), floor: floors.get(data.kind) });
      const page = await getJson(`${service.base}/api/products?limit=1`, { headers: { authorization: `Bearer ${key}` } });
      const total = page.body?.meta?.total;
      console.log(`  ${backend}: ${total} products after the catalog import`);
    } finally {
      await stopServer(service);
    }
    for (const [i, data] of kinds.entries()) {
      results[i]!.copy = target.databaseUrl ? await copyPostgres(target.databaseUrl, data, work) : await copyPglite(target.dataDir!, data);
      console.log(`  ${backend} bare COPY ${data.kind}: ${Math.round(data.rows.length / results[i]!.copy!.seconds)} rows/s (${results[i]!.copy!.method})`);
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  return results;
}
