import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct, graphqlData } from '../support/api.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { FORECASTING } from '../support/forecasting.js';
import { oneOfEach } from '../support/one-of-each.js';
import { ROOT, runProcess } from '../support/processes.js';
import { startTestServer, type TestServer } from '../support/server.js';

// The toolchains frontend teams use, run as they run them (their npm binaries, as processes, offline):
// relay-compiler over the checked-in schema.graphql, graphql-codegen's client preset over the running
// server's introspection, both on the fixture app in ./fixture.

const FIXTURE = path.join(ROOT, 'test/client-toolchain/fixture');
const bin = (name: string) => path.join(ROOT, 'node_modules/.bin', name);

let server: TestServer;
let tenant: Tenant;
let ids: Record<string, string>;
let out: string;

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.app.prisma, { capabilities: [FORECASTING] });
  ids = await oneOfEach(server.app, tenant, 'ct');
  out = await mkdtemp(path.join(os.tmpdir(), 'scm-client-toolchain-'));
}, 120_000);
afterAll(async () => {
  await server?.close();
  if (out) await rm(out, { recursive: true, force: true });
});

/** The operation text a Relay artifact sends to the server. */
async function relayOperationText(artifacts: string, name: string): Promise<string> {
  const source = await readFile(path.join(artifacts, `${name}.graphql.ts`), 'utf8');
  const literal = /"text": ("(?:[^"\\]|\\.)*")/.exec(source)?.[1];
  expect(literal, `${name} has no operation text`).toBeDefined();
  return JSON.parse(literal!) as string;
}

describe('relay-compiler', () => {
  it('compiles the fixture app against schema.graphql, and its refetch and pagination queries run on the server', async () => {
    const artifacts = path.join(out, 'relay');
    const config = path.join(out, 'relay.config.json');
    await mkdir(artifacts);
    await writeFile(
      config,
      JSON.stringify({
        src: FIXTURE,
        schema: path.join(ROOT, 'schema.graphql'),
        artifactDirectory: artifacts,
        language: 'typescript',
        customScalarTypes: { Date: 'string', DateTime: 'string', Decimal: 'number', BigQuantity: 'number', JSON: 'unknown' },
      }),
    );
    const run = await runProcess(bin('relay-compiler'), [config, '--noWatchman', '--output', 'quiet-with-errors']);
    expect(run.code, run.stdout + run.stderr).toBe(0);

    const files = await readdir(artifacts);
    const refetchQueries = ['ProductCardRefetchQuery', 'StockLineRowRefetchQuery', 'LocationBadgeRefetchQuery', 'ForecastRunStatusRefetchQuery'];
    for (const name of [...refetchQueries, 'ProductListPaginationQuery', 'ProductListQuery', 'NodePageQuery', 'ProductCard_product']) {
      expect(files).toContain(`${name}.graphql.ts`);
    }
    // Relay read the connections as connections: the product card pages its stock by stockCount/stockCursor.
    const card = await readFile(path.join(artifacts, 'ProductCard_product.graphql.ts'), 'utf8');
    expect(card).toMatch(/"connection": \[\s*\{\s*"count": "stockCount",\s*"cursor": "stockCursor",\s*"direction": "forward"/);

    // Each refetch query goes through node(id:) and gives back the object it refetches.
    const byQuery: Record<string, string> = {
      ProductCardRefetchQuery: 'Product',
      StockLineRowRefetchQuery: 'StockLine',
      LocationBadgeRefetchQuery: 'Location',
      ForecastRunStatusRefetchQuery: 'ForecastRun',
    };
    for (const [name, type] of Object.entries(byQuery)) {
      const text = await relayOperationText(artifacts, name);
      expect(text).toContain('node(id: $id)');
      const data = await graphqlData(server, tenant.key, text, { id: ids[type] });
      expect(data.node, name).toMatchObject({ __typename: type, id: ids[type] });
    }
    const card2 = await graphqlData(server, tenant.key, await relayOperationText(artifacts, 'ProductCardRefetchQuery'), { id: ids.Product, stockCount: 5 });
    expect(card2.node.stock.totalCount).toBe(1);
    expect(card2.node.stock.edges[0].node.location).toMatchObject({ id: ids.Location, code: 'WH1' });

    // The pagination query pages products forward by the cursors Relay selected.
    const second = await createProduct(server, tenant.key, 'CT-2');
    const page = await relayOperationText(artifacts, 'ProductListPaginationQuery');
    const first = await graphqlData(server, tenant.key, page, { count: 1 });
    expect(first.products).toMatchObject({ totalCount: 2, pageInfo: { hasNextPage: true } });
    const next = await graphqlData(server, tenant.key, page, { count: 1, cursor: first.products.pageInfo.endCursor });
    expect(next.products.pageInfo.hasNextPage).toBe(false);
    const seen = [...first.products.edges, ...next.products.edges].map((edge: { node: { id: string } }) => edge.node.id);
    expect(seen.sort()).toEqual([ids.Product, second].sort());
  }, 120_000);
});

describe('graphql-codegen client preset', () => {
  // Vitest's NODE_ENV=test would make codegen silent, failures included.
  const codegen = (env: Record<string, string>) =>
    runProcess(bin('graphql-codegen'), ['--config', path.join(FIXTURE, 'codegen.yml')], { NODE_ENV: 'development', GRAPHQL_URL: `${server.url}/graphql`, ...env });

  it("types the fixture app's documents from the running server's introspection with an API key", async () => {
    const target = path.join(out, 'codegen');
    const run = await codegen({ API_KEY: tenant.key, CODEGEN_OUTPUT: target });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect((await readdir(target)).sort()).toEqual(['fragment-masking.ts', 'gql.ts', 'graphql.ts', 'index.ts']);
    const types = await readFile(path.join(target, 'graphql.ts'), 'utf8');
    for (const name of [
      'ProductCard_ProductFragment',
      'StockLineRow_StockLineFragment',
      'LocationBadge_LocationFragment',
      'ForecastRunStatus_ForecastRunFragment',
      'ProductList_QueryFragment',
      // The preset appends the operation type to the operation's name, which Relay's end in Query already.
      'ProductListQueryQuery',
      'NodePageQueryQuery',
      'NodePageQueryQueryVariables',
    ]) {
      expect(types).toContain(`export type ${name} =`);
    }
    // The types are the server's: its enums, its nullability, a product card with its stock's connection.
    const enumValues = /export type ForecastRunStatus =([^]*?);\n/.exec(types)?.[1];
    expect(enumValues?.match(/\| '\w+'/g)).toEqual(["| 'COMPLETED'", "| 'FAILED'", "| 'PENDING'", "| 'RUNNING'"]);
    const card = /export type ProductCard_ProductFragment = (.*)/.exec(types)?.[1];
    expect(card).toMatch(/^\{ id: string, sku: string, name: string, unitCost: number \| null, .*stock: \{ totalCount: number, edges: Array<\{ node:/);
  }, 120_000);

  it('is refused introspection with a key the server does not know', async () => {
    const run = await codegen({ API_KEY: 'scm_not-a-key', CODEGEN_OUTPUT: path.join(out, 'refused') });
    expect(run.code).not.toBe(0);
    expect(run.stdout + run.stderr).toContain('API key not found or invalid');
    await expect(readdir(path.join(out, 'refused'))).rejects.toThrow();
  }, 120_000);
});
