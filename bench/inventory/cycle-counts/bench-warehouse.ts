// The warehouse part of `npm run bench` (--warehouse, issue 20): the cycle-count views of one location of 10,000
// products and 50,000 stock lines (bench/inventory/cycle-counts/data.ts) under 8 connections, each next to the bare
// node:http yardstick running the same SQL (bench/inventory/cycle-counts/bare-cycle-counts.ts):
//
// - GET /api/inventory/cycle-count?locationId=…&limit=50&page=N (all-products, random page of the schedule);
// - the same with showOverdueOnly=true (random page of the overdue products);
// - the same with search=DDD (three random digits, matching some 40 SKUs and names; page 1);
// - GET /api/inventory/cycle-count?mode=to-resolve&locationId=…&limit=50&page=N (random page of the variances).
//
// Goal, on PostgreSQL: p99 under 100 ms for each. PGlite is reported, not judged. On its own scratch database per
// backend; the set-up is checked through the API (the counts the data must give) before anything is measured.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { onCleanup } from '../../harness/children.js';
import { createScratchDatabase, loadBenchmarkData, probePostgres } from '../../harness/data.js';
import { load, measure } from '../../harness/measure.js';
import type { Row } from '../../harness/report.js';
import { getJson, startServer, stopServer, type Server } from '../../harness/servers.js';
import { args, settings } from '../../harness/settings.js';
import type { GeneratorInput } from '../request-generators.js';
import { loadWarehouseData, type WarehouseData } from './data.js';

/** Seconds each view is served to a fresh server before any target is measured on it. */
export const WARM_UP_SECONDS = 5;

export const WAREHOUSE_CONNECTIONS = 8;
export const P99_GOAL_MS = 100;
const LIMIT = 50;
/** Targets per backend (for the overall time limit): 4 views, on the service and on the bare server. */
export const WAREHOUSE_TARGETS = 8;

export const VIEWS = {
  page: `all-products, limit ${LIMIT}, random page`,
  overdue: `all-products, showOverdueOnly, limit ${LIMIT}, random page`,
  search: `all-products, search (3 digits), limit ${LIMIT}`,
  toResolve: `to-resolve, limit ${LIMIT}, random page`,
} as const;
export type View = keyof typeof VIEWS;
export const BARE = 'bare node:http: ';

export interface WarehouseCheck {
  backend: string;
  name: string;
  ok: boolean;
  detail: string;
}

export interface WarehouseResult {
  rows: Row[];
  checks: WarehouseCheck[];
  notes: string[];
  /** What each backend loaded and the service answered before measuring. */
  setups: { backend: string; data: WarehouseData; loadSeconds: number }[];
  postgresVersion?: string;
}

const PATH = '/api/inventory/cycle-count';

/** Every request a view's target picks from. */
function pathsOf(view: View, data: WarehouseData): string[] {
  const at = `locationId=${encodeURIComponent(data.locationId)}&limit=${LIMIT}`;
  const pages = (n: number) => Array.from({ length: Math.max(1, Math.ceil(n / LIMIT)) }, (_, i) => i + 1);
  switch (view) {
    case 'page':
      return pages(data.expected.products).map((p) => `${PATH}?${at}&page=${p}`);
    case 'overdue':
      return pages(data.expected.overdue).map((p) => `${PATH}?${at}&showOverdueOnly=true&page=${p}`);
    case 'search':
      return Array.from({ length: 1000 }, (_, i) => `${PATH}?${at}&search=${String(i).padStart(3, '0')}`);
    case 'toResolve':
      return pages(data.expected.toResolve).map((p) => `${PATH}?mode=to-resolve&${at}&page=${p}`);
  }
}

/** The requests the service and the bare server must answer alike (compared body to body). */
function samplePaths(data: WarehouseData): string[] {
  return [pathsOf('page', data)[2]!, pathsOf('overdue', data)[1]!, pathsOf('search', data)[427]!, pathsOf('toResolve', data)[1]!];
}

async function get(server: Server, path: string, headers: Record<string, string>) {
  const answer = await getJson(`${server.base}${path}`, { headers });
  if (answer.status !== 200) throw new Error(`GET ${path} answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 500)}`);
  return answer.body;
}

/** The set-up through the API: the counts the loaded data must give, before anything is measured. */
async function checkSetup(server: Server, headers: Record<string, string>, data: WarehouseData, backend: string): Promise<WarehouseCheck[]> {
  const [all, overdue, toResolve] = await Promise.all(
    [pathsOf('page', data)[0]!, pathsOf('overdue', data)[0]!, pathsOf('toResolve', data)[0]!].map((path) => get(server, path, headers)),
  );
  const { expected } = data;
  const checks: WarehouseCheck[] = [
    {
      backend,
      name: 'all-products: every product of the location, the overdue ones counted',
      ok: all.count === expected.products && all.overdueCount === expected.overdue && all.products?.length === LIMIT,
      detail: `count ${all.count} (expected ${expected.products}), overdueCount ${all.overdueCount} (expected ${expected.overdue}), ${all.products?.length} rows`,
    },
    {
      backend,
      name: 'showOverdueOnly: the overdue products only',
      ok: overdue.count === expected.overdue && overdue.products?.every((p: { isOverdue: boolean }) => p.isOverdue),
      detail: `count ${overdue.count} (expected ${expected.overdue})`,
    },
    {
      backend,
      name: 'to-resolve: the counted, unresolved lines that differ',
      ok: toResolve.count === expected.toResolve && toResolve.lines?.length === LIMIT && toResolve.lines.every((l: { varianceQty: number }) => l.varianceQty !== 0),
      detail: `count ${toResolve.count} (expected ${expected.toResolve})`,
    },
  ];
  for (const c of checks) console.log(`  ${c.ok ? 'ok  ' : 'FAIL'} ${backend} set-up: ${c.name} (${c.detail})`);
  return checks;
}

async function benchOn(backend: string, target: { databaseUrl?: string; dataDir?: string }, result: WarehouseResult, database?: string) {
  const started = performance.now();
  const { key, organizationId } = await loadBenchmarkData(target);
  const data = await loadWarehouseData(target, organizationId);
  const loadSeconds = (performance.now() - started) / 1000;
  result.setups.push({ backend, data, loadSeconds });
  console.log(
    `${backend}: ${data.loaded.stockLines} stock lines (${data.loaded.lots} lots, ${data.loaded.bins} bins), ${data.loaded.batches} batches of ` +
      `${data.loaded.countLines} count lines loaded in ${loadSeconds.toFixed(0)} s (not timed); expected ${JSON.stringify(data.expected)}`,
  );
  const work = await mkdtemp(join(tmpdir(), 'scm-bench-warehouse-'));
  onCleanup(() => rm(work, { recursive: true, force: true }));
  const inputs = {} as Record<View, string>;
  for (const view of Object.keys(VIEWS) as View[]) {
    const input: GeneratorInput = { skus: [], locationIds: [], lineIds: [], pages: 0, checkItems: 0, paths: pathsOf(view, data) };
    inputs[view] = join(work, `${view}.json`);
    await writeFile(inputs[view], JSON.stringify(input));
  }
  const dbEnv: Record<string, string> = target.databaseUrl ? { DATABASE_URL: target.databaseUrl } : { DATA_DIR: target.dataDir! };
  const serviceEnv = { ...dbEnv, SEED_DEMO: 'false', NODE_ENV: 'production', IMPORT_WORKERS: '0', JWT_SECRET: randomBytes(32).toString('base64url') };
  const headers = { authorization: `Bearer ${key}` };
  const connections = backend === 'PGlite' ? settings.pgliteConnections : WAREHOUSE_CONNECTIONS;
  const answers: { service?: unknown[]; bare?: unknown[] } = {};
  // The service's targets on one server, then the bare server's (one server at a time); under --profile a server per view.
  const views = Object.keys(VIEWS) as View[];
  const groups = args.profile ? views.map((v) => [v]) : [views];
  for (const script of ['service', 'bare'] as const) {
    for (const group of groups) {
      const server =
        script === 'bare'
          ? await startServer('bench/harness/bare-server.ts', dbEnv, `${backend}-bare-warehouse`)
          : await startServer('src/main.ts', serviceEnv, `${backend}-warehouse`);
      try {
        if (script === 'service' && !answers.service) {
          const checks = await checkSetup(server, headers, data, backend);
          result.checks.push(...checks);
          if (!checks.every((c) => c.ok)) throw new Error(`${backend}: the warehouse set-up is not what the service answers; nothing measured`);
        }
        answers[script] ??= await Promise.all(samplePaths(data).map((path) => get(server, path, headers)));
        // Every server (service and bare alike) first serves each view of its group for WARM_UP_SECONDS, not measured:
        // the service's code takes a few thousand requests to be compiled by V8 (CPU per request fell from 6.5 to 3.4 ms
        // over the first 10,000), and a target's own 2 s warm-up left the first target measuring that instead.
        for (const view of group) {
          const spec = { url: `${server.base}${PATH}`, method: 'GET' as const, headers, connections, generator: { kind: 'paths' as const, input: inputs[view] } };
          await load(spec, { duration: WARM_UP_SECONDS, warmup: 0 });
        }
        for (const view of group) {
          const name = `${script === 'bare' ? BARE : ''}${VIEWS[view]}`;
          result.rows.push(
            await measure(backend, name, server.child, database, {
              url: `${server.base}${PATH}`,
              method: 'GET',
              headers,
              connections,
              generator: { kind: 'paths', input: inputs[view] },
            }),
          );
        }
      } finally {
        await stopServer(server);
      }
    }
  }
  const same = samplePaths(data).map((path, i) => ({ path, same: isDeepStrictEqual(answers.service?.[i], answers.bare?.[i]) }));
  const differ = same.filter((s) => !s.same);
  result.checks.push({
    backend,
    name: "the bare server's answers equal the service's",
    ok: differ.length === 0,
    detail: differ.length ? `differ on ${differ.map((d) => d.path).join(', ')}` : `${same.length} sample requests, body for body`,
  });
  if (differ.length) {
    const i = same.findIndex((s) => !s.same);
    console.warn(`  ${backend}: bare and service differ on ${same[i]!.path}:\n    service ${JSON.stringify(answers.service?.[i]).slice(0, 600)}\n    bare    ${JSON.stringify(answers.bare?.[i]).slice(0, 600)}`);
  }
  for (const view of views) {
    const row = result.rows.find((r) => r.backend === backend && r.target === VIEWS[view]);
    const bare = result.rows.find((r) => r.backend === backend && r.target === `${BARE}${VIEWS[view]}`);
    if (row && bare?.result.requestsPerSec) row.ratio = row.result.requestsPerSec / bare.result.requestsPerSec;
  }
}

export async function benchWarehouse(databaseUrl: string, backends: string[]): Promise<WarehouseResult> {
  const result: WarehouseResult = { rows: [], checks: [], notes: [], setups: [] };
  if (backends.includes('postgres')) {
    const probe = await probePostgres(databaseUrl);
    if ('skip' in probe) {
      console.log(`PostgreSQL: ${probe.skip}; skipping PostgreSQL.`);
      result.notes.push(`PostgreSQL skipped: ${probe.skip}.`);
    } else {
      result.postgresVersion = probe.version;
      console.log(`PostgreSQL ${probe.version}: the warehouse of the cycle-count views on a scratch database`);
      const scratch = await createScratchDatabase(databaseUrl);
      onCleanup(scratch.drop);
      try {
        await benchOn('PostgreSQL', { databaseUrl: scratch.url }, result, new URL(scratch.url).pathname.slice(1));
      } finally {
        await scratch.drop();
      }
    }
  }
  if (backends.includes('pglite')) {
    const dataDir = await mkdtemp(join(tmpdir(), 'scm-bench-warehouse-pglite-'));
    onCleanup(() => rm(dataDir, { recursive: true, force: true }));
    console.log(`PGlite: the warehouse of the cycle-count views in ${dataDir}`);
    await benchOn('PGlite', { dataDir }, result);
  }
  return result;
}
