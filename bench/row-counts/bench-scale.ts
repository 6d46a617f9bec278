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
import { measure } from '../harness/measure.js';
import { getJson, startServer, stopServer } from '../harness/servers.js';
import type { Row } from '../harness/report.js';
import { loadScaleData } from './scale-data.js';
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
  for (const products of sizes) {
    const scratch = await createScratchDatabase(databaseUrl);
    onCleanup(scratch.drop);
    const dir = await mkdtemp(join(tmpdir(), 'bench-scale-'));
    let server: Awaited<ReturnType<typeof startServer>> | undefined;
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
      };
      const auth = { authorization: `Bearer ${data.key}` };
      server = await startServer('src/main.ts', env, `scale-${products}`);
      const database = new URL(scratch.url).pathname.slice(1);
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
        const inputFile = join(dir, `${products}-${target.length}-${name.length}.json`);
        await writeFile(inputFile, JSON.stringify(input));
        const row = await measure('PostgreSQL', `${name} @ ${products.toLocaleString('en-US')}`, server.child, database, {
          url: `${server.base}${target[0]}`,
          headers: auth,
          connections: SCALE_CONNECTIONS,
          generator: { kind: 'paths', input: inputFile },
        });
        result.rows.push({ ...row, target: name, products });
      }
      // The same document every time: the newest page is where a catalog screen starts.
      const name = 'GraphQL products(first: 50) with stock(first: 10)';
      const row = await measure('PostgreSQL', `${name} @ ${products.toLocaleString('en-US')}`, server.child, database, {
        url: `${server.base}/graphql`,
        method: 'POST',
        headers: graphql.headers,
        body: graphql.body,
        connections: SCALE_CONNECTIONS,
      });
      result.rows.push({ ...row, target: name, products });
    } finally {
      if (server) await stopServer(server);
      await rm(dir, { recursive: true, force: true });
      await scratch.drop();
    }
  }
  return result;
}
