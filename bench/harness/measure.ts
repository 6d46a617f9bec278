// What every part of `npm run bench` shares: the command-line settings, starting and stopping a server
// under test, and measuring it with the load generator (bench/load.ts, its own process) while reading
// the CPU the server and its PostgreSQL backends used. See bench/run.ts for the options.
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { freePort, spawnTs, stop, waitForHealth, type Child } from './children.js';
import { busyShare, cpuBetween, machineCpu, sampleCpu } from './cpu.js';
import type { LoadResult, LoadSpec } from './load.js';
import { summarizeProfile } from './profile-summary.js';
import { RATE_LIMITS_RAISED } from './rate-limit-env.js';
import type { Row } from './report.js';

export const root = fileURLToPath(new URL('..', import.meta.url));

export const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    duration: { type: 'string' },
    warmup: { type: 'string' },
    connections: { type: 'string' },
    'pglite-connections': { type: 'string' },
    only: { type: 'string' },
    products: { type: 'boolean', default: false },
    inventory: { type: 'boolean', default: false },
    import: { type: 'boolean', default: false },
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

const connections = Math.round(positive('connections', args.connections ?? process.env.BENCH_CONNECTIONS, 32));

export const settings = {
  mode: args.quick ? 'quick' : 'full',
  duration: args.quick ? 3 : positive('duration', args.duration ?? process.env.BENCH_DURATION, 10),
  warmup: args.quick ? 1 : positive('warmup', args.warmup ?? process.env.BENCH_WARMUP, 2),
  connections,
  /**
   * Connections for the inventory targets on PGlite, which serves one query at a time: more only
   * lengthen the queue (at 32 a request waits seconds, longer than a --quick run).
   */
  pgliteConnections: Math.round(positive('pglite-connections', args['pglite-connections'] ?? process.env.BENCH_PGLITE_CONNECTIONS, Math.min(8, connections))),
  rounds: Math.round(positive('rounds', args.rounds ?? process.env.BENCH_ROUNDS, 1)),
  waitIdle: Number(args['wait-idle'] ?? process.env.BENCH_WAIT_IDLE ?? 0) || 0,
};

/** None of --products, --inventory, --import: every part. */
const none = !args.products && !args.inventory && !args.import;
export const parts = {
  products: args.products || none,
  inventory: args.inventory || none,
  import: args.import || none,
};

export async function load(spec: Omit<LoadSpec, 'duration' | 'warmup' | 'connections'> & { connections?: number }): Promise<LoadResult> {
  const full: LoadSpec = { ...spec, connections: spec.connections ?? settings.connections, duration: settings.duration, warmup: settings.warmup };
  const child = spawnTs('bench/load.ts', [JSON.stringify(full)], {}, root);
  const timer = setTimeout(() => child.process.kill('SIGKILL'), (settings.duration + settings.warmup + 30) * 1000);
  const code = await child.exited;
  clearTimeout(timer);
  const line = child.stdout().trim().split('\n').pop() ?? '';
  if (code !== 0) throw new Error(`load generator failed (exit ${code}):\n${child.output()}`);
  return JSON.parse(line) as LoadResult;
}

export async function getJson(url: string, init: RequestInit = {}): Promise<{ status: number; body: any }> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) };
  } catch {
    return { status: response.status, body: text };
  }
}

export interface Server {
  child: Child;
  base: string;
  profileDir?: string;
}

export async function startServer(script: string, env: Record<string, string>, name: string): Promise<Server> {
  if (script === 'src/main.ts') env = { ...RATE_LIMITS_RAISED, ...env };
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

export async function stopServer(server: Server) {
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

export type MeasureSpec = Parameters<typeof load>[0];

/**
 * The best of `settings.rounds` autocannon runs against `server` (by requests/s). `each` sees every
 * round's result (the adjustment targets keep what every round wrote to check it afterwards).
 */
export async function measure(backend: string, target: string, server: Child, database: string | undefined, spec: MeasureSpec, each?: (result: LoadResult) => Promise<unknown>) {
  let best: Row | undefined;
  for (let round = 0; round < settings.rounds; round++) {
    const row = await measureOnce(backend, target, server, database, spec);
    await each?.(row.result);
    if (!best || row.result.requestsPerSec > best.result.requestsPerSec) best = row;
  }
  return best!;
}

/** One autocannon run against `server`, with the CPU the server (and its PostgreSQL backends) used meanwhile. */
export async function measureOnce(backend: string, target: string, server: Child, database: string | undefined, spec: MeasureSpec) {
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
  const row: Row = { backend, target, result, cpu, otherShare, connections: spec.connections ?? settings.connections };
  show(row);
  return row;
}
