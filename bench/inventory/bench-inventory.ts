// The inventory part of `npm run bench` (issue 3), on one backend: availability check of 100 items,
// a channel-location page of 200 products (beside the bare server's same page), and signed adjustments across 10,000 lines and on one hot
// line, then the lost-update check of every adjustment written (bench/inventory/lost-update-check.ts).
// Beside them the two reads a Vendure-style comparison makes (issue 25): a lookup by SKU and a list of products
// with their stock in one request, each against the bare server doing the same (bench/harness/bare-catalog.ts).
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { onCleanup } from '../harness/children.js';
import { PRODUCT_COUNT } from '../harness/data.js';
import { measure, type MeasureSpec } from '../harness/measure.js';
import { getJson, startServer, stopServer, type Server } from '../harness/servers.js';
import { args, settings } from '../harness/settings.js';
import { checkAdjustments, type AdjustCheck } from './lost-update-check.js';
import type { InventoryData } from './data.js';
import type { AdjustRecord, GeneratorInput, GeneratorKind } from './request-generators.js';
import type { Row } from '../harness/report.js';

export const CHECK_ITEMS = 100;
export const PAGE_SIZE = 200;
/** Targets per backend (for the overall time limit). */
export const INVENTORY_TARGETS = 14;

/** The list with stock in one request: the newest 50 products, each with its first 10 stock lines and their count. */
export const STOCK_LIST =
  '{ products(first: 50) { totalCount edges { node { id sku name stock(first: 10) { totalCount edges { node { id locationId quantityOnHand quantityAvailable } } } } } } }';
const STOCK_LIST_BODY = JSON.stringify({ query: STOCK_LIST });

export const TARGETS = {
  check: `POST /api/inventory/availability/check (${CHECK_ITEMS} items)`,
  checkSerial: `POST /api/inventory/availability/check (${CHECK_ITEMS} items), one request at a time`,
  check8: `POST /api/inventory/availability/check (${CHECK_ITEMS} items), 8 connections`,
  check16: `POST /api/inventory/availability/check (${CHECK_ITEMS} items), 16 connections`,
  page: `GET /api/inventory/channel-location (limit ${PAGE_SIZE})`,
  across: 'POST /api/inventory/adjust, 10,000 lines',
  hot: 'POST /api/inventory/adjust, one hot line',
  bareCheck: `bare node:http: availability check (${CHECK_ITEMS} items)`,
  barePage: `bare node:http: channel-location (limit ${PAGE_SIZE})`,
  bareAcross: 'bare node:http: adjust, 10,000 lines',
  sku: 'REST GET /api/products?sku= (a lookup by SKU)',
  bareSku: 'bare node:http: a lookup by SKU',
  stockList: 'GraphQL products(first: 50) with stock(first: 10)',
  bareStockList: 'bare node:http: 50 products with their stock',
};

export interface InventoryRun {
  rows: Row[];
  /** The lost-update check of each set of lines, and the targets that adjusted them. */
  checks: { label: string; covers: string[]; check: AdjustCheck }[];
  /** A few non-2xx answers, for the report. */
  samples: string[];
  notes: string[];
}

function expect(what: string, ok: boolean, response: { status: number; body: unknown }) {
  if (!ok) throw new Error(`${what} answered unexpectedly: ${response.status} ${JSON.stringify(response.body).slice(0, 500)}`);
}

/** What the service and the bare server answered to the same requests, compared after both ran. */
interface Probed {
  check: unknown[];
  /** Page 2 of the first location (no adjustment target changes its stock). */
  page: unknown;
  catalog?: Catalog;
}
interface Catalog {
  sku: unknown;
  stockList: unknown;
}

/**
 * The two reads of the Vendure-style comparison. Their stock includes lines the adjustment targets change, so the
 * service's answer is taken after its targets ran and the bare server's before its own: the same stock.
 */
async function probeCatalog(base: string, headers: Record<string, string>, data: InventoryData): Promise<Catalog> {
  const sku = await getJson(`${base}/api/products?sku=${encodeURIComponent(data.skus[7]!.toLowerCase())}`, { headers });
  expect('lookup by SKU', sku.status === 200 && sku.body?.data?.[0]?.sku === data.skus[7], sku);
  const stockList = await getJson(`${base}/graphql`, { method: 'POST', headers, body: STOCK_LIST_BODY });
  const listed = stockList.body?.data?.products?.edges;
  expect('products with stock', stockList.status === 200 && listed?.length === 50 && listed[0]?.node?.stock?.edges?.length > 0, stockList);
  return { sku: sku.body, stockList: stockList.body };
}

/** One request of each kind before measuring, so a broken endpoint fails loudly instead of measuring errors. */
async function probe(base: string, headers: Record<string, string>, data: InventoryData, bare: boolean): Promise<Probed> {
  // Lines no adjustment target touches (not location 5, not the hot line), so the service's and the bare server's answers compare.
  const still = data.locationIds.filter((id) => id !== data.adjustLocationId);
  const items = data.skus.slice(1, CHECK_ITEMS + 1).map((sku, i) => ({ sku, locationId: still[i % still.length]!, quantity: 1 }));
  const check = await getJson(`${base}/api/inventory/availability/check`, { method: 'POST', headers, body: JSON.stringify({ items }) });
  expect('availability check', check.status === 200 && check.body?.results?.length === CHECK_ITEMS, check);
  const catalog = await probeCatalog(base, headers, data);
  const page = await getJson(`${base}/api/inventory/channel-location?locationId=${data.locationIds[0]}&limit=${PAGE_SIZE}&page=2`, { headers });
  const products = page.body?.products;
  expect('channel-location page', page.status === 200 && products?.length === PAGE_SIZE && products[0]?.channels?.length === 3, page);
  const probed = { check: check.body.results, page: page.body, catalog: bare ? catalog : undefined };
  if (bare) return probed;
  // On a line outside both adjustment targets, so the lost-update check is not disturbed: +1 then -1.
  const probeLine = await getJson(`${base}/api/inventory?locationId=${data.locationIds[1]}&limit=1`, { headers });
  const lineId = probeLine.body?.items?.[0]?.id;
  for (const delta of [1, -1]) {
    const adjust = await getJson(`${base}/api/inventory/adjust`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ inventoryItemId: lineId, delta, reasonCodeId: 'COUNT_CORRECTION' }),
    });
    expect('adjustment', adjust.status === 200 && typeof adjust.body?.transaction?.id === 'string', adjust);
  }
  return probed;
}

interface Target {
  name: string;
  script: 'service' | 'bare';
  /** How each request differs (none: the same request every time, `body` if any). */
  kind?: GeneratorKind;
  body?: string;
  path: string;
  method: 'GET' | 'POST';
  lines?: 'across' | 'hot';
  /** Fixed concurrency (default: the backend's). */
  connections?: number;
}

const ADJUST = '/api/inventory/adjust';
const CHECK = '/api/inventory/availability/check';
const PLAN: Target[] = [
  { name: TARGETS.check, script: 'service', kind: 'availability', path: CHECK, method: 'POST' },
  // The latency of one check when nothing queues ahead of it.
  { name: TARGETS.checkSerial, script: 'service', kind: 'availability', path: CHECK, method: 'POST', connections: 1 },
  // How the latency grows with the number of checks in flight at once (2 cores: they queue for CPU).
  { name: TARGETS.check8, script: 'service', kind: 'availability', path: CHECK, method: 'POST', connections: 8 },
  { name: TARGETS.check16, script: 'service', kind: 'availability', path: CHECK, method: 'POST', connections: 16 },
  { name: TARGETS.page, script: 'service', kind: 'channel-page', path: '/api/inventory/channel-location', method: 'GET' },
  { name: TARGETS.across, script: 'service', kind: 'adjust', path: ADJUST, method: 'POST', lines: 'across' },
  { name: TARGETS.hot, script: 'service', kind: 'adjust', path: ADJUST, method: 'POST', lines: 'hot' },
  { name: TARGETS.bareCheck, script: 'bare', kind: 'availability', path: CHECK, method: 'POST' },
  { name: TARGETS.barePage, script: 'bare', kind: 'channel-page', path: '/api/inventory/channel-location', method: 'GET' },
  { name: TARGETS.bareAcross, script: 'bare', kind: 'adjust', path: ADJUST, method: 'POST', lines: 'across' },
  { name: TARGETS.sku, script: 'service', kind: 'paths', path: '/api/products', method: 'GET' },
  { name: TARGETS.stockList, script: 'service', path: '/graphql', method: 'POST', body: STOCK_LIST_BODY },
  { name: TARGETS.bareSku, script: 'bare', kind: 'paths', path: '/api/products', method: 'GET' },
  { name: TARGETS.bareStockList, script: 'bare', path: '/graphql', method: 'POST', body: STOCK_LIST_BODY },
];
/** Table order: each service target after its bare yardstick. */
const ORDER = [
  TARGETS.bareCheck, TARGETS.check, TARGETS.check16, TARGETS.check8, TARGETS.checkSerial, TARGETS.barePage, TARGETS.page, TARGETS.bareAcross, TARGETS.across, TARGETS.hot,
  TARGETS.bareSku, TARGETS.sku, TARGETS.bareStockList, TARGETS.stockList,
];
/** Each service target with a yardstick, and that yardstick ("vs bare"). */
const YARDSTICKS = [
  [TARGETS.check, TARGETS.bareCheck],
  [TARGETS.page, TARGETS.barePage],
  [TARGETS.across, TARGETS.bareAcross],
  [TARGETS.sku, TARGETS.bareSku],
  [TARGETS.stockList, TARGETS.bareStockList],
] as const;

export async function benchInventory(
  backend: string,
  target: { databaseUrl?: string; dataDir?: string },
  key: string,
  organizationId: string,
  data: InventoryData,
  database?: string,
): Promise<InventoryRun> {
  const work = await mkdtemp(join(tmpdir(), 'scm-bench-inventory-'));
  onCleanup(() => rm(work, { recursive: true, force: true }));
  const lineSets = {
    across: {
      label: 'adjustments on the 10,000 lines (service and bare server)',
      covers: [TARGETS.across, TARGETS.bareAcross],
      lineIds: data.adjustLineIds,
      records: [] as AdjustRecord[],
    },
    hot: { label: 'adjustments on the hot line', covers: [TARGETS.hot], lineIds: [data.hotLineId], records: [] as AdjustRecord[] },
  };
  const inputFile = async (name: string, lineIds: string[]) => {
    // A lookup by SKU of a random product, in any case (the lookup ignores it).
    const paths = data.skus.map((sku, i) => `/api/products?sku=${encodeURIComponent(i % 2 ? sku.toLowerCase() : sku)}`);
    const input: GeneratorInput = { skus: data.skus, locationIds: data.locationIds, lineIds, pages: Math.ceil(PRODUCT_COUNT / PAGE_SIZE), checkItems: CHECK_ITEMS, paths };
    const file = join(work, `${name}.json`);
    await writeFile(file, JSON.stringify(input));
    return file;
  };
  const connections = backend === 'PGlite' ? settings.pgliteConnections : settings.connections;
  const dbEnv: Record<string, string> = target.databaseUrl ? { DATABASE_URL: target.databaseUrl } : { DATA_DIR: target.dataDir! };
  const serviceEnv = { ...dbEnv, SEED_DEMO: 'false', NODE_ENV: 'production', JWT_SECRET: randomBytes(32).toString('base64url') };
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const rows: Row[] = [];
  const samples: string[] = [];
  const notes: string[] = [];
  const probed: { service?: Probed; bare?: Probed } = {};

  /** Measures one target; keeps what the load generator recorded in every round. */
  const run = async (server: Server, t: Target) => {
    const record = join(work, `record-${rows.length}.json`);
    const lineIds = t.lines ? lineSets[t.lines].lineIds : [];
    const spec: MeasureSpec = {
      url: `${server.base}${t.path}`,
      method: t.method,
      headers,
      connections: t.connections ?? connections,
      ...(t.kind ? { generator: { kind: t.kind, input: await inputFile(t.kind, lineIds), record } } : { body: t.body }),
    };
    const records: AdjustRecord[] = [];
    const read = async () => void (t.kind && records.push(JSON.parse(await readFile(record, 'utf8')) as AdjustRecord));
    rows.push(await measure(backend, t.name, server.child, database, spec, read));
    if (t.lines) lineSets[t.lines].records.push(...records);
    for (const r of records) for (const sample of r.samples) if (samples.length < 6) samples.push(`${t.name}: ${sample}`);
  };
  // One server for the service's targets and one for the bare server's, one at a time; under
  // --profile a server per target, so that each profile shows one kind of request.
  const groups = args.profile ? PLAN.map((t) => [t]) : [PLAN.filter((t) => t.script === 'service'), PLAN.filter((t) => t.script === 'bare')];
  for (const group of groups) {
    const bare = group[0]!.script === 'bare';
    const server = bare
      ? await startServer('bench/harness/bare-server.ts', dbEnv, `${backend}-bare-inventory`)
      : await startServer('src/main.ts', serviceEnv, `${backend}-inventory`);
    try {
      probed[bare ? 'bare' : 'service'] ??= await probe(server.base, headers, data, bare);
      for (const t of group) await run(server, t);
      if (!bare && !args.profile) probed.service!.catalog = await probeCatalog(server.base, headers, data);
    } finally {
      await stopServer(server);
    }
  }
  const { service, bare } = probed;
  if (service && bare && !isDeepStrictEqual(service.check, bare.check)) {
    const at = service.check.findIndex((item, i) => !isDeepStrictEqual(item, bare.check[i]));
    notes.push(
      `Warning (${backend}): the bare server's availability check answered differently from the service's, first at item ${at}: ` +
        `${JSON.stringify(service.check[at])} against ${JSON.stringify(bare.check[at])}.`,
    );
    console.warn(notes.at(-1));
  }
  if (service && bare && !isDeepStrictEqual(service.page, bare.page)) {
    notes.push(`Warning (${backend}): the bare server's channel-location page answered differently from the service's: ` +
      `${JSON.stringify(service.page).slice(0, 300)} against ${JSON.stringify(bare.page).slice(0, 300)}.`);
    console.warn(notes.at(-1));
  }
  for (const what of ['sku', 'stockList'] as const) {
    if (!service?.catalog || !bare?.catalog || isDeepStrictEqual(service.catalog[what], bare.catalog[what])) continue;
    notes.push(`Warning (${backend}): the bare server's ${what === 'sku' ? 'lookup by SKU' : 'products with stock'} answered differently from the service's: ` +
      `${JSON.stringify(service.catalog[what]).slice(0, 300)} against ${JSON.stringify(bare.catalog[what]).slice(0, 300)}.`);
    console.warn(notes.at(-1));
  }
  rows.sort((a, b) => ORDER.indexOf(a.target) - ORDER.indexOf(b.target));
  for (const [name, yardstickName] of YARDSTICKS) {
    const row = rows.find((r) => r.target === name);
    const yardstick = rows.find((r) => r.target === yardstickName)?.result.requestsPerSec;
    if (row && yardstick) row.ratio = row.result.requestsPerSec / yardstick;
  }
  // The servers have stopped: whatever they were still doing for cut-off requests is committed or rolled back.
  const checks: InventoryRun['checks'] = [];
  for (const set of Object.values(lineSets)) {
    const check = await checkAdjustments(target, organizationId, set.lineIds, set.records);
    console.log(`  ${backend} ${set.label}: ${check.ok ? 'OK' : 'FAILED'}: ${check.summary}`);
    checks.push({ label: set.label, covers: set.covers, check });
  }
  return { rows, checks, samples, notes };
}
