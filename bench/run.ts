// `npm run bench`: REST and GraphQL product listing against a bare node:http server, on PostgreSQL and
// PGlite. See BENCHMARKS.md for the method; options:
//   --quick               3 s per target (1 s warm-up)
//   --duration N          seconds per target (BENCH_DURATION, default 10)
//   --warmup N            warm-up seconds (BENCH_WARMUP, default 2)
//   --connections N       concurrent connections (BENCH_CONNECTIONS, default 32)
//   --rounds N            measure each target N times and keep the best (BENCH_ROUNDS, default 1): on a
//                         shared machine the best round is the one least disturbed by other work
//   --only postgres|pglite
//   --no-write            print only; leave BENCHMARKS.md alone
//   --wait-idle N         before each target wait up to N s (BENCH_WAIT_IDLE) for the machine to be
//                         less than 25% busy with other work
//   --profile             run the servers under --cpu-prof (into .bench/profiles) and print where their
//                         CPU went; profiling slows them, so this implies --no-write
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import { freePort, installExitHandlers, onCleanup, runCleanups, spawnTs, stop, waitForHealth, wasInterrupted, type Child } from './children.js';
import { busyShare, cpuBetween, machineCpu, sampleCpu } from './cpu.js';
import { summarizeProfile } from './profile-summary.js';
import { createScratchDatabase, loadBenchmarkData, PRODUCT_COUNT, probePostgres } from './data.js';
import type { LoadResult, LoadSpec } from './load.js';
import { appendToBenchmarks, describeMachine, markdownSection, textTable, verdict, type Row } from './report.js';

const root = fileURLToPath(new URL('..', import.meta.url));

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    duration: { type: 'string' },
    warmup: { type: 'string' },
    connections: { type: 'string' },
    only: { type: 'string' },
    'no-write': { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
    'wait-idle': { type: 'string' },
    rounds: { type: 'string' },
  },
});

function positive(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || n > 600) throw new Error(`${name} must be a number of 1 to 600, got ${value}`);
  return n;
}

const settings = {
  mode: args.quick ? 'quick' : 'full',
  duration: args.quick ? 3 : positive('duration', args.duration ?? process.env.BENCH_DURATION, 10),
  warmup: args.quick ? 1 : positive('warmup', args.warmup ?? process.env.BENCH_WARMUP, 2),
  connections: Math.round(positive('connections', args.connections ?? process.env.BENCH_CONNECTIONS, 32)),
  products: PRODUCT_COUNT,
  rounds: Math.round(positive('rounds', args.rounds ?? process.env.BENCH_ROUNDS, 1)),
  waitIdle: Number(args['wait-idle'] ?? process.env.BENCH_WAIT_IDLE ?? 0) || 0,
};
const databaseUrl = process.env.BENCH_DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/postgres';
const backends = args.only ? [args.only] : ['postgres', 'pglite'];
if (backends.some((b) => b !== 'postgres' && b !== 'pglite')) throw new Error('--only takes postgres or pglite');

const GRAPHQL_QUERY =
  '{ productsPage(limit: 50) { items { id sku name description organizationId createdAt updatedAt } page limit total totalPages } }';

// Three targets per backend, plus loading, start-up and slack.
installExitHandlers((backends.length * 3 * settings.rounds * (settings.duration + settings.warmup + settings.waitIdle) + 600) * 1000);

async function load(spec: Omit<LoadSpec, 'connections' | 'duration' | 'warmup'>): Promise<LoadResult> {
  const full: LoadSpec = { ...spec, connections: settings.connections, duration: settings.duration, warmup: settings.warmup };
  const child = spawnTs('bench/load.ts', [JSON.stringify(full)], {}, root);
  const timer = setTimeout(() => child.process.kill('SIGKILL'), (settings.duration + settings.warmup + 30) * 1000);
  const code = await child.exited;
  clearTimeout(timer);
  const line = child.stdout().trim().split('\n').pop() ?? '';
  if (code !== 0) throw new Error(`load generator failed (exit ${code}):\n${child.output()}`);
  return JSON.parse(line) as LoadResult;
}

async function getJson(url: string, init: RequestInit = {}): Promise<{ status: number; body: any }> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) };
  } catch {
    return { status: response.status, body: text };
  }
}

function expectPage(what: string, status: number, page: { data?: unknown[]; meta?: { total?: number } } | undefined) {
  if (status !== 200 || page?.data?.length !== 50 || page.meta?.total !== PRODUCT_COUNT) {
    throw new Error(`${what} did not answer a full page: ${status} ${JSON.stringify(page).slice(0, 500)}`);
  }
}

interface Server {
  child: Child;
  base: string;
  profileDir?: string;
}

async function startServer(script: string, env: Record<string, string>, name: string): Promise<Server> {
  const port = await freePort();
  let profileDir: string | undefined;
  if (args.profile) {
    profileDir = join(root, '.bench', 'profiles', `${new Date().toISOString().replace(/[:.]/g, '-')}-${name}`);
    await mkdir(profileDir, { recursive: true });
  }
  const nodeArgs = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const child = spawnTs(script, [], { ...env, PORT: String(port), HOST: '127.0.0.1' }, root, nodeArgs);
  const base = `http://127.0.0.1:${port}`;
  await waitForHealth(base, child);
  return { child, base, profileDir };
}

async function stopServer(server: Server) {
  await stop(server.child);
  if (!server.profileDir) return;
  for (const file of await readdir(server.profileDir)) {
    if (file.endsWith('.cpuprofile')) console.log(`profile ${join(server.profileDir, file)}\n${summarizeProfile(join(server.profileDir, file))}`);
  }
}

function show(row: Row) {
  const r = row.result;
  const bad = r.errors + r.timeouts + r.non2xx ? `  (${r.errors} errors, ${r.timeouts} timeouts, ${r.non2xx} non-2xx)` : '';
  const db = row.backend === 'PostgreSQL' ? ` + ${row.cpu?.databaseMs.toFixed(2)} ms PostgreSQL` : ' (PGlite included)';
  const cpu = row.cpu ? `, CPU/request ${row.cpu.serverMs.toFixed(2)} ms Node${db}` : '';
  const others = `, other work ${(row.otherShare * 100).toFixed(0)}% of the machine`;
  console.log(`  ${row.backend} ${row.target}: ${r.requestsPerSec.toFixed(0)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms${cpu}${others}${bad}`);
}

async function waitForQuiet() {
  if (!settings.waitIdle) return;
  const deadline = Date.now() + settings.waitIdle * 1000;
  let share = await busyShare(2000);
  while (share > 0.25 && Date.now() < deadline) {
    console.log(`  machine ${(share * 100).toFixed(0)}% busy with other work; waiting`);
    share = await busyShare(5000);
  }
}

/** The best of `settings.rounds` autocannon runs against `server` (by requests/s). */
async function measure(backend: string, target: string, server: Child, database: string | undefined, spec: Parameters<typeof load>[0]) {
  let best: Row | undefined;
  for (let round = 0; round < settings.rounds; round++) {
    const row = await measureOnce(backend, target, server, database, spec);
    if (!best || row.result.requestsPerSec > best.result.requestsPerSec) best = row;
  }
  return best!;
}

/** One autocannon run against `server`, with the CPU the server (and its PostgreSQL backends) used meanwhile. */
async function measureOnce(backend: string, target: string, server: Child, database: string | undefined, spec: Parameters<typeof load>[0]) {
  await waitForQuiet();
  const machineBefore = machineCpu();
  const before = sampleCpu(server.process.pid!, database);
  const result = await load(spec);
  const spent = cpuBetween(before, sampleCpu(server.process.pid!, database));
  const machineAfter = machineCpu();
  const requests = result.total + result.warmupTotal;
  const cpu = requests ? { serverMs: (spent.server * 1000) / requests, databaseMs: (spent.database * 1000) / requests } : undefined;
  const others = machineAfter.busy - machineBefore.busy - spent.server - spent.database - result.cpuSeconds;
  const otherShare = Math.max(0, others / Math.max(1e-9, machineAfter.total - machineBefore.total));
  const row: Row = { backend, target, result, cpu, otherShare };
  show(row);
  return row;
}

/** Service first (REST, then GraphQL), then the bare server; one server at a time. */
async function benchBackend(backend: string, dbEnv: Record<string, string>, key: string, notes: string[], database?: string): Promise<Row[]> {
  const auth = { authorization: `Bearer ${key}` };
  const service = await startServer(
    'src/main.ts',
    { ...dbEnv, SEED_DEMO: 'false', NODE_ENV: 'production', JWT_SECRET: randomBytes(32).toString('base64url') },
    `${backend}-service`,
  );
  const rows: Row[] = [];
  let restBody: unknown;
  try {
    const restUrl = `${service.base}/api/products?limit=50`;
    const rest = await getJson(restUrl, { headers: auth });
    expectPage('REST', rest.status, rest.body);
    restBody = rest.body;
    const gqlInit = { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ query: GRAPHQL_QUERY }) };
    const gql = await getJson(`${service.base}/graphql`, gqlInit);
    const gqlPage = gql.body?.data?.productsPage;
    expectPage('GraphQL', gql.status, gqlPage && { data: gqlPage.items, meta: gqlPage });

    rows.push(await measure(backend, 'REST GET /api/products?limit=50', service.child, database, { url: restUrl, headers: auth }));
    const gqlSpec = { url: `${service.base}/graphql`, method: 'POST' as const, headers: gqlInit.headers, body: gqlInit.body };
    rows.push(await measure(backend, 'GraphQL productsPage(limit: 50)', service.child, database, gqlSpec));
  } finally {
    await stopServer(service);
  }

  const bare = await startServer('bench/bare-server.ts', dbEnv, `${backend}-bare`);
  try {
    const url = `${bare.base}/api/products?limit=50`;
    const check = await getJson(url, { headers: auth });
    expectPage('bare server', check.status, check.body);
    if (!isDeepStrictEqual(check.body, restBody)) {
      const note = `Warning (${backend}): the bare server's body differs from the REST body.`;
      console.warn(note);
      notes.push(note);
    }
    rows.unshift(await measure(backend, 'bare node:http', bare.child, database, { url, headers: auth }));
  } finally {
    await stopServer(bare);
  }
  const bareRps = rows[0]!.result.requestsPerSec;
  for (const row of rows) row.ratio = bareRps ? row.result.requestsPerSec / bareRps : undefined;
  return rows;
}

async function benchPostgres(notes: string[]): Promise<{ rows: Row[]; version?: string }> {
  const probe = await probePostgres(databaseUrl);
  if ('skip' in probe) {
    console.log(`PostgreSQL: ${probe.skip}; skipping PostgreSQL.`);
    notes.push(`PostgreSQL skipped: ${probe.skip}.`);
    return { rows: [] };
  }
  console.log(`PostgreSQL ${probe.version}: loading ${PRODUCT_COUNT} products into a scratch database`);
  const scratch = await createScratchDatabase(databaseUrl);
  onCleanup(scratch.drop);
  const { key } = await loadBenchmarkData({ databaseUrl: scratch.url });
  return { rows: await benchBackend('PostgreSQL', { DATABASE_URL: scratch.url }, key, notes, new URL(scratch.url).pathname.slice(1)), version: probe.version };
}

async function benchPglite(notes: string[]): Promise<Row[]> {
  const dataDir = await mkdtemp(join(tmpdir(), 'scm-bench-pglite-'));
  onCleanup(() => rm(dataDir, { recursive: true, force: true }));
  console.log(`PGlite: loading ${PRODUCT_COUNT} products into ${dataDir}`);
  // Loaded and closed here first: the data folder has one owner at a time.
  const { key } = await loadBenchmarkData({ dataDir });
  return benchBackend('PGlite', { DATA_DIR: dataDir }, key, notes);
}

async function main() {
  const started = new Date();
  console.log(
    `bench (${settings.mode}): ${settings.duration} s per target, ${settings.warmup} s warm-up, ${settings.connections} connections, ` +
      `best of ${settings.rounds} round(s)`,
  );
  const rows: Row[] = [];
  const notes: string[] = [];
  let postgresVersion: string | undefined;
  try {
    if (backends.includes('postgres')) {
      const pg = await benchPostgres(notes);
      rows.push(...pg.rows);
      postgresVersion = pg.version;
    }
    if (backends.includes('pglite')) rows.push(...(await benchPglite(notes)));
  } finally {
    await runCleanups();
  }
  const machine = describeMachine(root, postgresVersion);
  console.log(`\n${textTable(rows)}\n\n${verdict(rows)}`);
  if (!args['no-write'] && !args.profile && rows.length) {
    appendToBenchmarks(join(root, 'BENCHMARKS.md'), markdownSection(started, machine, settings, rows, notes));
    console.log('Appended to BENCHMARKS.md');
  }
}

main().then(
  () => process.exit(0),
  async (error) => {
    if (wasInterrupted()) return;
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    await runCleanups();
    process.exit(1);
  },
);
