// Measuring a server under test with the load generator (bench/harness/load-generator.ts, its own
// process) while reading the CPU the server and its PostgreSQL backends used.
import { spawnTs, type Child } from './children.js';
import { busyShare, cpuBetween, machineCpu, sampleCpu } from './cpu.js';
import type { LoadResult, LoadSpec } from './load-generator.js';
import type { Row } from './report.js';
import { root, settings } from './settings.js';

export async function load(
  spec: Omit<LoadSpec, 'duration' | 'warmup' | 'connections'> & { connections?: number },
  seconds: { duration: number; warmup: number } = settings,
): Promise<LoadResult> {
  const full: LoadSpec = { ...spec, connections: spec.connections ?? settings.connections, duration: seconds.duration, warmup: seconds.warmup };
  const child = spawnTs('bench/harness/load-generator.ts', [JSON.stringify(full)], {}, root);
  const timer = setTimeout(() => child.process.kill('SIGKILL'), (seconds.duration + seconds.warmup + 30) * 1000);
  const code = await child.exited;
  clearTimeout(timer);
  const line = child.stdout().trim().split('\n').pop() ?? '';
  if (code !== 0) throw new Error(`load generator failed (exit ${code}):\n${child.output()}`);
  return JSON.parse(line) as LoadResult;
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
