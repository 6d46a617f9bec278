// Where the inventory targets of `npm run bench` spend their time, piece by piece, in one process on
// PostgreSQL: the same work through raw `pg`, through Prisma, the service function, GraphQL execution
// and the whole in-process HTTP handler (no sockets). Each step runs sequentially N times after a
// warm-up and reports wall time and this process' CPU time per operation; wall minus CPU is roughly the
// time spent waiting for PostgreSQL. `npx tsx bench/inventory/breakdown.ts [N] [adjust|check|page|list|catalog ...]`
// (BENCH_DATABASE_URL as for npm run bench; a scratch database is created and dropped).
import { execute, parse } from 'graphql';
import pg from 'pg';
import { ApiKeyCache, type ApiKeyRow } from '../../src/auth/api-key-cache.js';
import { loadConfig } from '../../src/config.js';
import { type App, systemContext } from '../../src/context.js';
import { openDatabase } from '../../src/db/database.js';
import { schema } from '../../src/schema/index.js';
import { createHttpHandler } from '../../src/server/app.js';
import { authenticate } from '../../src/services/auth/authenticate.js';
import { findReasonCode } from '../../src/services/inventory/adjustments/reason-code-rules.js';
import { lockLines, applyStockChange } from '../../src/services/inventory/ledger/stock-ledger.js';
import { inTransaction, TRANSACTION } from '../../src/db/transactions.js';
import { adjustStockBy } from '../../src/services/inventory/adjustments/adjustments.js';
import { checkAvailability } from '../../src/services/inventory/availability/availability.js';
import { channelLocationAtp } from '../../src/services/inventory/channel-atp/channel-atp.js';
import { inventoryArea } from '../../rest-adapter/inventory/inventory-area.js';
import { createScratchDatabase, loadBenchmarkData, probePostgres } from '../harness/data.js';
import { timeStep } from '../harness/time-step.js';
import { loadInventoryData } from './data.js';
import { withTypedMutationErrors } from '../../rest-adapter/typed-mutation-errors.js';

const N = Number(process.argv[2] ?? 300);
const parts = new Set(process.argv.slice(3).length ? process.argv.slice(3) : ['adjust', 'check', 'page']);
const adminUrl = process.env.BENCH_DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/postgres';

// The list with stock in one request of the Vendure-style comparison (bench/inventory/bench-inventory.ts).
const STOCK_LIST =
  '{ products(first: 50) { totalCount edges { node { id sku name stock(first: 10) { totalCount edges { node { id locationId quantityOnHand quantityAvailable } } } } } } }';

const step = (name: string, fn: () => Promise<unknown>, n = N) => timeStep(name, fn, { n, warmup: Math.min(50, n), width: 64 });

// As the route runs it: a mutation's selection narrowed to its result type, the typed refusal selected.
const operation = (routes: { method: string; path: string; operation: string }[], method: string, path: string) =>
  withTypedMutationErrors(schema, parse(routes.find((r) => r.method === method && r.path === path)!.operation)).document;
const pick = <T>(list: T[]): T => list[Math.floor(Math.random() * list.length)]!;

const probe = await probePostgres(adminUrl);
if ('skip' in probe) {
  console.log(`PostgreSQL: ${probe.skip}`);
  process.exit(0);
}
const scratch = await createScratchDatabase(adminUrl);
try {
  const { key, organizationId } = await loadBenchmarkData({ databaseUrl: scratch.url });
  const data = await loadInventoryData({ databaseUrl: scratch.url }, organizationId);
  const database = await openDatabase({ databaseUrl: scratch.url, migrate: false });
  const pool = new pg.Pool({ connectionString: scratch.url, max: 10 });
  try {
    const config = loadConfig({ SEED_DEMO: 'false', JWT_SECRET: 'breakdown-secret-that-is-long-enough-0000' });
    const app: App = { prisma: database.prisma, directSql: database.directSql, apiKeys: new ApiKeyCache<ApiKeyRow>(5_000), config, jwtKey: new TextEncoder().encode(config.jwtSecret) };
    const auth = await authenticate(app, { token: key, clientIp: '127.0.0.1' });
    if (!auth) throw new Error('The benchmark key does not authenticate');
    const ctx = systemContext(app, { organization: auth.organization, actor: auth.actor, permissions: auth.permissions, origin: 'bench' });
    const handler = createHttpHandler(app);
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const http = async (method: string, path: string, body?: unknown) => {
      const init: RequestInit = { method, headers, body: body === undefined ? undefined : JSON.stringify(body) };
      const response = await handler.fetch(new Request(`http://127.0.0.1${path}`, init));
      await response.text();
      if (response.status !== 200) throw new Error(`${method} ${path}: ${response.status}`);
    };
    // The statements one HTTP request sends, from Prisma's query log (which leaves out BEGIN).
    const logged: string[] = [];
    const counting = await openDatabase({ databaseUrl: scratch.url, migrate: false, onQuery: (sql) => logged.push(sql) });
    const countingHandler = createHttpHandler({ ...app, prisma: counting.prisma, directSql: counting.directSql });
    const statements = async (method: string, path: string, body?: unknown) => {
      await countingHandler.fetch(new Request(`http://127.0.0.1${path}`, { method, headers, body: JSON.stringify(body) })).then((r) => r.text());
      logged.length = 0;
      const response = await countingHandler.fetch(new Request(`http://127.0.0.1${path}`, { method, headers, body: JSON.stringify(body) }));
      await response.text();
      const kinds = logged.map((sql) => /^\s*(\w+)(?:\s+INTO\s+"?[\w.]*"?\."?(\w+)|[\s\S]*?\bFROM\s+"?(?:public"?\.)?"?(\w+))?/i.exec(sql)).map((m) => `${m?.[1]} ${m?.[2] ?? m?.[3] ?? ''}`.trim());
      console.log(`${method} ${path}: ${response.status}, ${logged.length} statements (Prisma's log, without BEGIN): ${kinds.join(', ')}`);
    };
    await statements('POST', '/api/inventory/adjust', { inventoryItemId: data.adjustLineIds[1], delta: 1, reasonCodeId: 'COUNT_CORRECTION' });
    await statements('POST', '/api/inventory/availability/check', { items: data.skus.slice(0, 100).map((sku) => ({ sku, locationId: data.locationIds[0], quantity: 1 })) });
    await statements('GET', `/api/inventory?locationId=${data.locationIds[0]}&limit=50`, undefined);
    await statements('GET', `/api/products?sku=${data.skus[7]}`, undefined);
    await statements('POST', '/graphql', { query: STOCK_LIST });
    await counting.close();

    console.log(`\n${N} sequential operations each, PostgreSQL ${probe.version}\n`);
    await step('authenticate() (API key, per request)', () => authenticate(app, { token: key, clientIp: '127.0.0.1' }));

    if (parts.has('adjust')) {
      const reason = await findReasonCode(ctx, 'COUNT_CORRECTION', 'reasonCodeId');
      const firstProduct = (await database.prisma.stockLine.findUniqueOrThrow({ where: { id: data.adjustLineIds[0]! } })).productMasterId;
      let sign = 1;
      const next = () => ({ line: pick(data.adjustLineIds), delta: (sign = -sign) });
      const lockSql = `SELECT sl.*, l.code AS "lotCode", l."expiryDate", l.recalled AS "lotRecalled", b.code AS "binCode"
        FROM stock_lines sl LEFT JOIN lots l ON l.id = sl."lotId" LEFT JOIN bins b ON b.id = sl."binId"
        WHERE sl.id IN ($1) AND sl."organizationId" = $2 ORDER BY sl.id FOR UPDATE OF sl`;
      const updateSql = `UPDATE stock_lines SET "qtyOnHand" = "qtyOnHand" + $3::int, "updatedAt" = now()
        WHERE id = $1 AND "organizationId" = $2 AND "qtyOnHand" + $3::int >= "qtyReserved" + "qtyOnHold" + "qtyPicked" + "qtyRecalled" + "qtyExpired"
        RETURNING *`;
      const insertSql = `INSERT INTO stock_transactions (id, "organizationId", "stockLineId", "productMasterId", "locationId", "transactionType",
          bucket, "deltaQty", "qtyBefore", "qtyAfter", "reasonCodeId", "reasonCode", "actorType", "createdBy", "sourceType", "sourceId")
        VALUES (gen_random_uuid()::text, $1, $2, $3, $4, 'ADJUSTMENT', 'ON_HAND', $5, $6, $7, $8, 'COUNT_CORRECTION', 'API_KEY', 'bench', 'ADJUSTMENT', gen_random_uuid()::text)
        RETURNING *`;
      await step('pg: reason code lookup', () =>
        pool.query(`SELECT * FROM reason_codes WHERE "organizationId" = $1 AND active AND (id = $2 OR lower(code) = lower($2)) LIMIT 1`, [
          organizationId,
          'COUNT_CORRECTION',
        ]),
      );
      await step('pg: BEGIN; lock; UPDATE; INSERT ledger; COMMIT (5 round trips)', async () => {
        const { line, delta } = next();
        const client = await pool.connect();
        try {
          await client.query('BEGIN');
          await client.query(lockSql, [line, organizationId]);
          const { rows } = await client.query(updateSql, [line, organizationId, delta]);
          const row = rows[0];
          await client.query(insertSql, [organizationId, line, row.productMasterId, row.locationId, delta, row.qtyOnHand - delta, row.qtyOnHand, reason.id]);
          await client.query('COMMIT');
        } finally {
          client.release();
        }
      });
      await step('pg: the same in one statement (UPDATE ... RETURNING feeding INSERT)', () => {
        const { line, delta } = next();
        return pool.query(
          `WITH u AS (${updateSql})
           INSERT INTO stock_transactions (id, "organizationId", "stockLineId", "productMasterId", "locationId", "transactionType",
             bucket, "deltaQty", "qtyBefore", "qtyAfter", "reasonCodeId", "reasonCode", "actorType", "createdBy", "sourceType", "sourceId")
           SELECT gen_random_uuid()::text, $2, u.id, u."productMasterId", u."locationId", 'ADJUSTMENT', 'ON_HAND', $3, u."qtyOnHand" - $3, u."qtyOnHand",
             $4, 'COUNT_CORRECTION', 'API_KEY', 'bench', 'ADJUSTMENT', gen_random_uuid()::text FROM u
           RETURNING *`,
          [line, organizationId, delta, reason.id],
        );
      });
      await step('Prisma: findReasonCode()', () => findReasonCode(ctx, 'COUNT_CORRECTION', 'reasonCodeId'));
      await step('Prisma: empty interactive $transaction', () => inTransaction(ctx, async () => {}, TRANSACTION));
      await step('Prisma: $transaction with lockLines()', () => inTransaction(ctx, (ctx) => lockLines(ctx, [next().line]), TRANSACTION));
      await step('Prisma: stockTransaction.createManyAndReturn(1 row), no transaction', () => {
        const { line, delta } = next();
        return database.prisma.stockTransaction.createManyAndReturn({
          data: [{ organizationId, stockLineId: line, productMasterId: firstProduct, locationId: data.adjustLocationId, transactionType: 'BENCH',
            deltaQty: 0 * delta, qtyBefore: 0, qtyAfter: 0, actorType: 'API_KEY', createdBy: 'bench' }],
        });
      });
      await step('Prisma: stockTransaction.create(1 row), no transaction', () => {
        const { line } = next();
        return database.prisma.stockTransaction.create({
          data: { organizationId, stockLineId: line, productMasterId: firstProduct, locationId: data.adjustLocationId, transactionType: 'BENCH',
            deltaQty: 0, qtyBefore: 0, qtyAfter: 0, actorType: 'API_KEY', createdBy: 'bench' },
        });
      });
      await step('Prisma: $queryRaw guarded UPDATE ... RETURNING *, no transaction', () => {
        const { line, delta } = next();
        return database.prisma.$queryRawUnsafe(updateSql, line, organizationId, delta);
      });
      await step('Prisma: $transaction with lockLines() + applyStockChange()', () => {
        const { line, delta } = next();
        return inTransaction(ctx, async (ctx) => {
          await lockLines(ctx, [line]);
          await applyStockChange(ctx, { stockLineId: line, deltas: { ON_HAND: delta }, transactionType: 'ADJUSTMENT', reasonCodeId: reason.id, reasonCode: reason.code });
        }, TRANSACTION);
      });
      await step('service: adjustStockBy()', () => {
        const { line, delta } = next();
        return adjustStockBy(ctx, { inventoryItemId: line, delta, reasonCodeId: 'COUNT_CORRECTION' });
      });
      const document = operation(inventoryArea.routes, 'POST', '/api/inventory/adjust');
      await step('GraphQL: execute adjustStockBy, context given', () => {
        const { line, delta } = next();
        return execute({ schema, document, contextValue: ctx, variableValues: { input: { inventoryItemId: line, delta, reasonCodeId: 'COUNT_CORRECTION' } } }) as Promise<unknown>;
      });
      await step('HTTP handler in-process: POST /api/inventory/adjust', () => {
        const { line, delta } = next();
        return http('POST', '/api/inventory/adjust', { inventoryItemId: line, delta, reasonCodeId: 'COUNT_CORRECTION' });
      });
    }

    if (parts.has('check')) {
      const items = () => Array.from({ length: 100 }, () => ({ sku: pick(data.skus), locationId: pick(data.locationIds), quantity: 10 }));
      const checkSql = `SELECT r.sku, r."locationId", s."qtyOnHand", s."qtyReserved", s."qtyOnHold", s."qtyPicked", s."qtyRecalled", s."qtyExpired",
               l."expiryDate", l.recalled
        FROM unnest($2::text[], $3::text[]) AS r(sku, "locationId")
        JOIN product_masters p ON p."organizationId" = $1 AND p.sku = r.sku
        JOIN stock_lines s ON s."organizationId" = $1 AND s."productMasterId" = p.id AND s."locationId" = r."locationId"
        LEFT JOIN lots l ON l.id = s."lotId"`;
      await step('pg: the check query (100 pairs)', () => {
        const list = items();
        return pool.query(checkSql, [organizationId, list.map((i) => i.sku), list.map((i) => i.locationId)]);
      });
      // The same rows, with the SKUs resolved first through the (organizationId, sku) unique index
      // instead of a hash join over every product of the organization.
      const indexSql = `WITH p AS MATERIALIZED (SELECT id, sku FROM product_masters WHERE "organizationId" = $1 AND sku = ANY($2::text[]))
        SELECT r.sku, r."locationId", s."qtyOnHand", s."qtyReserved", s."qtyOnHold", s."qtyPicked", s."qtyRecalled", s."qtyExpired",
               l."expiryDate", l.recalled
        FROM unnest($2::text[], $3::text[]) AS r(sku, "locationId")
        JOIN p ON p.sku = r.sku
        JOIN stock_lines s ON s."productMasterId" = p.id AND s."locationId" = r."locationId" AND s."organizationId" = $1
        LEFT JOIN lots l ON l.id = s."lotId"`;
      await step('pg: the check query, SKUs first by index (same rows)', () => {
        const list = items();
        return pool.query(indexSql, [organizationId, list.map((i) => i.sku), list.map((i) => i.locationId)]);
      });
      await step('Prisma: $queryRawUnsafe, the same query', () => {
        const list = items();
        return database.prisma.$queryRawUnsafe(checkSql, organizationId, list.map((i) => i.sku), list.map((i) => i.locationId));
      });
      await step('service: checkAvailability()', () => checkAvailability(ctx, { items: items() }));
      const document = operation(inventoryArea.routes, 'POST', '/api/inventory/availability/check');
      await step('GraphQL: execute checkAvailability, context given', () => execute({ schema, document, contextValue: ctx, variableValues: { input: { items: items() } } }) as Promise<unknown>);
      await step('HTTP handler in-process: POST /api/inventory/availability/check', () => http('POST', '/api/inventory/availability/check', { items: items() }));
    }

    if (parts.has('list')) {
      const args = () => ({ locationId: pick(data.locationIds), limit: 50, page: 1 + Math.floor(Math.random() * 20) });
      await step('pg: a location\'s 50 lines with their lots\' expiry', () => {
        const a = args();
        return pool.query(
          `SELECT s.*, l."expiryDate" FROM stock_lines s LEFT JOIN lots l ON l.id = s."lotId"
           WHERE s."organizationId" = $1 AND s."locationId" = $2 ORDER BY s.id LIMIT 50 OFFSET $3`,
          [organizationId, a.locationId, (a.page - 1) * 50],
        );
      });
      const document = operation(inventoryArea.routes, 'GET', '/api/inventory');
      await step('GraphQL: execute stockLinesPage (the REST selection), context given', () => execute({ schema, document, contextValue: ctx, variableValues: args() }) as Promise<unknown>);
      await step('HTTP handler in-process: GET /api/inventory?locationId&limit=50', () => {
        const a = args();
        return http('GET', `/api/inventory?locationId=${a.locationId}&limit=50&page=${a.page}`);
      });
    }

    if (parts.has('catalog')) {
      await step('pg: a product by organization and lower(sku)', () =>
        pool.query(`SELECT * FROM product_masters WHERE "organizationId" = $1 AND lower(sku) = lower($2)`, [organizationId, pick(data.skus)]),
      );
      await step('HTTP handler in-process: GET /api/products?sku=', () => http('GET', `/api/products?sku=${encodeURIComponent(pick(data.skus))}`));
      const document = parse(STOCK_LIST);
      await step('GraphQL: execute products(first: 50) with stock, context given', () => execute({ schema, document, contextValue: ctx }) as Promise<unknown>);
      await step('HTTP handler in-process: POST /graphql products with stock', () => http('POST', '/graphql', { query: STOCK_LIST }));
    }

    if (parts.has('page')) {
      const n = Math.max(20, Math.floor(N / 5));
      const args = () => ({ locationId: pick(data.locationIds), limit: 200, page: 1 + Math.floor(Math.random() * 50) });
      await step('service: channelLocationAtp()', () => channelLocationAtp(ctx, args()), n);
      const document = operation(inventoryArea.routes, 'GET', '/api/inventory/channel-location');
      await step('GraphQL: execute channelLocationAtp, context given', () => execute({ schema, document, contextValue: ctx, variableValues: args() }) as Promise<unknown>, n);
      await step('HTTP handler in-process: GET /api/inventory/channel-location', () => {
        const a = args();
        return http('GET', `/api/inventory/channel-location?locationId=${a.locationId}&limit=200&page=${a.page}`);
      }, n);
    }
  } finally {
    await pool.end();
    await database.close();
  }
} finally {
  await scratch.drop();
}
