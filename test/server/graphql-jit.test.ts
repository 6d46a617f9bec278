import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { addStock } from '../support/stock.js';
import { countStatements } from '../support/statement-count.js';

// /graphql with GRAPHQL_JIT_AFTER_RUNS=1 (the default, docs/graphql.md, Execution): a document's first run goes
// through graphql-js, the next ones through graphql-jit (src/server/jit-execution.ts). Both must answer alike,
// refusals and errors included.
const TOKEN = 'jit-test-metrics-token-0123456789';
let server: TestServer;
let a: Tenant;
beforeAll(async () => {
  server = await startTestServer({ GRAPHQL_JIT_AFTER_RUNS: '1', METRICS_TOKEN: TOKEN });
  a = await createTenant(server.app.prisma);
  for (const sku of ['JIT-1', 'JIT-2', 'JIT-3']) {
    const product = await server.call('POST', '/api/products', { token: a.key, body: { sku, name: `Jit ${sku}`, unitCost: 2.5 } });
    expect(product.status).toBe(201);
    await addStock(server.app, a.org.id, { productMasterId: product.body.id, locationId: a.warehouse.id }, { ON_HAND: 7 });
  }
});
afterAll(() => server?.close());

async function executions(): Promise<{ jit: number; js: number }> {
  const res = await server.call('GET', '/metrics', { token: TOKEN });
  expect(res.status).toBe(200);
  const of = (engine: string) => Number(new RegExp(`^scm_graphql_executions_total\\{engine="${engine}"[^}]*\\} (\\d+)$`, 'm').exec(res.body as string)?.[1] ?? 0);
  return { jit: of('jit'), js: of('graphql-js') };
}

/** The same request three times: the answers (status and body) and how each engine counted them. */
async function thrice(query: string, variables: Record<string, unknown>, operationName?: string, token = a.key) {
  const before = await executions();
  const answers = [];
  for (let i = 0; i < 3; i++) {
    const res = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables, operationName }),
    });
    answers.push({ status: res.status, body: await res.json() });
  }
  const after = await executions();
  return { answers, jit: after.jit - before.jit, js: after.js - before.js };
}

const PAGE = `
  fragment Line on StockLine { location { name } qtyOnHand qtyAvailable }
  query Page($first: Int!, $withStock: Boolean!, $skipCost: Boolean = false) {
    products(first: $first) {
      totalCount
      edges { cursor node { id sku name unitCost @skip(if: $skipCost) stock(first: 5) @include(if: $withStock) { edges { node { ...Line } } } } }
      pageInfo { hasNextPage endCursor }
    }
    me: __typename
  }`;

describe('/graphql through graphql-jit', () => {
  it('compiles from the second run by default, and never with off', async () => {
    for (const [env, expected] of [[{}, { jit: 2, js: 1 }], [{ GRAPHQL_JIT_AFTER_RUNS: '' }, { jit: 2, js: 1 }], [{ GRAPHQL_JIT_AFTER_RUNS: 'off' }, { jit: 0, js: 3 }]] as const) {
      const other = await startTestServer({ ...env });
      try {
        const tenant = await createTenant(other.app.prisma);
        // The metrics are the process's: executions() reads them from the file's server.
        const before = await executions();
        for (let i = 0; i < 3; i++) expect((await other.graphql('query Few { products(first: 1) { totalCount } }', {}, tenant.key)).status).toBe(200);
        const after = await executions();
        expect({ setting: env, jit: after.jit - before.jit, js: after.js - before.js }).toEqual({ setting: env, ...expected });
      } finally {
        await other.close();
      }
    }
  });

  it('runs a document through graphql-js once, then compiled, with the same answer', async () => {
    const { answers, jit, js } = await thrice(PAGE, { first: 2, withStock: true });
    expect({ jit, js }).toEqual({ jit: 2, js: 1 });
    expect(answers[0]!.status).toBe(200);
    expect(answers[0]!.body.errors).toBeUndefined();
    const page = answers[0]!.body.data.products;
    expect(page.totalCount).toBe(3);
    expect(page.edges).toHaveLength(2);
    expect(page.edges[0].node).toMatchObject({ sku: 'JIT-3', unitCost: 2.5, stock: { edges: [{ node: { location: { name: a.warehouse.name }, qtyOnHand: 7, qtyAvailable: 7 } }] } });
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);

    // Other variables run the compiled operation: directives follow them.
    const other = await thrice(PAGE, { first: 3, withStock: false, skipCost: true });
    expect({ jit: other.jit, js: other.js }).toEqual({ jit: 3, js: 0 });
    expect(other.answers[0]!.body.data.products.edges.map((e: { node: object }) => e.node)).toEqual(
      ['JIT-3', 'JIT-2', 'JIT-1'].map((sku) => ({ id: expect.any(String), sku, name: `Jit ${sku}` })),
    );
    expect(other.answers[2]).toEqual(other.answers[0]);
  });

  it('reads relations below a list with the same statements compiled as on graphql-js', async () => {
    // Lines of each product with their location and lot: the list's query loads them, so no fallback loader may run.
    const query = `query Nested { products(first: 3) { edges { node { sku stock(first: 5) { edges { node { qtyOnHand location { name code } lot { code } product { sku } } } } } } } }`;
    const runs = [];
    for (let i = 0; i < 3; i++) {
      runs.push(await countStatements(server, () => fetch(`${server.url}/graphql`, {
        method: 'POST',
        headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query }),
      }).then((res) => res.json())));
    }
    expect(runs[0]!.result.data.products.edges).toHaveLength(3);
    expect(runs[0]!.result.data.products.edges[0].node.stock.edges[0].node).toEqual({ qtyOnHand: 7, location: { name: a.warehouse.name, code: a.warehouse.code }, lot: null, product: { sku: 'JIT-3' } });
    expect(runs[1]!.result).toEqual(runs[0]!.result);
    expect(runs[2]!.result).toEqual(runs[0]!.result);
    // The same statements; those sent at once may be logged in either order on PostgreSQL.
    expect({ compiled: runs[1]!.statements, sql: [...runs[1]!.sql].sort() }).toEqual({ compiled: runs[0]!.statements, sql: [...runs[0]!.sql].sort() });
    expect(runs[2]!.statements).toBe(runs[0]!.statements);
  });

  it('refuses variables it cannot coerce in the same words, compiled or not', async () => {
    const query = 'query Bad($first: Int!) { products(first: $first) { totalCount } }';
    const { answers } = await thrice(query, { first: 'many' });
    expect(answers[0]!.status).toBe(400);
    expect(answers[0]!.body.errors[0]).toMatchObject({ extensions: { code: 'VALIDATION_ERROR', details: { first: [expect.stringContaining('Int cannot represent')] } } });
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    // Omitting a required variable too.
    const missing = await thrice(query, {});
    expect(missing.answers[0]!.body.errors[0].message).toMatch(/Variable "\$first" of required type "Int!" was not provided/);
    expect(missing.answers[2]).toEqual(missing.answers[0]);
  });

  it("answers a resolver's refusal and a mutation's typed refusal alike, and writes nothing on either run", async () => {
    const line = await server.app.prisma.stockLine.findFirstOrThrow({ where: { organizationId: a.org.id } });
    const mutation = `mutation Take($id: ID!) { adjustStockBy(input: { inventoryItemId: $id, delta: -100, reasonCodeId: "LOST" }) {
      __typename ... on MutationError { code message } ... on StockAdjustmentResult { success } } }`;
    const { answers, jit } = await thrice(mutation, { id: line.id });
    expect(jit).toBe(2);
    expect(answers[0]!.body.data.adjustStockBy).toMatchObject({ __typename: 'InsufficientStockError', code: 'INSUFFICIENT_STOCK' });
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    expect((await server.app.prisma.stockLine.findUniqueOrThrow({ where: { id: line.id } })).qtyOnHand).toBe(line.qtyOnHand);

    // A field the key may not read: null with its coded, located error; its sibling answers.
    const inventoryOnly = await a.keyWith(['inventory:read']);
    const refused = await thrice('query Mixed {\n  stockLines(first: 1) { totalCount }\n  purchaseOrders(first: 1) { totalCount }\n}', {}, undefined, inventoryOnly);
    expect(refused.jit).toBe(2);
    expect(refused.answers[0]).toEqual({
      status: 200,
      body: {
        data: { stockLines: { totalCount: 3 }, purchaseOrders: null },
        errors: [{ message: expect.any(String), locations: [{ line: 3, column: 3 }], path: ['purchaseOrders'], extensions: { code: 'INSUFFICIENT_SCOPE', permission: 'procurement.read' } }],
      },
    });
    expect(refused.answers[1]).toEqual(refused.answers[0]);
    expect(refused.answers[2]).toEqual(refused.answers[0]);

    const lookup = 'query Missing($id: ID!) { product(id: $id) { sku } other: node(id: $id) { id } }';
    const missing = await thrice(lookup, { id: '0190f0f0-0000-7000-8000-000000000000' });
    expect(missing.answers[0]!.body.data).toEqual({ product: null, other: null });
    expect(missing.answers[1]).toEqual(missing.answers[0]);
    expect(missing.answers[2]).toEqual(missing.answers[0]);
  });

  it("compiles each operation of a document on its own: one operation's directives do not leak into another's", async () => {
    const document = `
      fragment Skus on ProductPage { items { sku } }
      query Without { productsPage(limit: 3) { ...Skus @include(if: false) total } }
      query With { productsPage(limit: 3) { ...Skus total } }`;
    const without = await thrice(document, {}, 'Without');
    const withSkus = await thrice(document, {}, 'With');
    expect(without.jit + withSkus.jit).toBe(4);
    expect(without.answers.map((answer) => answer.body.data)).toEqual(Array(3).fill({ productsPage: { total: 3 } }));
    expect(withSkus.answers.map((answer) => answer.body.data)).toEqual(Array(3).fill({ productsPage: { total: 3, items: [{ sku: 'JIT-3' }, { sku: 'JIT-2' }, { sku: 'JIT-1' }] } }));
  });
});
