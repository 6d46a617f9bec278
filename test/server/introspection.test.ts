import { buildClientSchema, getIntrospectionQuery, type IntrospectionOptions } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

// Introspection (GraphiQL's Docs panel, graphql-codegen, Postman, rover) answers every caller with
// credentials at its real size; without credentials only when GRAPHQL_PUBLIC_INTROSPECTION is set.

let server: TestServer;
let tenant: Tenant;

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.app.prisma);
}, 60_000);
afterAll(() => server?.close());

const ALL_OPTIONS: IntrospectionOptions = { descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true };
/** What GraphiQL (the build graphql-yoga serves) sends, and its retry without subscriptionType. */
const GRAPHIQL_QUERY = getIntrospectionQuery({ inputValueDeprecation: true, schemaDescription: true, typeDepth: 9 } as IntrospectionOptions);

/** The introspection answers: a schema can be built from it, and it has our types. */
function expectSchema(res: { status: number; body: any }) {
  expect(res.status, JSON.stringify(res.body.errors)).toBe(200);
  expect(res.body.errors).toBeUndefined();
  const schema = buildClientSchema(res.body.data);
  expect(schema.getQueryType()?.getFields().products).toBeDefined();
  expect(schema.getType('StockLine')).toBeDefined();
}

describe('introspection with credentials', () => {
  it('getIntrospectionQuery() answers with an API key, by default and with every option', async () => {
    for (const options of [undefined, ALL_OPTIONS, { ...ALL_OPTIONS, descriptions: false }]) {
      expectSchema(await server.graphql(getIntrospectionQuery(options), {}, tenant.key));
    }
  });

  it("GraphiQL's introspection query (named IntrospectionQuery, types 9 deep) and its retry answer", async () => {
    const body = { query: GRAPHIQL_QUERY, operationName: 'IntrospectionQuery' };
    expectSchema(await server.call('POST', '/graphql', { token: tenant.key, body }));
    const retry = { query: GRAPHIQL_QUERY.replace('subscriptionType { name }', ''), operationName: 'IntrospectionQuery' };
    expectSchema(await server.call('POST', '/graphql', { token: tenant.key, body: retry }));
  });

  it('answers a signed-in session too', async () => {
    const session = await server.call('POST', '/api/auth/sign-in', { body: { email: tenant.admin.email, password: tenant.admin.password } });
    expect(session.status).toBe(200);
    expectSchema(await server.graphql(getIntrospectionQuery(ALL_OPTIONS), {}, session.body.token));
  });

  it('still costs the normal fields of a document that also introspects', async () => {
    const overCost = '{ products(first: 100) { edges { node { inventoryLevels { location { name } product { inventoryLevels { id } } } } } } }';
    const alone = await server.graphql(overCost, {}, tenant.key);
    expect(alone.body.errors[0].extensions.code).toBe('MAX_COST_EXCEEDED');
    const mixed = await server.graphql(`{ __schema { types { name fields { name } } } ${overCost.slice(1, -1)} }`, {}, tenant.key);
    expect(mixed.status).toBe(400);
    expect(mixed.body.errors[0].extensions).toMatchObject({ code: 'MAX_COST_EXCEEDED', maxCost: 20_000 });
    expect(mixed.body.errors[0].extensions.cost).toBeGreaterThanOrEqual(alone.body.errors[0].extensions.cost);
    const small = await server.graphql('{ __schema { queryType { name } } products(first: 5) { totalCount } }', {}, tenant.key);
    expect(small.body).toEqual({ data: { __schema: { queryType: { name: 'Query' } }, products: { totalCount: 0 } } });
  });

  it('refuses introspection that lists the fields of referenced types again (the schema times itself)', async () => {
    for (const q of [
      '{ __schema { types { fields { type { fields { name } } } } } }',
      '{ __type(name: "Product") { fields { type { ofType { fields { type { name } } } } } } }',
      '{ __schema { types { fields { args { type { name } } } } directives { name } } a: __schema { types { interfaces { fields { args { name } } } } } }',
    ]) {
      const res = await server.graphql(q, {}, tenant.key);
      expect([res.status, res.body.errors?.[0].extensions.code], q).toEqual([400, 'MAX_DEPTH_EXCEEDED']);
    }
    const type = await server.graphql('{ __type(name: "Product") { name fields { name args { name } type { kind ofType { name } } } } }', {}, tenant.key);
    expect(type.body.data.__type.fields.map((f: { name: string }) => f.name)).toContain('sku');
  });
});

describe('introspection without credentials', () => {
  it('is refused with INTROSPECTION_DISABLED, GraphiQL\'s query as well', async () => {
    for (const body of [{ query: getIntrospectionQuery() }, { query: GRAPHIQL_QUERY, operationName: 'IntrospectionQuery' }]) {
      const res = await server.call('POST', '/graphql', { body });
      expect(res.status).toBe(400);
      expect(res.body.errors[0].extensions.code).toBe('INTROSPECTION_DISABLED');
    }
  });

  describe('with GRAPHQL_PUBLIC_INTROSPECTION', () => {
    let open: TestServer;
    beforeAll(async () => {
      open = await startTestServer({ GRAPHQL_PUBLIC_INTROSPECTION: '1' });
    }, 60_000);
    afterAll(() => open?.close());

    it('answers getIntrospectionQuery() and GraphiQL\'s query, with the same bounds on its shape', async () => {
      expectSchema(await open.graphql(getIntrospectionQuery(ALL_OPTIONS)));
      expectSchema(await open.call('POST', '/graphql', { body: { query: GRAPHIQL_QUERY, operationName: 'IntrospectionQuery' } }));
      const deep = await open.graphql('{ __schema { types { fields { type { fields { name } } } } } }');
      expect(deep.body.errors[0].extensions.code).toBe('MAX_DEPTH_EXCEEDED');
      // Data still needs credentials.
      expect((await open.graphql('{ products(first: 1) { totalCount } }')).body.errors[0].extensions.code).toBe('MISSING_AUTHORIZATION');
    });
  });

  it('GRAPHQL_PUBLIC_INTROSPECTION takes true/1/false/0 and refuses anything else', async () => {
    const { loadConfig } = await import('../../src/config.js');
    const base = { JWT_SECRET: 'test-secret-that-is-long-enough-000000' };
    expect(loadConfig(base).graphql.anonymousIntrospection).toBe(false);
    for (const [value, expected] of [['true', true], ['1', true], ['false', false], ['0', false]] as const) {
      expect(loadConfig({ ...base, GRAPHQL_PUBLIC_INTROSPECTION: value }).graphql.anonymousIntrospection, value).toBe(expected);
    }
    expect(() => loadConfig({ ...base, GRAPHQL_PUBLIC_INTROSPECTION: 'yes' })).toThrow(/GRAPHQL_PUBLIC_INTROSPECTION must be true, 1, false or 0/);
  });
});

describe('the GraphiQL page', () => {
  it('opens with a products-and-stock document, a comment on where the key goes, and an Authorization template', async () => {
    const res = await fetch(`${server.url}/graphql`, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    const html = await res.text();
    const options = JSON.parse(html.match(/renderYogaGraphiQL\(document\.getElementById\('root'\), (.*)\);<\/script>/)![1]!);
    expect(options.defaultQuery).toContain('products(first: 10)');
    expect(options.defaultQuery).toContain('stock(first: 20)');
    expect(options.defaultQuery).toMatch(/# .*Headers.*<your API key>/s);
    expect(JSON.parse(options.headers)).toEqual({ Authorization: 'Bearer <your API key>' });
    // The default document runs as it is once a key is in place.
    const run = await server.graphql(options.defaultQuery, {}, tenant.key);
    expect(run.body.errors).toBeUndefined();
    expect(run.body.data.products.totalCount).toBe(0);
  });
});
