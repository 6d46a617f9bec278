// The yardstick for `npm run bench`: the least a server can do to answer GET /api/products?limit=50 —
// node:http and a database driver, no framework. Per request it does the same work as the service:
// find the API key by its SHA-256 hash joined with its organization (kept 5 s, as the service's
// API_KEY_CACHE_SECONDS keeps it), check it, then fetch the page of newest products with the total from the
// same counter the service reads (docs/lists.md) in one statement, as the service does, and answer {data, meta}. On PostgreSQL every
// statement is prepared once per connection (named), as the service's are.
// Two inventory endpoints the same way (bench/harness/bare-inventory.ts): POST /api/inventory/adjust and
// POST /api/inventory/availability/check, and the channel-location page (bench/harness/bare-channel-page.ts). The Vendure-style comparison (bench/harness/bare-catalog.ts): a lookup by
// SKU (GET /api/products?sku=) and a list of products with their stock (POST /graphql, the benchmark's document). The cycle-count views of the --warehouse part the same way
// (bench/inventory/cycle-counts/bare-cycle-counts.ts): GET /api/inventory/cycle-count, all-products and to-resolve.
// The planning recommendations of the --planning part (bench/planning/recommendations/bare-recommendations.ts).
//
// DATABASE_URL set: PostgreSQL through a pg Pool of the service's default size (10).
// Otherwise DATA_DIR: PGlite on that folder (single user, so run it alone).
import { createHash } from 'node:crypto';
import { createPGlite } from '../../src/db/pglite-extensions.js';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import pg from 'pg';
import { inventoryHandlers } from './bare-inventory.js';
import { catalogHandlers } from './bare-catalog.js';
import { channelPageHandlers } from './bare-channel-page.js';
import { cycleCountHandlers } from '../inventory/cycle-counts/bare-cycle-counts.js';
import { planningHandlers } from '../planning/recommendations/bare-recommendations.js';

type Query = (sql: string, params: unknown[]) => Promise<Record<string, any>[]>;

const AUTH_SQL = `
  SELECT k.id, k.scopes, k."allowedIps", k."expiresAt", k."revokedAt", o.id AS "orgId", o.status::text AS "orgStatus"
  FROM api_keys k JOIN organizations o ON o.id = k."organizationId"
  WHERE k."keyHash" = $1 OR (k."previousKeyHash" = $1 AND k."previousExpiresAt" > $2)
  LIMIT 1`;
// The page and the counter the service reads (docs/lists.md) in one statement, as the service reads them.
const PAGE_SQL = `
  SELECT c.total, p.* FROM (SELECT SUM(delta)::int AS total FROM row_count_deltas WHERE "organizationId" = $1 AND counted = 'products' AND "scopeId" = '') c
  LEFT JOIN LATERAL (
    SELECT id, sku, name, description, "organizationId", "createdAt", "updatedAt"
    FROM product_masters WHERE "organizationId" >= $1 AND "organizationId" <= $1 ORDER BY "organizationId" DESC, id DESC LIMIT $2 OFFSET $3) p ON true
  ORDER BY p.id DESC`;
// The API-key scopes that grant products.read (src/auth/permissions.ts).
const PRODUCT_READ_SCOPES = new Set(['*', 'inventory:read', 'inventory:write', 'inventory:*']);
/** How long a key lookup is kept (the service's default API_KEY_CACHE_SECONDS). */
const KEY_CACHE_MS = 5_000;

async function openQuery(): Promise<{ query: Query; close(): Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (url) {
    // Prisma stores DateTime as timestamp(3) without time zone, in UTC.
    pg.types.setTypeParser(1114, (value: string) => new Date(value.replace(' ', 'T') + 'Z'));
    // A date stays its text (YYYY-MM-DD), as the GraphQL Date scalar writes it.
    pg.types.setTypeParser(1082, (value: string) => value);
    const pool = new pg.Pool({ connectionString: url, max: Number(process.env.POOL_SIZE ?? 10) });
    const names = new Map<string, string>();
    const nameOf = (sql: string) => names.get(sql) ?? (names.set(sql, `bare_${names.size}`), names.get(sql)!);
    return { query: async (sql, params) => (await pool.query({ name: nameOf(sql), text: sql, values: params })).rows, close: () => pool.end() };
  }
  const dataDir = process.env.DATA_DIR;
  if (!dataDir) throw new Error('Set DATABASE_URL or DATA_DIR');
  const db = await createPGlite(dataDir);
  return { query: async (sql, params) => (await db.query<Record<string, any>>(sql, params)).rows, close: () => db.close() };
}

function send(res: ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function intParam(value: string | null, fallback: number, max: number): number | null {
  if (value === null) return fallback;
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 && n <= max ? n : null;
}

const { query, close } = await openQuery();

const keys = new Map<string, { key: Record<string, any> | undefined; until: number }>();

/** The API key and its organization when it may use one of `scopes`; otherwise answers 401/403 and returns null. */
async function authorize(req: IncomingMessage, res: ServerResponse, scopes: Set<string>): Promise<{ orgId: string; keyId: string } | null> {
  const bearer = req.headers.authorization?.match(/^Bearer\s+(.+)$/i)?.[1]?.trim();
  const refuse = (status: number, error: string, code: string) => {
    send(res, status, { error, code });
    return null;
  };
  if (!bearer) return refuse(401, 'Authentication required', 'UNAUTHENTICATED');
  const now = new Date();
  const hash = createHash('sha256').update(bearer).digest('hex');
  let cached = keys.get(hash);
  if (!cached || cached.until <= now.getTime()) keys.set(hash, (cached = { key: (await query(AUTH_SQL, [hash, now]))[0], until: now.getTime() + KEY_CACHE_MS }));
  const key = cached.key;
  if (!key || key.revokedAt || (key.expiresAt && key.expiresAt <= now) || key.allowedIps.length || key.orgStatus !== 'ACTIVE') {
    return refuse(401, 'API key not found or invalid', 'INVALID_API_KEY');
  }
  if (!key.scopes.some((scope: string) => scopes.has(scope))) return refuse(403, 'Forbidden', 'FORBIDDEN');
  return { orgId: key.orgId as string, keyId: key.id as string };
}

const { adjust, checkAvailability } = inventoryHandlers({ query, authorize, send });
const { lookupBySku, productsWithStock } = catalogHandlers({ query, authorize, send });
const { channelLocation } = channelPageHandlers({ query, authorize, send });
const { cycleCount } = cycleCountHandlers({ query, authorize, send });
const { recommendations } = planningHandlers({ query, authorize, send });

async function listProducts(req: IncomingMessage, res: ServerResponse, url: URL) {
  const key = await authorize(req, res, PRODUCT_READ_SCOPES);
  if (!key) return;
  const page = intParam(url.searchParams.get('page'), 1, 1_000_000);
  const limit = intParam(url.searchParams.get('limit'), 50, 100);
  if (page === null || limit === null) return send(res, 400, { error: 'Invalid paging', code: 'VALIDATION_ERROR' });
  const rows = await query(PAGE_SQL, [key.orgId, limit, (page - 1) * limit]);
  const items = rows.filter((row) => row.id !== null).map(({ total: _total, ...product }) => product);
  const total = Number(rows[0]?.total ?? 0);
  send(res, 200, { data: items, meta: { page, limit, total, totalPages: Math.ceil(total / limit) } });
}

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (url.pathname === '/health') return send(res, 200, { status: 'ok' });
  const failed = (error: any) => send(res, 500, { error: String(error?.message ?? error), code: 'INTERNAL' });
  const sku = url.searchParams.get('sku');
  if (req.method === 'GET' && url.pathname === '/api/products' && sku !== null) return void lookupBySku(req, res, sku).catch(failed);
  if (req.method === 'GET' && url.pathname === '/api/products') return void listProducts(req, res, url).catch(failed);
  if (req.method === 'POST' && url.pathname === '/graphql') return void productsWithStock(req, res).catch(failed);
  if (req.method === 'POST' && url.pathname === '/api/inventory/adjust') return void adjust(req, res).catch(failed);
  if (req.method === 'POST' && url.pathname === '/api/inventory/availability/check') return void checkAvailability(req, res).catch(failed);
  if (req.method === 'GET' && url.pathname === '/api/inventory/channel-location') return void channelLocation(req, res, url).catch(failed);
  if (req.method === 'GET' && url.pathname === '/api/inventory/cycle-count') return void cycleCount(req, res, url).catch(failed);
  if (req.method === 'GET' && url.pathname === '/api/planning/recommendations') return void recommendations(req, res, url).catch(failed);
  send(res, 404, { error: 'Not found', code: 'NOT_FOUND' });
});

server.listen(Number(process.env.PORT ?? 4100), '127.0.0.1', () => console.log(`bare server on http://127.0.0.1:${process.env.PORT ?? 4100}`));

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    server.closeAllConnections();
    server.close(() => close().finally(() => process.exit(0)));
  });
}
