// The product-list part of `npm run bench`: REST and GraphQL product listing against a bare node:http
// server doing the same work, on one backend.
import { randomBytes } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { PRODUCT_COUNT } from '../harness/data.js';
import { measure } from '../harness/measure.js';
import { getJson, startServer, stopServer } from '../harness/servers.js';
import { benchRateLimitCost, RATE_LIMIT_PAIRS } from '../server/products-rate-limit.js';
import type { Row } from '../harness/report.js';

const GRAPHQL_QUERY =
  '{ productsPage(limit: 50) { items { id sku name description organizationId createdAt updatedAt } page limit total totalPages } }';

/** Targets per backend (for the overall time limit): three, and the rate limiter's pairs. */
export const PRODUCT_TARGETS = 3 + 2 * RATE_LIMIT_PAIRS;

function expectPage(what: string, status: number, page: { data?: unknown[]; meta?: { total?: number } } | undefined) {
  if (status !== 200 || page?.data?.length !== 50 || page.meta?.total !== PRODUCT_COUNT) {
    throw new Error(`${what} did not answer a full page: ${status} ${JSON.stringify(page).slice(0, 500)}`);
  }
}

/** Service first (REST, then GraphQL), then its rate limiter's cost, then the bare server. */
export async function benchProducts(backend: string, dbEnv: Record<string, string>, key: string, notes: string[], database?: string): Promise<Row[]> {
  const auth = { authorization: `Bearer ${key}` };
  const serviceEnv = { ...dbEnv, SEED_DEMO: 'false', NODE_ENV: 'production', JWT_SECRET: randomBytes(32).toString('base64url') };
  const service = await startServer('src/main.ts', serviceEnv, `${backend}-service`);
  const rows: Row[] = [];
  let restBody: unknown;
  try {
    const restUrl = `${service.base}/api/products?limit=50`;
    const rest = await getJson(restUrl, { headers: auth });
    expectPage('REST', rest.status, rest.body);
    restBody = rest.body;
    const gqlInit = { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ query: GRAPHQL_QUERY }) };
    const gql = await getJson(`${service.base}/graphql`, gqlInit);
    const gqlPage = gql.body?.data?.productsPage;
    expectPage('GraphQL', gql.status, gqlPage && { data: gqlPage.items, meta: gqlPage });

    rows.push(await measure(backend, 'REST GET /api/products?limit=50', service.child, database, { url: restUrl, headers: auth }));
    const gqlSpec = { url: `${service.base}/graphql`, method: 'POST' as const, headers: gqlInit.headers, body: gqlInit.body };
    rows.push(await measure(backend, 'GraphQL productsPage(limit: 50)', service.child, database, gqlSpec));
  } finally {
    await stopServer(service);
  }

  rows.push(await benchRateLimitCost(backend, serviceEnv, auth, expectPage, notes, database));

  const bare = await startServer('bench/harness/bare-server.ts', dbEnv, `${backend}-bare`);
  try {
    const url = `${bare.base}/api/products?limit=50`;
    const check = await getJson(url, { headers: auth });
    expectPage('bare server', check.status, check.body);
    if (!isDeepStrictEqual(check.body, restBody)) {
      const note = `Warning (${backend}): the bare server's body differs from the REST body.`;
      console.warn(note);
      notes.push(note);
    }
    rows.unshift(await measure(backend, 'bare node:http', bare.child, database, { url, headers: auth }));
  } finally {
    await stopServer(bare);
  }
  const bareRps = rows[0]!.result.requestsPerSec;
  for (const row of rows) row.ratio = bareRps ? row.result.requestsPerSec / bareRps : undefined;
  return rows;
}
