// Where one GET /api/products?limit=50 spends its time, piece by piece, in one process on PostgreSQL:
// the same work through raw `pg`, through Prisma, through GraphQL execution and through the whole
// in-process HTTP handler (no sockets). Each step runs sequentially N times after a warm-up and reports
// wall time and this process' CPU time per operation. `npx tsx bench/products/breakdown.ts [N]`
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
import { hashApiKey } from '../../src/services/auth/secrets.js';
import { listProducts } from '../../src/services/products/products.js';
import { createScratchDatabase, loadBenchmarkData, probePostgres } from '../harness/data.js';
import { timeStep } from '../harness/time-step.js';

const N = Number(process.argv[2] ?? 500);
const adminUrl = process.env.BENCH_DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/postgres';

const step = (name: string, fn: () => Promise<unknown>) => timeStep(name, fn, { n: N, warmup: Math.min(100, N), width: 58 });

const probe = await probePostgres(adminUrl);
if ('skip' in probe) {
  console.log(`PostgreSQL: ${probe.skip}`);
  process.exit(0);
}
const scratch = await createScratchDatabase(adminUrl);
try {
  const { key, organizationId } = await loadBenchmarkData({ databaseUrl: scratch.url });
  const database = await openDatabase({ databaseUrl: scratch.url, migrate: false });
  const pool = new pg.Pool({ connectionString: scratch.url, max: 10 });
  try {
    const config = loadConfig({ SEED_DEMO: 'false', JWT_SECRET: 'breakdown-secret-that-is-long-enough-0000' });
    const app: App = { prisma: database.prisma, directSql: database.directSql, apiKeys: new ApiKeyCache<ApiKeyRow>(5_000), config, jwtKey: new TextEncoder().encode(config.jwtSecret) };
    const credentials = { token: key, clientIp: '127.0.0.1' };
    const auth = await authenticate(app, credentials);
    if (!auth) throw new Error('The benchmark key does not authenticate');
    const ctx = systemContext(app, { organization: auth.organization, actor: auth.actor, permissions: auth.permissions, origin: 'bench' });
    const hash = hashApiKey(key);
    const handler = createHttpHandler(app);
    const document = parse(
      '{ productsPage(limit: 50) { items { id sku name description organizationId createdAt updatedAt } page limit total totalPages } }',
    );
    const headers = { authorization: `Bearer ${key}` };
    const gqlBody = JSON.stringify({ query: '{ productsPage(limit: 50) { items { id sku name description organizationId createdAt updatedAt } page limit total totalPages } }' });

    console.log(`${N} sequential operations each, PostgreSQL ${probe.version}\n`);
    await step('pg: SELECT 1', () => pool.query('SELECT 1'));
    await step('pg: API key + organization', () =>
      pool.query(
        `SELECT k.*, o.id AS "orgId", o.status::text AS "orgStatus" FROM api_keys k JOIN organizations o ON o.id = k."organizationId"
         WHERE k."keyHash" = $1 OR (k."previousKeyHash" = $1 AND k."previousExpiresAt" > $2) LIMIT 1`,
        [hash, new Date()],
      ),
    );
    const pageSql = `SELECT id, sku, name, description, "organizationId", "createdAt", "updatedAt" FROM product_masters
      WHERE "organizationId" = $1 ORDER BY id DESC LIMIT 50`;
    const countSql = `SELECT COUNT(*)::int AS count FROM product_masters WHERE "organizationId" = $1`;
    await step('pg: 50 newest products', () => pool.query(pageSql, [organizationId]));
    await step('pg: count', () => pool.query(countSql, [organizationId]));
    await step('pg: page + count in parallel', () => Promise.all([pool.query(pageSql, [organizationId]), pool.query(countSql, [organizationId])]));
    await step('Prisma: $queryRaw SELECT 1', () => database.prisma.$queryRaw`SELECT 1`);
    await step('Prisma: authenticate() (API key)', () => authenticate(app, credentials));
    await step('Prisma: findMany 50 (all columns)', () =>
      database.prisma.productMaster.findMany({ where: { organizationId }, orderBy: { id: 'desc' }, take: 50 }),
    );
    await step('Prisma: findMany 50 (the 7 fields REST returns)', () =>
      database.prisma.productMaster.findMany({
        where: { organizationId },
        orderBy: { id: 'desc' },
        take: 50,
        select: { id: true, sku: true, name: true, description: true, organizationId: true, createdAt: true, updatedAt: true },
      }),
    );
    await step('Prisma: count', () => database.prisma.productMaster.count({ where: { organizationId } }));
    await step('service: listProducts() (findMany + count)', () => listProducts(ctx, { limit: 50 }));
    await step('GraphQL: execute productsPage, context given', () => execute({ schema, document, contextValue: ctx }) as Promise<unknown>);
    await step('HTTP handler in-process: REST GET /api/products', async () => {
      const response = await handler.fetch(new Request('http://127.0.0.1/api/products?limit=50', { headers }));
      await response.text();
    });
    await step('HTTP handler in-process: POST /graphql', async () => {
      const response = await handler.fetch(
        new Request('http://127.0.0.1/graphql', { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: gqlBody }),
      );
      await response.text();
    });
  } finally {
    await pool.end();
    await database.close();
  }
} finally {
  await scratch.drop();
}
