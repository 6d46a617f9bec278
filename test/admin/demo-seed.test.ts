import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

const config = (seed: boolean) => ({
  ...loadConfig({ SEED_DEMO: seed ? 'true' : 'false', JWT_SECRET: 'test-secret-that-is-long-enough-000000' }),
  port: 0,
});

// Servers share a database here; the test closes the databases itself.
const borrowed = (database: Database): Database => ({ ...database, close: async () => {} });

let db: TestDatabase;
let other: Database | undefined;
const servers: RunningServer[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  // A second connection pool makes two instances really race on PostgreSQL; PGlite has one connection.
  if (db.url) other = await openDatabase({ databaseUrl: db.url, migrate: false, poolSize: 2 });
});
afterAll(async () => {
  for (const server of servers) await server.close();
  await other?.close();
  await db?.close();
});

async function start(seed: boolean, database: Database) {
  const lines: string[] = [];
  const server = await startServer(config(seed), { database: borrowed(database), log: (m) => lines.push(m) });
  servers.push(server);
  return { server, output: lines.join('\n') };
}

async function call(server: RunningServer, method: string, path: string, options: { token?: string; body?: unknown } = {}) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const response = await fetch(server.url + path, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
  return { status: response.status, body: (await response.json()) as any };
}

function credentials(output: string) {
  const email = /Admin e-mail:\s+(\S+)/.exec(output)?.[1];
  const password = /Admin password:\s+(\S+)/.exec(output)?.[1];
  const apiKey = /API key \(scope \*\):\s+(\S+)/.exec(output)?.[1];
  return { email, password, apiKey };
}

describe('demo seed', () => {
  it('does nothing when SEED_DEMO is false', async () => {
    const fresh = await createTestDatabase();
    try {
      const server = await startServer(config(false), { database: borrowed(fresh), log: () => {} });
      await server.close();
      expect(await fresh.prisma.organization.count()).toBe(0);
      expect(await fresh.prisma.user.count()).toBe(0);
    } finally {
      await fresh.close();
    }
  });

  it('seeds an empty database once, even when two instances start together, and prints working credentials', async () => {
    const [a, b] = await Promise.all([start(true, db), start(true, other ?? db)]);
    const seeded = [a, b].filter((s) => s.output.includes('Demo data seeded'));
    expect(seeded).toHaveLength(1);
    const { server, output } = seeded[0]!;

    const { email, password, apiKey } = credentials(output);
    expect(email).toBe('admin@demo.local');
    expect(password).toMatch(/^\S{12,}$/);
    expect(apiKey).toMatch(/^scm_/);

    const signIn = await call(server, 'POST', '/api/auth/sign-in', { body: { email, password } });
    expect(signIn.status).toBe(200);
    expect(signIn.body).toMatchObject({ role: 'ADMIN', organizations: [{ name: 'Demo Organization', role: 'ADMIN' }] });

    const products = await call(server, 'GET', '/api/products?limit=100', { token: apiKey });
    expect(products.status).toBe(200);
    expect(products.body.meta.total).toBe(300);
    const skus = products.body.data.map((p: { sku: string }) => p.sku);
    expect(new Set(skus).size).toBe(skus.length);
    for (const product of products.body.data) expect(product.description).toEqual(expect.any(String));

    const seen = await call(server, 'POST', '/graphql', {
      token: signIn.body.token,
      body: {
        query: `{ viewer { organizationName capabilities }
          locations(first: 100) { edges { node { code type } } } channels(first: 100) { edges { node { name type } } }
          categories(first: 100) { totalCount edges { node { name } } }
          products(first: 100) { edges { node { unitCost categoryName } } } }`,
      },
    });
    expect(seen.body.errors).toBeUndefined();
    const nodes = <T>(connection: { edges: { node: T }[] }) => connection.edges.map((e) => e.node);
    const data = { ...seen.body.data, locations: nodes(seen.body.data.locations), channels: nodes(seen.body.data.channels), categories: nodes(seen.body.data.categories) };
    expect(data.viewer).toEqual({ organizationName: 'Demo Organization', capabilities: ['ai.forecasting.demand'] });
    expect(data.locations.map((l: { code: string }) => l.code).sort()).toEqual(['DC-EAST', 'DC-WEST', 'STORE-001', 'STORE-002']);
    expect(data.channels.map((c: { name: string }) => c.name).sort()).toEqual(['Online', 'Retail', 'Wholesale']);
    expect(data.categories).toHaveLength(6);
    const categoryNames = data.categories.map((c: { name: string }) => c.name);
    for (const { node } of data.products.edges) {
      expect(Number(node.unitCost)).toBeGreaterThan(0);
      expect(categoryNames).toContain(node.categoryName);
    }
    // The first page holds the first categories' products, in SKU order.
    expect(new Set(data.products.edges.map((e: { node: { categoryName: string } }) => e.node.categoryName)).size).toBeGreaterThan(1);

    await expectEveryArea(server, output, apiKey!);

    // The other instance saw the seed and stayed quiet; so does a later restart.
    const restart = await start(true, db);
    expect(restart.output).not.toContain('Demo data seeded');
    expect(restart.output).not.toContain(password!);
    expect(await db.prisma.organization.count()).toBe(1);
    expect(await db.prisma.user.count()).toBe(1);
    expect(await db.prisma.apiKey.count()).toBe(1);
    // The seed's forecast run (900 series) is the slow part: about a minute alone, several beside other files.
  }, 360_000);
});

/** What a newcomer sees: the banner's lines answer, and every area the issue names holds something. */
async function expectEveryArea(server: RunningServer, output: string, key: string) {
  const get = async (path: string) => {
    const res = await call(server, 'GET', path, { token: key });
    expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
    return res.body;
  };
  // The banner's three curl lines, run as printed (host and key put in).
  const curls = [...output.matchAll(/curl -s "localhost:\d+([^"]+)" -H "Authorization: Bearer \$KEY"/g)].map((m) => m[1]!);
  expect(curls).toHaveLength(3);
  for (const path of curls) {
    const body = await get(path);
    expect((body.data ?? body.items ?? body.recommendations ?? []).length, path).toBeGreaterThan(0);
  }
  const graphiql = /GraphiQL[^\n]*\n\s+(\{.*\})\n/.exec(output)?.[1];
  expect(graphiql).toBeTruthy();
  const ran = await call(server, 'POST', '/graphql', { token: key, body: { query: graphiql } });
  expect(ran.body.errors).toBeUndefined();
  expect(ran.body.data.products.edges).toHaveLength(5);

  // Stock with lots and expiry dates in bins, levels, a channel policy.
  const lots = await db.prisma.stockLine.count({ where: { lot: { expiryDate: { not: null } }, binId: { not: null }, qtyOnHand: { gt: 0 } } });
  expect(lots).toBeGreaterThan(100);
  expect(await db.prisma.inventoryLevel.count()).toBe(1200);
  expect(await db.prisma.channelAllocationPolicy.count()).toBe(1);
  // Two years of weekly demand with the promotion's events.
  const weeks = await db.prisma.demandHistory.groupBy({ by: ['weekStart'] });
  expect(weeks).toHaveLength(104);
  expect((await get('/api/forecast/events?from=2020-01-01T00:00:00Z&to=2030-01-01T00:00:00Z')).data.length).toBeGreaterThanOrEqual(2);
  // A published scenario whose run the workers complete, and pending transfer recommendations.
  const scenario = (await get('/api/forecast/scenarios')).data[0];
  expect(scenario).toMatchObject({ name: 'Baseline plan', status: 'PUBLISHED' });
  const deadline = Date.now() + 300_000;
  let run: { status: string; totalSeries: number } | undefined;
  while (Date.now() < deadline) {
    run = (await get(`/api/forecast/scenarios/${scenario.id}/runs`)).data[0];
    if (run?.status === 'COMPLETED' || run?.status === 'FAILED') break;
    await new Promise((r) => setTimeout(r, 250));
  }
  expect(run).toMatchObject({ status: 'COMPLETED', totalSeries: 900 });
  expect((await get('/api/transfers/recommendations?status=PENDING&limit=5')).recommendations).toHaveLength(5);
  expect((await get('/api/alerts/rules')).data.map((r: { kind: string }) => r.kind).sort()).toEqual(['AVAILABLE_BELOW_MIN', 'LOTS_EXPIRING']);
}
