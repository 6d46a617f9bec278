// The forecast scale part of `npm run bench` (--forecast-scale): 10,000 synthetic series × 104 weeks
// (scale-data.ts, bulk SQL, not timed) generated for a DRAFT scenario end to end through the service —
// POST /api/forecast/scenarios/{id}/generate, then GET /api/forecast/runs/{id} every 250 ms until the
// run is COMPLETED — while the latency probe of the import part (one GET /api/products?limit=50 at a
// time, back to back, its own process) measures what other requests see. The server runs as its own
// process with its defaults (FORECAST_WORKERS unset: every core but one), a preloaded sampler recording
// its RSS and main-thread heap (memory-sampler.mjs).
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, sleep, spawnTs, stop, waitForHealth, type Child } from '../harness/children.js';
import { cpuBetween, machineCpu, sampleCpu } from '../harness/cpu.js';
import { getJson } from '../harness/servers.js';
import { RATE_LIMITS_RAISED } from '../harness/rate-limit-env.js';
import { root } from '../harness/settings.js';
import { loadScaleData, type ScaleData } from './scale-data.js';

export const SCALE_HORIZON = 13;
const POLL_MS = 250;
const RUN_TIMEOUT_MS = 10 * 60_000;
/** Seconds of probing before the run is asked for: what the same requests take without it. */
const BASELINE_SECONDS = 5;

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : Number.NaN);

export interface ProbeStats { count: number; p50: number; p99: number; max: number; bad: number }
export interface ProgressSample { seconds: number; processedSeries: number; status: string }

export interface ScaleResult {
  backend: string;
  setup: { series: number; rows: number; seconds: number };
  /** 'ok', or why the end-to-end part could not run (for example the endpoint missing). */
  outcome: string;
  run?: {
    id: string;
    status: string;
    totalSeries: number;
    processedSeries: number;
    totalForecast: number | null;
    /** From the POST to the first poll that saw the run COMPLETED (or FAILED). */
    seconds: number;
    seriesPerSecond: number;
    postMs: number;
    progress: ProgressSample[];
    failureReason?: string;
  };
  baseline: ProbeStats;
  during: ProbeStats;
  memory: { startRssMiB: number; peakRssMiB: number; startHeapMiB: number; peakHeapMiB: number };
  /** The server's request thread during the run: its longest event-loop stall, and the 99th percentile of the longest stall of each 250 ms. */
  stalls: { maxMs: number; p99Ms: number };
  cpu: { server: number; database: number; otherShare: number };
  /** One-minute load average of the machine when the run was asked for and when it ended (2 cores: 2 is full). */
  loadAverage: [number, number];
}

function probeStats(samples: [number, number, number][], from: number, to: number): ProbeStats {
  const window = samples.filter(([at]) => at >= from && at <= to);
  const latencies = window.map(([, ms]) => ms).sort((a, b) => a - b);
  return { count: latencies.length, p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: latencies.at(-1) ?? Number.NaN, bad: window.filter(([, , s]) => s !== 200).length };
}

async function memoryOf(file: string, from: number, to: number) {
  const lines = existsSync(file) ? (await readFile(file, 'utf8')).trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as { t: number; rss: number; heapUsed: number; stallMs: number }) : [];
  const before = lines.filter((l) => l.t <= from).at(-1) ?? lines[0];
  const window = lines.filter((l) => l.t >= from && l.t <= to);
  const mib = (b: number) => b / 1024 / 1024;
  const stalls = window.map((l) => l.stallMs).sort((a, b) => a - b);
  return {
    stalls: { maxMs: stalls.at(-1) ?? Number.NaN, p99Ms: percentile(stalls, 99) },
    memory: {
      startRssMiB: mib(before?.rss ?? Number.NaN),
      peakRssMiB: mib(Math.max(...window.map((l) => l.rss), before?.rss ?? 0)),
      startHeapMiB: mib(before?.heapUsed ?? Number.NaN),
      peakHeapMiB: mib(Math.max(...window.map((l) => l.heapUsed), before?.heapUsed ?? 0)),
    },
  };
}

async function startService(dbEnv: Record<string, string>, memoryFile: string): Promise<{ child: Child; base: string }> {
  const port = await freePort();
  const env = { ...RATE_LIMITS_RAISED, ...dbEnv, SEED_DEMO: 'false', NODE_ENV: 'production', JWT_SECRET: randomBytes(32).toString('base64url'), SCALE_MEMORY_FILE: memoryFile, PORT: String(port), HOST: '127.0.0.1' };
  const child = spawnTs('src/main.ts', [], env, root, ['--import', './bench/forecasting/memory-sampler.mjs']);
  const base = `http://127.0.0.1:${port}`;
  await waitForHealth(base, child);
  return { child, base };
}

const runOf = (body: any) => (body && typeof body === 'object' ? (body.run ?? body) : {});

/** Runs against a fresh database (a scratch PostgreSQL database or an empty PGlite folder) that no process holds open. */
export async function benchForecastScale(backend: string, target: { databaseUrl?: string; dataDir?: string }, database?: string): Promise<ScaleResult> {
  console.log(`  ${backend}: loading 10,000 series × 104 weeks of demand history (bulk SQL, not timed)`);
  const setup = await loadScaleData(target);
  console.log(`  ${backend}: ${setup.rows} history rows in ${setup.seconds.toFixed(1)} s`);
  const dbEnv: Record<string, string> = target.databaseUrl ? { DATABASE_URL: target.databaseUrl } : { DATA_DIR: target.dataDir! };
  return generateUnderProbe(backend, dbEnv, setup, database);
}

/**
 * The timed part on a database holding the scale data: server up, a scenario, the probe, the run.
 * `env` adds to the server's environment (experiments: FORECAST_RUN_BATCH_SIZE, FORECAST_WORKERS, …).
 */
export async function generateUnderProbe(backend: string, dbEnv: Record<string, string>, setup: ScaleData, database?: string, env: Record<string, string> = {}): Promise<ScaleResult> {
  const work = await mkdtemp(join(tmpdir(), 'scm-bench-scale-'));
  const memoryFile = join(work, 'memory.jsonl');
  const service = await startService({ ...dbEnv, ...env }, memoryFile);
  const headers = { authorization: `Bearer ${setup.key}`, 'content-type': 'application/json' };
  let probe: Child | undefined;
  try {
    const products = await getJson(`${service.base}/api/products?limit=50`, { headers });
    if (products.status !== 200) throw new Error(`GET /api/products answered ${products.status}: ${JSON.stringify(products.body).slice(0, 300)}`);
    const created = await getJson(`${service.base}/api/forecast/scenarios`, { method: 'POST', headers, body: JSON.stringify({ name: 'Scale benchmark', type: 'BASELINE' }) });
    if (created.status !== 201) throw new Error(`POST /api/forecast/scenarios answered ${created.status}: ${JSON.stringify(created.body).slice(0, 300)}`);
    const scenarioId: string = created.body.id ?? created.body.scenario?.id;

    const probeFile = join(work, 'probe.json');
    probe = spawnTs('bench/import/latency-probe.ts', [`${service.base}/api/products?limit=50`, setup.key, probeFile], {}, root);
    for (let i = 0; !probe.stdout().includes('ready'); i++) {
      if (probe.process.exitCode !== null || i > 300) throw new Error(`probe did not start:\n${probe.output()}`);
      await sleep(100);
    }
    const baselineFrom = Date.now();
    await sleep(BASELINE_SECONDS * 1000);

    const loadBefore = loadavg()[0]!;
    const machineBefore = machineCpu();
    const cpuBefore = sampleCpu(service.child.process.pid!, database);
    const startedAt = Date.now();
    const started = performance.now();
    const posted = await getJson(`${service.base}/api/forecast/scenarios/${scenarioId}/generate`, { method: 'POST', headers, body: JSON.stringify({ horizon: SCALE_HORIZON }) });
    const postMs = performance.now() - started;
    let outcome = 'ok';
    let run: ScaleResult['run'];
    // The scenario was created a moment ago: a 404 can only mean there is no such route.
    if (posted.status === 404) {
      outcome = 'endpoint missing (POST /api/forecast/scenarios/{id}/generate answered 404)';
    } else if (posted.status !== 202) {
      outcome = `POST …/generate answered ${posted.status}: ${JSON.stringify(posted.body).slice(0, 300)}`;
    } else {
      const id: string = runOf(posted.body).id;
      const progress: ProgressSample[] = [];
      let current = runOf(posted.body);
      while (current.status !== 'COMPLETED' && current.status !== 'FAILED' && performance.now() - started < RUN_TIMEOUT_MS) {
        await sleep(POLL_MS);
        const polled = await getJson(`${service.base}/api/forecast/runs/${id}`, { headers });
        if (polled.status !== 200) throw new Error(`GET /api/forecast/runs/${id} answered ${polled.status}: ${JSON.stringify(polled.body).slice(0, 300)}`);
        current = runOf(polled.body);
        progress.push({ seconds: (performance.now() - started) / 1000, processedSeries: current.processedSeries, status: current.status });
      }
      const seconds = (performance.now() - started) / 1000;
      if (current.status !== 'COMPLETED') outcome = current.status === 'FAILED' ? `run FAILED: ${current.failureReason ?? ''}` : `run not done after ${RUN_TIMEOUT_MS / 1000} s (${current.status})`;
      run = {
        id, status: current.status, totalSeries: current.totalSeries, processedSeries: current.processedSeries, totalForecast: current.totalForecast ?? null,
        seconds, seriesPerSecond: current.processedSeries / seconds, postMs, progress, ...(current.failureReason ? { failureReason: current.failureReason } : {}),
      };
    }
    const endedAt = Date.now();
    const spent = cpuBetween(cpuBefore, sampleCpu(service.child.process.pid!, database));
    const machineAfter = machineCpu();
    await stop(probe);
    const samples = JSON.parse(await readFile(probeFile, 'utf8')) as [number, number, number][];
    const others = machineAfter.busy - machineBefore.busy - spent.server - spent.database;
    const result: ScaleResult = {
      backend,
      setup: { series: setup.series, rows: setup.rows, seconds: setup.seconds },
      outcome,
      ...(run ? { run } : {}),
      baseline: probeStats(samples, baselineFrom, startedAt),
      during: probeStats(samples, startedAt, endedAt),
      ...(await memoryOf(memoryFile, startedAt, endedAt)),
      cpu: { server: spent.server, database: spent.database, otherShare: Math.max(0, others / Math.max(1e-9, machineAfter.total - machineBefore.total)) },
      loadAverage: [loadBefore, loadavg()[0]!],
    };
    console.log(
      `  ${backend}: ${outcome}` +
        (run ? `; ${run.processedSeries}/${run.totalSeries} series in ${run.seconds.toFixed(1)} s (${run.seriesPerSecond.toFixed(0)} series/s)` : '') +
        `; GET /api/products p50 ${result.during.p50.toFixed(1)} ms p99 ${result.during.p99.toFixed(1)} ms (before: p99 ${result.baseline.p99.toFixed(1)} ms)` +
        `; longest event-loop stall ${result.stalls.maxMs.toFixed(0)} ms; peak RSS ${result.memory.peakRssMiB.toFixed(0)} MiB, heap ${result.memory.peakHeapMiB.toFixed(0)} MiB; CPU ${spent.server.toFixed(1)} s Node + ${spent.database.toFixed(1)} s PostgreSQL, other work ${(result.cpu.otherShare * 100).toFixed(0)}%`,
    );
    return result;
  } finally {
    if (probe) await stop(probe);
    await stop(service.child);
    await rm(work, { recursive: true, force: true });
  }
}
