// `npm run bench`: on PostgreSQL and PGlite, (1) REST and GraphQL product listing against a bare
// node:http server, (2) the inventory targets of issue 3 (availability check, channel-location
// page, adjustments across many lines and on one hot line, with a lost-update check), and (3) bulk
// import throughput of issue 4 with a latency probe. See BENCHMARKS.md for the method; options:
//   --products            only the product-list part (default: every part)
//   --inventory           only the inventory part
//   --import              only the import part
//   --forecast            only the forecast accuracy part (the Walmart series of ../shared/data imported
//                         and forecast through the API, on its own scratch database per backend; skipped
//                         when absent); combine the flags to run several parts
//   --transfers           only the transfer recommendation part: generation over 10,000 products × 10
//                         locations through the API, on its own scratch database per backend
//   --forecast-scale      only the forecast scale part: 10,000 synthetic series × 104 weeks generated for a
//                         scenario through POST /api/forecast/scenarios/{id}/generate while a probe measures
//                         GET /api/products, then the engine alone on the same series (bench/forecasting/)
//   --stalls              only the stall part: the reproductions of issue 17 (defects 1, 2, 7) and the
//                         heaviest request of every area (forecasting, products, inventory, transfers, import),
//                         the worst /health and the server's longest event-loop block (bench/stalls/)
//   --warehouse           only the warehouse part (issue 20): the cycle-count views all-products (a page, overdue
//                         only, a search) and to-resolve of one location of 10,000 products and 50,000 stock lines
//                         at 8 connections, each beside a bare node:http server running the same SQL, on its own
//                         scratch database per backend (bench/inventory/cycle-counts/); goal p99 < 100 ms on PostgreSQL
//   --planning            only the planning part (issue 21, bench/planning/): GET /api/planning/recommendations for a
//                         location of 10,000 products on PostgreSQL against a bare yardstick, and the inventory-summary
//                         widget asOf over a 1,000,000-row ledger (bench/dashboard/inventory-summary/); goals p99 < 200 ms
//   --events              only the events part (issue 23, bench/events/): signed adjustments at 1,000/s on one location's
//                         10,000 lines with no subscriber, then with 100 graphql-ws stockChanged subscribers and a
//                         webhook receiver: throughput, and the delay from each change to its arrival (PostgreSQL)
//   --instances           only the instances part (issue 24, bench/server/bench-instances.ts): the products list and adjustments served by
//                         one instance, then by two on one PostgreSQL with the load split: the ratio and PostgreSQL's CPU share
//   --scale               only the list scale part (issue 25, bench/row-counts/): the products list, a lookup by SKU (search= and sku=), a location's
//                         inventory list, channel-location page and 50 products with their stock (GraphQL) at 1,000, 100,000 and
//                         1,000,000 products (5 stock lines each),
//                         each size in its own scratch database (PostgreSQL), all loaded first, then each target at every size
//                         in order and in reverse (the lower p99 kept): p99 per size, goal flat within 20%. Not part of a
//                         run without part flags (the million takes minutes to load)
//   --scale-sizes A,B,C   the product counts of --scale (default 1000,100000,1000000)
//   --quick               3 s per target (1 s warm-up)
//   --duration N          seconds per target (BENCH_DURATION, default 10)
//   --warmup N            warm-up seconds (BENCH_WARMUP, default 2)
//   --connections N       concurrent connections (BENCH_CONNECTIONS, default 32)
//   --pglite-connections N  connections of the inventory targets on PGlite (BENCH_PGLITE_CONNECTIONS,
//                         default 8, at most --connections)
//   --rounds N            measure each target N times and keep the best (BENCH_ROUNDS, default 1): on a
//                         shared machine the best round is the one least disturbed by other work
//   --only postgres|pglite
//   --no-write            print only; leave BENCHMARKS.md alone
//   --wait-idle N         before each target wait up to N s (BENCH_WAIT_IDLE) for the machine to be
//                         less than 25% busy with other work
//   --profile             run the servers under --cpu-prof (into .bench/profiles) and print where their
//                         CPU went; profiling slows them, so this implies --no-write
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installExitHandlers, onCleanup, runCleanups, wasInterrupted } from './harness/children.js';
import { createScratchDatabase, loadBenchmarkData, PRODUCT_COUNT, probePostgres } from './harness/data.js';
import { args, parts, root, settings } from './harness/settings.js';
import { benchImport, type ImportResult } from './import/bench-import.js';
import { importSection, importTextTable, importVerdict } from './import/report.js';
import { benchInventory, INVENTORY_TARGETS } from './inventory/bench-inventory.js';
import { loadInventoryData } from './inventory/data.js';
import { inventorySection, inventoryTextTable, inventoryVerdict, type BackendChecks } from './inventory/report.js';
import { benchProducts, PRODUCT_TARGETS } from './products/bench-products.js';
import { DATA_FILE, runAccuracy } from './forecasting/accuracy.js';
import { accuracyThroughApi, type ApiAccuracy } from './forecasting/through-api.js';
import { forecastSection, forecastTextTable, forecastVerdict } from './forecasting/report.js';
import { benchTransfers } from './transfers/bench-transfers.js';
import { transfersSection, transfersTextTable, transfersVerdict } from './transfers/report.js';
import { benchForecastScale, SCALE_HORIZON, type ScaleResult } from './forecasting/bench-scale.js';
import { inProcessSpeed, poolSpeed } from './forecasting/engine-speed.js';
import { scaleSection, scaleTextTable, scaleVerdict, type ScaleResults } from './forecasting/scale-report.js';
import { SCALE_SERIES } from './forecasting/synthetic.js';
import { benchStalls, type StallResult } from './stalls/bench-stalls.js';
import { stallsSection, stallsTextTable, stallsVerdict } from './stalls/report.js';
import { benchWarehouse, WAREHOUSE_CONNECTIONS, WAREHOUSE_TARGETS } from './inventory/cycle-counts/bench-warehouse.js';
import { warehouseSection, warehouseTextTable, warehouseVerdict } from './inventory/cycle-counts/report.js';
import { benchPlanning, PLANNING_TARGETS } from './planning/bench-planning.js';
import { planningSection, planningTextTable, planningVerdict } from './planning/report.js';
import { benchEvents, EVENTS_TARGETS } from './events/bench-events.js';
import { eventsSection, eventsTextTable, eventsVerdict } from './events/report.js';
import { benchInstances, INSTANCES_TARGETS } from './server/bench-instances.js';
import { instancesSection, instancesTextTable, instancesVerdict } from './server/instances-report.js';
import { benchListScale, scaleSizes, SCALE_TARGETS } from './row-counts/bench-scale.js';
import { scaleListSection, scaleListTextTable, scaleListVerdict } from './row-counts/report.js';
import { appendToBenchmarks, describeMachine, markdownSection, textTable, verdict, type Row } from './harness/report.js';

const databaseUrl = process.env.BENCH_DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/postgres';
const backends = args.only ? [args.only] : ['postgres', 'pglite'];
const listScaleSizes = parts.scale ? scaleSizes(args['scale-sizes']) : [];
if (backends.some((b) => b !== 'postgres' && b !== 'pglite')) throw new Error('--only takes postgres or pglite');

const targetsPerBackend = (parts.products ? PRODUCT_TARGETS : 0) + (parts.inventory ? INVENTORY_TARGETS : 0);
// Targets per backend, plus loading, start-up and slack.
// Targets per backend, plus loading, start-up and slack (the import part: up to 10 minutes a backend).
installExitHandlers((backends.length * (targetsPerBackend * settings.rounds * (settings.duration + settings.warmup + settings.waitIdle) + 120 + (parts.import ? 600 : 0) + (parts.forecast ? 300 : 0) + (parts.transfers ? 600 : 0) + (parts.forecastScale ? 900 : 0) + (parts.stalls ? 900 : 0) + (parts.warehouse ? 300 + WAREHOUSE_TARGETS * settings.rounds * (settings.duration + settings.warmup + settings.waitIdle + 5) : 0) + (parts.planning ? 900 + PLANNING_TARGETS * settings.rounds * (settings.duration + settings.warmup + settings.waitIdle + 5) : 0) + (parts.events ? 450 + EVENTS_TARGETS * settings.rounds * (settings.duration + settings.warmup + settings.waitIdle + 5) : 0) + (parts.instances ? 300 + INSTANCES_TARGETS * (settings.duration + settings.warmup + 10) : 0) + (parts.scale ? listScaleSizes.length * (900 + 2 * SCALE_TARGETS * settings.rounds * (settings.duration + settings.warmup + settings.waitIdle + 5)) : 0)) + 600) * 1000);

interface Results {
  products: Row[];
  inventory: Row[];
  checks: BackendChecks[];
  notes: string[];
  inventoryNotes: string[];
  imports: ImportResult[];
  importNotes: string[];
  forecasts: ApiAccuracy[];
  forecastNotes: string[];
  scale: ScaleResult[];
  scaleNotes: string[];
}

/** Loads the data once, then runs the parts asked for against it. */
async function benchBackend(
  backend: string,
  target: { databaseUrl?: string; dataDir?: string },
  results: Results,
  database?: string,
): Promise<void> {
  const { key, organizationId } = await loadBenchmarkData(target);
  const inventoryData = parts.inventory ? await loadInventoryData(target, organizationId) : undefined;
  if (parts.products) {
    const dbEnv: Record<string, string> = target.databaseUrl ? { DATABASE_URL: target.databaseUrl } : { DATA_DIR: target.dataDir! };
    results.products.push(...(await benchProducts(backend, dbEnv, key, results.notes, database)));
  }
  if (inventoryData) {
    const run = await benchInventory(backend, target, key, organizationId, inventoryData, database);
    results.inventory.push(...run.rows);
    results.checks.push({ backend, checks: run.checks });
    results.inventoryNotes.push(...run.notes);
    if (run.samples.length) results.inventoryNotes.push(`Non-2xx answers seen (${backend}):\n\n${run.samples.map((s) => `    ${s}`).join('\n')}`);
  }
  // Last: it adds 100,000 products, which the other parts' pages would count.
  if (parts.import) results.imports.push(...(await benchImport(backend, target, key, organizationId, database)));
}

async function benchPostgres(results: Results): Promise<string | undefined> {
  const probe = await probePostgres(databaseUrl);
  if ('skip' in probe) {
    console.log(`PostgreSQL: ${probe.skip}; skipping PostgreSQL.`);
    results.notes.push(`PostgreSQL skipped: ${probe.skip}.`);
    results.inventoryNotes.push(`PostgreSQL skipped: ${probe.skip}.`);
    results.importNotes.push(`PostgreSQL skipped: ${probe.skip}.`);
    results.forecastNotes.push(`PostgreSQL skipped: ${probe.skip}.`);
    return undefined;
  }
  console.log(`PostgreSQL ${probe.version}: loading ${PRODUCT_COUNT} products${parts.inventory ? ' and their stock' : ''} into a scratch database`);
  const scratch = await createScratchDatabase(databaseUrl);
  onCleanup(scratch.drop);
  await benchBackend('PostgreSQL', { databaseUrl: scratch.url }, results, new URL(scratch.url).pathname.slice(1));
  return probe.version;
}

/** The forecast part on its own empty database: the other parts' 10,000 products play no part in it. */
async function forecastPostgres(results: Results): Promise<string | undefined> {
  const probe = await probePostgres(databaseUrl);
  if ('skip' in probe) {
    console.log(`PostgreSQL: ${probe.skip}; skipping the forecast part on PostgreSQL.`);
    results.forecastNotes.push(`PostgreSQL skipped: ${probe.skip}.`);
    return undefined;
  }
  console.log(`PostgreSQL ${probe.version}: forecast accuracy through the API on a scratch database`);
  const scratch = await createScratchDatabase(databaseUrl);
  try {
    results.forecasts.push(await accuracyThroughApi('PostgreSQL', { databaseUrl: scratch.url }));
  } finally {
    await scratch.drop();
  }
  return probe.version;
}

async function forecastPglite(results: Results): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'scm-bench-forecast-'));
  onCleanup(() => rm(dataDir, { recursive: true, force: true }));
  console.log(`PGlite: forecast accuracy through the API in ${dataDir}`);
  results.forecasts.push(await accuracyThroughApi('PGlite', { dataDir }));
}

/** The forecast scale part on its own empty database. */
async function forecastScalePostgres(results: Results): Promise<string | undefined> {
  const probe = await probePostgres(databaseUrl);
  if ('skip' in probe) {
    console.log(`PostgreSQL: ${probe.skip}; skipping the forecast scale part on PostgreSQL.`);
    results.scaleNotes.push(`PostgreSQL skipped: ${probe.skip}.`);
    return undefined;
  }
  console.log(`PostgreSQL ${probe.version}: forecast generation at scale on a scratch database`);
  const scratch = await createScratchDatabase(databaseUrl);
  onCleanup(scratch.drop);
  try {
    results.scale.push(await benchForecastScale('PostgreSQL', { databaseUrl: scratch.url }, new URL(scratch.url).pathname.slice(1)));
  } finally {
    await scratch.drop();
  }
  return probe.version;
}

async function forecastScalePglite(results: Results): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'scm-bench-scale-pglite-'));
  onCleanup(() => rm(dataDir, { recursive: true, force: true }));
  console.log(`PGlite: forecast generation at scale in ${dataDir}`);
  results.scale.push(await benchForecastScale('PGlite', { dataDir }));
}

/** The engine alone on the scale series: the GENERATION profile on all of them, the default on a tenth (it is ~100 times slower). */
async function engineSpeeds() {
  const generation = { horizon: SCALE_HORIZON, profile: 'GENERATION' as const };
  return [
    inProcessSpeed(SCALE_SERIES, generation),
    await poolSpeed(SCALE_SERIES, 1, generation),
    await poolSpeed(SCALE_SERIES, 2, generation),
    inProcessSpeed(SCALE_SERIES / 10, { horizon: SCALE_HORIZON }),
  ];
}

/** The stall part on its own empty database. */
async function stallsPostgres(results: StallResult[]): Promise<string | undefined> {
  const probe = await probePostgres(databaseUrl);
  if ('skip' in probe) {
    console.log(`PostgreSQL: ${probe.skip}; skipping the stall part on PostgreSQL.`);
    return undefined;
  }
  console.log(`PostgreSQL ${probe.version}: stalls on a scratch database`);
  const scratch = await createScratchDatabase(databaseUrl);
  onCleanup(scratch.drop);
  try {
    results.push(await benchStalls('PostgreSQL', { databaseUrl: scratch.url }));
  } finally {
    await scratch.drop();
  }
  return probe.version;
}

async function stallsPglite(results: StallResult[]): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'scm-bench-stalls-pglite-'));
  onCleanup(() => rm(dataDir, { recursive: true, force: true }));
  console.log(`PGlite: stalls in ${dataDir}`);
  results.push(await benchStalls('PGlite', { dataDir }));
}

async function benchPglite(results: Results): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'scm-bench-pglite-'));
  onCleanup(() => rm(dataDir, { recursive: true, force: true }));
  console.log(`PGlite: loading ${PRODUCT_COUNT} products${parts.inventory ? ' and their stock' : ''} into ${dataDir}`);
  // Loaded and closed here first: the data folder has one owner at a time.
  await benchBackend('PGlite', { dataDir }, results);
}

const serverParts = parts.products || parts.inventory || parts.import;

async function main() {
  const started = new Date();
  console.log(
    `bench (${settings.mode}; ${[parts.products && 'products', parts.inventory && 'inventory', parts.import && 'import', parts.forecast && 'forecast', parts.forecastScale && 'forecast scale', parts.transfers && 'transfers', parts.stalls && 'stalls', parts.warehouse && 'warehouse', parts.planning && 'planning', parts.events && 'events', parts.instances && 'instances', parts.scale && 'list scale'].filter(Boolean).join(' and ')}): ` +
      `${settings.duration} s per target, ${settings.warmup} s warm-up, ${settings.connections} connections` +
      (parts.inventory && settings.pgliteConnections !== settings.connections ? ` (inventory on PGlite: ${settings.pgliteConnections})` : '') +
      (parts.warehouse ? ` (warehouse: ${WAREHOUSE_CONNECTIONS}, on PGlite ${settings.pgliteConnections})` : '') +
      `, best of ${settings.rounds} round(s)`,
  );
  const results: Results = { products: [], inventory: [], checks: [], notes: [], inventoryNotes: [], imports: [], importNotes: [], forecasts: [], forecastNotes: [], scale: [], scaleNotes: [] };
  let postgresVersion: string | undefined;
  let transfers: Awaited<ReturnType<typeof benchTransfers>> | undefined;
  let warehouse: Awaited<ReturnType<typeof benchWarehouse>> | undefined;
  let planning: Awaited<ReturnType<typeof benchPlanning>> | undefined;
  let events: Awaited<ReturnType<typeof benchEvents>> | undefined;
  let instances: Awaited<ReturnType<typeof benchInstances>> | undefined;
  let listScale: Awaited<ReturnType<typeof benchListScale>> | undefined;
  const stalls: StallResult[] = [];
  const forecastData = parts.forecast && existsSync(DATA_FILE);
  if (parts.forecast && !forecastData) console.log(`Forecast accuracy skipped: ${DATA_FILE} is absent (see ../shared/data/README.md).`);
  try {
    if (serverParts && backends.includes('postgres')) postgresVersion = await benchPostgres(results);
    if (serverParts && backends.includes('pglite')) await benchPglite(results);
    if (forecastData && backends.includes('postgres')) postgresVersion = (await forecastPostgres(results)) ?? postgresVersion;
    if (forecastData && backends.includes('pglite')) await forecastPglite(results);
    if (parts.transfers) {
      transfers = await benchTransfers(databaseUrl, backends);
      postgresVersion = transfers.postgresVersion ?? postgresVersion;
    }
    if (parts.forecastScale && backends.includes('postgres')) postgresVersion = (await forecastScalePostgres(results)) ?? postgresVersion;
    if (parts.forecastScale && backends.includes('pglite')) await forecastScalePglite(results);
    if (parts.stalls && backends.includes('postgres')) postgresVersion = (await stallsPostgres(stalls)) ?? postgresVersion;
    if (parts.stalls && backends.includes('pglite')) await stallsPglite(stalls);
    if (parts.warehouse) {
      warehouse = await benchWarehouse(databaseUrl, backends);
      postgresVersion = warehouse.postgresVersion ?? postgresVersion;
    }
    if (parts.planning) {
      planning = await benchPlanning(databaseUrl, backends);
      postgresVersion = planning.postgresVersion ?? postgresVersion;
    }
    if (parts.scale) {
      listScale = await benchListScale(databaseUrl, backends, listScaleSizes);
      postgresVersion = listScale.postgresVersion ?? postgresVersion;
    }
    if (parts.instances) {
      instances = await benchInstances(databaseUrl, backends);
      postgresVersion = instances.postgresVersion ?? postgresVersion;
    }
    if (parts.events) {
      events = await benchEvents(databaseUrl, backends);
      postgresVersion = events.postgresVersion ?? postgresVersion;
    }
  } finally {
    await runCleanups();
  }
  // The reference methods in this process, no database: after the servers so that they do not share the CPU with them.
  const inProcess = forecastData ? runAccuracy() : null;
  const forecast = inProcess ? { api: results.forecasts, inProcess, notes: results.forecastNotes } : null;
  const scale: ScaleResults | null = parts.forecastScale ? { endToEnd: results.scale, engine: await engineSpeeds(), notes: results.scaleNotes } : null;
  const machine = describeMachine(root, postgresVersion);
  const write = !args['no-write'] && !args.profile;
  if (results.products.length) {
    console.log(`\n${textTable(results.products)}\n\n${verdict(results.products)}`);
    if (write) appendToBenchmarks(root, markdownSection(started, machine, { ...settings, products: PRODUCT_COUNT }, results.products, results.notes));
  }
  if (results.inventory.length) {
    console.log(`\n${inventoryTextTable(results.inventory, results.checks)}\n\n${inventoryVerdict(results.inventory, results.checks).join('\n')}`);
    if (write) appendToBenchmarks(root, inventorySection(started, machine, settings, results.inventory, results.checks, results.inventoryNotes));
  }
  if (results.imports.length) {
    console.log(`\n${importTextTable(results.imports)}\n\n${importVerdict(results.imports).join('\n')}`);
    if (write) appendToBenchmarks(root, importSection(started, machine, settings.mode, results.imports, results.importNotes));
  }
  if (forecast) {
    console.log(`\n${forecastTextTable(forecast)}\n\n${forecastVerdict(forecast).join('\n')}`);
    if (write) appendToBenchmarks(root, forecastSection(started, machine, forecast));
  }
  if (scale) {
    console.log(`\n${scaleTextTable(scale)}\n\n${scaleVerdict(scale).join('\n')}`);
    if (write) appendToBenchmarks(root, scaleSection(started, machine, scale));
  }
  if (transfers?.runs.length) {
    console.log(`\n${transfersTextTable(transfers)}\n\n${transfersVerdict(transfers).join('\n')}`);
    if (write) appendToBenchmarks(root, transfersSection(started, machine, transfers));
  }
  if (stalls.length) {
    console.log(`\n${stallsTextTable(stalls)}\n\n${stallsVerdict(stalls).join('\n')}`);
    if (write) appendToBenchmarks(root, stallsSection(started, machine, stalls));
  }
  if (warehouse?.rows.length) {
    console.log(`\n${warehouseTextTable(warehouse)}\n\n${warehouseVerdict(warehouse).join('\n')}`);
    if (write) appendToBenchmarks(root, warehouseSection(started, machine, settings, warehouse));
  }
  if (planning?.rows.length) {
    console.log(`\n${planningTextTable(planning)}\n\n${planningVerdict(planning).join('\n')}`);
    if (write) appendToBenchmarks(root, planningSection(started, machine, settings, planning));
  }
  if (events?.rows.length) {
    console.log(`\n${eventsTextTable(events)}\n\n${eventsVerdict(events).join('\n')}`);
    if (write) appendToBenchmarks(root, eventsSection(started, machine, settings, events));
  }
  if (instances?.rows.length) {
    console.log(`\n${instancesTextTable(instances)}\n\n${instancesVerdict(instances).join('\n')}`);
    if (write) appendToBenchmarks(root, instancesSection(started, machine, settings, instances));
  }
  if (listScale?.rows.length) {
    console.log(`\n${scaleListTextTable(listScale)}\n\n${scaleListVerdict(listScale).join('\n')}`);
    if (write) appendToBenchmarks(root, scaleListSection(started, machine, settings, listScale));
  }
  if (write && (listScale?.rows.length || instances?.rows.length || results.products.length || results.inventory.length || results.imports.length || forecast || scale || transfers?.runs.length || stalls.length || warehouse?.rows.length || planning?.rows.length || events?.rows.length)) console.log('Recorded in BENCHMARKS.md (the sections replaced moved to bench/history.md)');
  const failedCheck =
    results.checks.some((b) => b.checks.some((c) => !c.check.ok)) || Boolean(transfers?.checks.some((c) => !c.ok)) || Boolean(warehouse?.checks.some((c) => !c.ok)) || Boolean(planning?.checks.some((c) => !c.ok));
  if (failedCheck) process.exitCode = 1;
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  async (error) => {
    if (wasInterrupted()) return;
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    await runCleanups();
    process.exit(1);
  },
);
