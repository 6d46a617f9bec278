// The stall part of `npm run bench` (--stalls): the reproductions of issue 17 (defects 1, 2 and 7, with
// the extreme dates the service has accepted) and the heaviest request of each forecasting path, each run
// alone against the server (its own process, its defaults) while this process asks GET /health every
// 20 ms. Per request: its status and time, the slowest /health answer while it ran (the stall another
// tenant sees), and the server's longest event-loop block (monitorEventLoopDelay, recorded by the
// preloaded bench/forecasting/memory-sampler.mjs every 250 ms). Goal: every /health under 500 ms.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, sleep, spawnTs, stop, waitForHealth, type Child } from '../harness/children.js';
import { RATE_LIMITS_RAISED } from '../harness/rate-limit-env.js';
import { root } from '../harness/settings.js';
import { MAX_ROWS } from '../../src/kernel/import-limits.js';
import { HEAVY_LAST_WEEK, loadStallData, type StallData } from './stall-data.js';

export const STALL_GOAL_MS = 500;
const PROBE_EVERY_MS = 20;
/** A request still running after this is abandoned (the code before the fix took up to 152 s on one). */
const REQUEST_TIMEOUT_MS = 60_000;
const IDLE_SECONDS = 2;

export interface StallCase {
  name: string;
  org: 'extreme' | 'heavy' | 'areas';
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
}

export interface StallRow {
  name: string;
  status: number | 'timeout';
  requestMs: number;
  /** Slowest GET /health while the request ran. */
  worstHealthMs: number;
  /** The server's longest event-loop block over the request. */
  loopBlockMs: number;
}

export interface StallResult {
  backend: string;
  setupSeconds: number;
  /** GET /health before any request: the yardstick. */
  idle: { p50: number; max: number };
  rows: StallRow[];
}

const aliased = (count: number, field: string) => JSON.stringify({ query: `{ ${Array.from({ length: count }, (_, i) => `f${i}: ${field}`).join(' ')} }` });

function cases(data: StallData): StallCase[] {
  const from = new Date(Date.parse(`${HEAVY_LAST_WEEK}T00:00:00Z`) - 12 * 7 * 86_400_000).toISOString().slice(0, 10);
  return [
    { name: 'defect 1: GET /api/forecast/long-term?limit=5 (records 1900 and 9990)', org: 'extreme', method: 'GET', path: '/api/forecast/long-term?limit=5' },
    { name: 'defect 1: GET /api/forecast?limit=6', org: 'extreme', method: 'GET', path: '/api/forecast?limit=6' },
    { name: 'defect 2: GET /api/forecast?limit=100 (10 events 1900–9999, no lift)', org: 'extreme', method: 'GET', path: '/api/forecast?limit=100' },
    { name: 'defect 2: GET /api/forecast/events/learned-lifts', org: 'extreme', method: 'GET', path: '/api/forecast/events/learned-lifts' },
    { name: 'defect 7: 30 × longTermForecast on defect 1 data', org: 'extreme', method: 'POST', path: '/graphql', body: aliased(30, 'longTermForecast(first: 5) { totalCount }') },
    { name: 'defect 7: 30 × demandForecast', org: 'heavy', method: 'POST', path: '/graphql', body: aliased(30, 'demandForecast { totalCount }') },
    { name: 'defect 7: 30 × ENGINE accuracy', org: 'heavy', method: 'POST', path: '/graphql', body: aliased(30, `forecastAccuracy(source: ENGINE, from: "${from}", channel: "ALL") { totalCount }`) },
    { name: 'defect 7: 30 × channelProjection', org: 'heavy', method: 'POST', path: '/graphql', body: aliased(30, 'channelProjection { totalCount }') },
    { name: 'heaviest: GET /api/forecast/long-term?limit=100&months=24', org: 'heavy', method: 'GET', path: '/api/forecast/long-term?limit=100&months=24' },
    { name: 'heaviest: GET /api/forecast/channel-projection?limit=100', org: 'heavy', method: 'GET', path: '/api/forecast/channel-projection?limit=100' },
    { name: 'heaviest: ENGINE accuracy, 100 series', org: 'heavy', method: 'GET', path: `/api/forecast/accuracy?source=ENGINE&from=${from}&horizon=13&channel=ALL` },
    { name: 'heaviest: IMPORTED accuracy by product', org: 'heavy', method: 'GET', path: '/api/forecast/accuracy?groupBy=product&limit=100' },
    { name: 'heaviest: learned lifts over 500 events', org: 'heavy', method: 'GET', path: '/api/forecast/events/learned-lifts' },
    { name: 'heaviest: compare 2 scenarios over 200 series', org: 'heavy', method: 'POST', path: '/api/forecast/scenarios/compare', body: JSON.stringify({ scenarioIds: data.scenarioIds }) },
    // The other areas, at the size of their own benchmarks: the largest page or the widest work of each.
    { name: 'products: GET /api/products?limit=100&search=product', org: 'areas', method: 'GET', path: '/api/products?limit=100&search=product' },
    { name: 'inventory: GET /api/inventory?limit=200', org: 'areas', method: 'GET', path: '/api/inventory?limit=200' },
    { name: 'inventory: availability of a location of 10,000 lines', org: 'areas', method: 'GET', path: `/api/inventory/availability?locationId=${data.areasLocationId}` },
    { name: 'inventory: GET /api/inventory/channel/summary', org: 'areas', method: 'GET', path: '/api/inventory/channel/summary' },
    { name: 'inventory: channel ATP of a location, 200 products', org: 'areas', method: 'GET', path: `/api/inventory/channel-location?locationId=${data.areasLocationId}&limit=200` },
    { name: 'inventory: GET /api/inventory/analytics', org: 'areas', method: 'GET', path: '/api/inventory/analytics' },
    { name: 'inventory: count sheet of 10,000 lines (limit 1000)', org: 'areas', method: 'GET', path: `/api/inventory/adjustments/record-stock?locationId=${data.areasLocationId}&limit=1000` },
    { name: 'transfers: GET /api/inventory/transfers/bins', org: 'areas', method: 'GET', path: `/api/inventory/transfers/bins?locationId=${data.areasLocationId}` },
    { name: 'transfers: generate recommendations over 100,000 levels', org: 'areas', method: 'POST', path: '/api/transfers/recommendations', body: JSON.stringify({}) },
    // Last: its fits hold the worker threads the longest.
    { name: 'heaviest: GET /api/forecast?limit=100&horizon=104 (520 weeks of history each)', org: 'heavy', method: 'GET', path: '/api/forecast?limit=100&horizon=104' },
    // After every other: its job runs on the import worker right after (measured as the next row).
    { name: 'import: POST /api/import/catalog, 100,000 rows (the largest upload)', org: 'areas', method: 'POST', path: '/api/import/catalog', body: catalogUpload() },
  ];
}

/** The largest upload the import accepts: MAX_ROWS catalog rows (new SKUs, so the job has work). */
function catalogUpload(): string {
  return JSON.stringify(Array.from({ length: MAX_ROWS }, (_, i) => ({ externalId: `STALL-${String(i).padStart(6, '0')}`, name: `Stall upload ${i}`, unitCost: 1 + (i % 50) })));
}

/** Polls an import job until it ends: 200 when COMPLETED, 500 when it FAILED. */
async function jobDone(base: string, key: string, jobId: string): Promise<number> {
  const deadline = Date.now() + 10 * REQUEST_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const job = (await (await fetch(`${base}/api/import/status/${jobId}`, { headers: { authorization: `Bearer ${key}` } })).json()) as { state: string };
    if (job.state === 'COMPLETED') return 200;
    if (job.state === 'FAILED') return 500;
    await sleep(250);
  }
  throw new Error('the import job did not end');
}

/** GET /health back to back, one every PROBE_EVERY_MS at most, until stopped: [end time, latency]. */
function startProbe(base: string) {
  const samples: [number, number][] = [];
  let running = true;
  const done = (async () => {
    while (running) {
      const started = performance.now();
      try {
        await (await fetch(`${base}/health`, { signal: AbortSignal.timeout(200_000) })).text();
      } catch {
        // counted by its latency
      }
      const ms = performance.now() - started;
      samples.push([Date.now(), ms]);
      await sleep(Math.max(0, PROBE_EVERY_MS - ms));
    }
  })();
  return { samples, stop: async () => { running = false; await done; } };
}

async function loopBlocks(file: string, from: number, to: number) {
  if (!existsSync(file)) return Number.NaN;
  const lines = (await readFile(file, 'utf8')).trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as { t: number; stallMs: number });
  // A sample covers the 250 ms before it: the block of a request can be reported up to then after it ends.
  return Math.max(0, ...lines.filter((l) => l.t >= from && l.t <= to + 300).map((l) => l.stallMs));
}

async function startService(dbEnv: Record<string, string>, memoryFile: string): Promise<{ child: Child; base: string }> {
  const port = await freePort();
  const env = { ...RATE_LIMITS_RAISED, ...dbEnv, SEED_DEMO: 'false', NODE_ENV: 'production', JWT_SECRET: randomBytes(32).toString('base64url'), SCALE_MEMORY_FILE: memoryFile, PORT: String(port), HOST: '127.0.0.1', FORECAST_RUN_WORKERS: '0' };
  // BENCH_STALL_PROFILE=<dir> runs the server under --cpu-prof into that folder (to see where a row's time went).
  const profile = process.env.BENCH_STALL_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_STALL_PROFILE}`] : [];
  const child = spawnTs('src/main.ts', [], env, root, [...profile, '--import', './bench/forecasting/memory-sampler.mjs']);
  const base = `http://127.0.0.1:${port}`;
  await waitForHealth(base, child);
  return { child, base };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;

export async function benchStalls(backend: string, target: { databaseUrl?: string; dataDir?: string }): Promise<StallResult> {
  console.log(`  ${backend}: loading the reproductions and 200 series × 520 weeks of history (bulk SQL, not timed)`);
  const data = await loadStallData(target);
  const work = await mkdtemp(join(tmpdir(), 'scm-bench-stalls-'));
  const memoryFile = join(work, 'loop.jsonl');
  const service = await startService(target.databaseUrl ? { DATABASE_URL: target.databaseUrl } : { DATA_DIR: target.dataDir! }, memoryFile);
  const rows: StallRow[] = [];
  try {
    // Warm-up, not measured: the first call of each path compiles its operation and starts the worker threads.
    for (const path of ['/api/forecast?limit=1&horizon=1', '/api/forecast/long-term?limit=1', '/api/forecast/channel-projection?limit=1&horizon=1', '/api/forecast/events/learned-lifts?type=PRICE_CHANGE']) {
      await (await fetch(service.base + path, { headers: { authorization: `Bearer ${data.heavyKey}` }, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) })).text();
    }
    const idleProbe = startProbe(service.base);
    await sleep(IDLE_SECONDS * 1000);
    await idleProbe.stop();
    const idleMs = idleProbe.samples.map(([, ms]) => ms).sort((a, b) => a - b);
    const idle = { p50: percentile(idleMs, 50), max: idleMs.at(-1) ?? Number.NaN };
    /** Runs `request` while probing /health; its status, or 'timeout'. */
    const measure = async (name: string, request: () => Promise<number>) => {
      const probe = startProbe(service.base);
      await sleep(100);
      const from = Date.now();
      const started = performance.now();
      let status: StallRow['status'];
      try {
        status = await request();
      } catch {
        status = 'timeout';
      }
      const requestMs = performance.now() - started;
      const to = Date.now();
      await sleep(300);
      await probe.stop();
      const during = probe.samples.filter(([at]) => at >= from).map(([, ms]) => ms);
      const row: StallRow = { name, status, requestMs, worstHealthMs: Math.max(0, ...during), loopBlockMs: await loopBlocks(memoryFile, from, to) };
      rows.push(row);
      console.log(`    ${name}: ${status} in ${requestMs.toFixed(0)} ms; /health at worst ${row.worstHealthMs.toFixed(0)} ms; loop blocked ${row.loopBlockMs.toFixed(0)} ms`);
      // A request abandoned by the client may still hold the server: wait for it before the next one.
      if (status === 'timeout') await waitForHealth(service.base, service.child, 300_000);
    };
    let importJob: string | undefined;
    // BENCH_STALL_ONLY=<text> measures only the cases whose name contains it (to reproduce one row).
    const only = process.env.BENCH_STALL_ONLY;
    for (const c of cases(data).filter((c) => !only || c.name.includes(only))) {
      const key = { extreme: data.extremeKey, heavy: data.heavyKey, areas: data.areasKey }[c.org];
      await measure(c.name, async () => {
        const response = await fetch(service.base + c.path, {
          method: c.method,
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: c.body as string | undefined,
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
        const text = await response.text();
        if (c.path === '/api/import/catalog') importJob = (JSON.parse(text) as { jobId?: string }).jobId;
        return response.status;
      });
    }
    if (importJob) await measure('import: applying those 100,000 rows (the job, on the import worker)', () => jobDone(service.base, data.areasKey, importJob!));
    return { backend, setupSeconds: data.seconds, idle, rows };
  } finally {
    await stop(service.child);
    await rm(work, { recursive: true, force: true });
  }
}
