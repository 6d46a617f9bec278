// The --scale part (issue 25): the documented hot lists at a thousand, a hundred thousand and a million products
// (5 stock lines each), each size in its own scratch PostgreSQL database, served by the service: the products list,
// a lookup by SKU, a location's inventory list and its channel-location page, and the newest 50 products with their
// stock over GraphQL (the list with stock of the Vendure-style comparison). p99 per size and target; the goal is
// latency flat within 20% from the smallest size to the largest (totals from counters, pages from indexes).
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onCleanup } from '../harness/children.js';
import { createScratchDatabase, probePostgres } from '../harness/data.js';
import type { GeneratorInput } from '../inventory/request-generators.js';
import { measure, type MeasureSpec } from '../harness/measure.js';
import { getJson, startServer, stopServer, type Server } from '../harness/servers.js';
import type { Row } from '../harness/report.js';
import { loadScaleData } from './scale-data.js';
import { RATE_LIMITS_RAISED } from '../harness/rate-limit-env.js';
import { STOCK_LIST } from '../inventory/bench-inventory.js';

/** Connections of the scale targets: enough to keep both cores busy, few enough that p99 is the request's own cost. */
export const SCALE_CONNECTIONS = 8;
export const SCALE_TARGETS = 6;
/** Pages of each list the requests spread over (the same at every size, so deeper data is not deeper paging). */
const PAGES = 20;

export interface ScaleRow extends Row {
  products: number;
}

export interface ScaleListResult {
  rows: ScaleRow[];
  notes: string[];
  postgresVersion?: string;
  /** Seconds each size took to load. */
  loadSeconds: Record<number, number>;
}

export function scaleSizes(text: string | undefined): number[] {
  const sizes = (text ?? '1000,100000,1000000').split(',').map((s) => Number(s.trim()));
  if (!sizes.length || sizes.some((n) => !Number.isInteger(n) || n < 100 || n > 5_000_000)) throw new Error(`--scale-sizes must list whole numbers of 100 to 5,000,000, got ${text}`);
  return [...new Set(sizes)].sort((a, b) => a - b);
}

const pick = <T>(list: T[], i: number) => list[i % list.length]!;

interface LoadedSize {
  products: number;
  drop(): Promise<void>;
  server?: Server;
  database: string;
  targets: { name: string; spec: MeasureSpec }[];
}

/**
 * Loads every size first, each in its own scratch database with its own server, then measures each target at every
 * size in order and again in reverse, keeping the lower p99 of the two: the sizes no longer run one after another, so a
 * machine that slows down (or speeds up) during the run does not read as growth with the catalog.
 */
export async function benchListScale(databaseUrl: string, backends: string[], sizes: number[]): Promise<ScaleListResult> {
  const result: ScaleListResult = { rows: [], notes: [], loadSeconds: {} };
  if (backends.includes('pglite')) result.notes.push('PGlite is not measured by the scale part (a million products in WebAssembly is not a deployment we offer).');
  if (!backends.includes('postgres')) return result;
  const probe = await probePostgres(databaseUrl);
  if ('skip' in probe) {
    result.notes.push(`PostgreSQL skipped: ${probe.skip}.`);
    return result;
  }
  result.postgresVersion = probe.version;
  const dir = await mkdtemp(join(tmpdir(), 'bench-scale-'));
  const loaded: LoadedSize[] = [];
  try {
    for (const products of sizes) loaded.push(await loadSize(databaseUrl, products, dir, result));
    for (let t = 0; t < loaded[0]!.targets.length; t++) {
      const kept = new Map<number, ScaleRow>();
      for (const size of [...loaded, ...[...loaded].reverse()]) {
        const { name, spec } = size.targets[t]!;
        const row = await measure('PostgreSQL', `${name} @ ${size.products.toLocaleString('en-US')}`, size.server!.child, size.database, spec);
        const before = kept.get(size.products);
        if (!before || row.result.p99 < before.result.p99) kept.set(size.products, { ...row, target: name, products: size.products });
      }
      result.rows.push(...loaded.map((size) => kept.get(size.products)!));
    }
  } finally {
    for (const size of loaded) {
      if (size.server) await stopServer(size.server);
      await size.drop();
    }
    await rm(dir, { recursive: true, force: true });
  }
  return result;
}

/** One size: its scratch database loaded, its server started, every target checked against the data. */
async function loadSize(databaseUrl: string, products: number, dir: string, result: ScaleListResult): Promise<LoadedSize> {
  // One database per size, all alive at once.
  const scratch = await createScratchDatabase(databaseUrl, `_${products}`);
  onCleanup(scratch.drop);
  const size: LoadedSize = { products, drop: scratch.drop, database: new URL(scratch.url).pathname.slice(1), targets: [] };
  try {
    const started = performance.now();
    console.log(`  scale: loading ${products.toLocaleString('en-US')} products and ${(products * 5).toLocaleString('en-US')} stock lines`);
    const data = await loadScaleData(scratch.url, products);
    result.loadSeconds[products] = Math.round((performance.now() - started) / 1000);
    const pages = Math.max(1, Math.min(PAGES, Math.floor(products / 50)));
    const paths = {
      products: Array.from({ length: 200 }, (_, i) => `/api/products?limit=50&page=${1 + (i % pages)}`),
      sku: data.skus.map((s) => `/api/products?search=${encodeURIComponent(s)}&limit=1`),
      exactSku: data.skus.map((s) => `/api/products?sku=${encodeURIComponent(s)}&limit=1`),
      inventory: Array.from({ length: 200 }, (_, i) => `/api/inventory?limit=50&locationId=${pick(data.locationIds, i)}&page=${1 + (i % pages)}`),
      channel: Array.from({ length: 200 }, (_, i) => `/api/inventory/channel-location?locationId=${pick(data.locationIds, i)}&limit=50&page=${1 + (i % pages)}`),
    };
    const env = {
      DATABASE_URL: scratch.url, SEED_DEMO: 'false', NODE_ENV: 'production', IMPORT_WORKERS: '0', FORECAST_RUN_WORKERS: '0', STOCK_SNAPSHOT_POLL_SECONDS: '0',
      DEMAND_RATE_POLL_SECONDS: '0', LOG_LEVEL: 'warn', JWT_SECRET: randomBytes(32).toString('base64url'),
      // Each server now serves every target twice: limits above what the load reaches, as the other parts run.
      ...RATE_LIMITS_RAISED,
    };
    const auth = { authorization: `Bearer ${data.key}` };
    const server = (size.server = await startServer('src/main.ts', env, `scale-${products}`));
    // Every target answers what the data holds before it is measured.
    const first = await getJson(`${server.base}${paths.products[0]}`, { headers: auth });
    const found = await getJson(`${server.base}${paths.sku[0]}`, { headers: auth });
    const exact = await getJson(`${server.base}${paths.exactSku[0]}`, { headers: auth });
    const lines = await getJson(`${server.base}${paths.inventory[0]}`, { headers: auth });
    const page = await getJson(`${server.base}${paths.channel[0]}`, { headers: auth });
    const graphql = { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ query: STOCK_LIST }) };
    const stocked = await getJson(`${server.base}/graphql`, graphql);
    const checks = [
      first.body?.meta?.total === products,
      found.body?.data?.length === 1 && found.body.data[0].sku === data.skus[0],
      exact.body?.data?.length === 1 && exact.body.data[0].sku === data.skus[0] && exact.body.meta?.total === 1,
      lines.body?.pagination?.total === products,
      page.body?.pagination?.total === products,
      stocked.body?.data?.products?.totalCount === products && stocked.body.data.products.edges.every((e: any) => e.node.stock.totalCount === 5),
    ];
    if (checks.some((ok) => !ok)) throw new Error(`scale ${products}: a target did not answer the data (${JSON.stringify(checks)})`);
    for (const [name, target] of [
      ['GET /api/products?limit=50 (pages 1-20)', paths.products],
      ['GET /api/products?search=<sku>&limit=1', paths.sku],
      ['GET /api/products?sku=<sku>&limit=1', paths.exactSku],
      ['GET /api/inventory?locationId&limit=50 (pages 1-20)', paths.inventory],
      ['GET /api/inventory/channel-location?limit=50 (pages 1-20)', paths.channel],
    ] as const) {
      const input: GeneratorInput = { skus: [], locationIds: [], lineIds: [], pages: 1, checkItems: 1, paths: [...target] };
      const inputFile = join(dir, `${products}-${size.targets.length}.json`);
      await writeFile(inputFile, JSON.stringify(input));
      size.targets.push({ name, spec: { url: `${server.base}${target[0]}`, headers: auth, connections: SCALE_CONNECTIONS, generator: { kind: 'paths', input: inputFile } } });
    }
    // The same document every time: the newest page is where a catalog screen starts.
    size.targets.push({
      name: 'GraphQL products(first: 50) with stock(first: 10)',
      spec: { url: `${server.base}/graphql`, method: 'POST', headers: graphql.headers, body: graphql.body, connections: SCALE_CONNECTIONS },
    });
    return size;
  } catch (error) {
    if (size.server) await stopServer(size.server);
    await scratch.drop();
    throw error;
  }
}
