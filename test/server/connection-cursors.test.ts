import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { FORECASTING } from '../support/forecasting.js';
import { wsConnection } from '../support/graphql-ws.js';
import { startTestServer, type TestServer } from '../support/server.js';

// Every connection field (a field taking `after`), found by introspection, refuses every cursor it did not
// issue with 400-class VALIDATION_ERROR naming the argument; crafted cursors reached the database as
// malformed queries (INTERNAL_SERVER_ERROR) and garbage answered an error without a code.
let server: TestServer;
let tenant: Tenant;
/** The admin's session: some connections (apiKeys) answer a signed-in administrator only. */
let session: string;

const b64 = (text: string) => Buffer.from(text).toString('base64');
const CRAFTED: Record<string, string> = {
  'a number cursor': b64('GPC:N:1'),
  'a date cursor': b64('GPC:D:1700000000000'),
  'a JSON cursor': b64('GPC:J:{"id":1}'),
  'an object cursor': b64('GPC:O:{"a":1}'),
  'a tuple cursor': b64('GPC:T:[]'),
  'another namespace': b64('XYZ:S:abc'),
  'an id with a NUL': b64('GPC:S:a\u0000b'),
  'an empty id': b64('GPC:S:'),
  'not base64': 'not base64 !!',
  'base64 of garbage': b64('garbage'),
  'an empty string': '',
};

interface IntrospectedField {
  name: string;
  args: { name: string; type: TypeRef }[];
  type: TypeRef;
}
interface TypeRef {
  kind: string;
  name: string | null;
  ofType: TypeRef | null;
}

const PLACEHOLDER: Record<string, unknown> = { ID: '00000000-0000-4000-8000-000000000000', String: 'x', Int: 1, Date: '2026-01-05' };

const named = (type: TypeRef): string => (type.name ?? named(type.ofType!));
const required = (type: TypeRef) => type.kind === 'NON_NULL';

/**
 * For each connection field of the schema, a query reaching it from Query through fields without
 * required arguments (a connection's `edges { node }` included), asking for one page after `$cursor`.
 */
async function connectionQueries(): Promise<Map<string, string>> {
  // Deprecated fields too (the REST adapter's lists): they lead to the same types as before a list became a connection.
  const introspection = await server.graphql(
    '{ __schema { types { name kind fields(includeDeprecated: true) { name type { ...T } args { name type { ...T } } } } } } fragment T on __Type { kind name ofType { kind name ofType { kind name ofType { kind name } } } }',
    {},
    tenant.key,
  );
  const types = new Map<string, IntrospectedField[]>(
    introspection.body.data.__schema.types.filter((t: any) => t.kind === 'OBJECT' && !t.name.startsWith('__')).map((t: any) => [t.name, t.fields]),
  );
  const queries = new Map<string, string>();
  // Breadth first, so that each connection is reached by its shortest path.
  const queue: { type: string; wrap: (inner: string) => string; depth: number }[] = [{ type: 'Query', wrap: (inner) => inner, depth: 0 }];
  const seen = new Set<string>();
  while (queue.length) {
    const { type, wrap, depth } = queue.shift()!;
    if (seen.has(type) || depth > 4) continue;
    seen.add(type);
    for (const field of types.get(type) ?? []) {
      const key = `${type}.${field.name}`;
      if (field.args.some((a) => a.name === 'after')) {
        // A connection's own required arguments (a scenario's runs) get a well-formed placeholder: paging
        // arguments are judged before anything runs, so the unknown id is never reached.
        const requiredArgs = field.args.filter((a) => required(a.type)).map((a) => `${a.name}: ${JSON.stringify(PLACEHOLDER[named(a.type)])}`);
        const own = requiredArgs.length ? `${requiredArgs.join(', ')}, ` : '';
        if (!queries.has(key)) queries.set(key, `query ($cursor: String) { ${wrap(`${field.name}(${own}first: 1, after: $cursor) { edges { cursor } }`)} }`);
        continue;
      }
      if (field.args.some((a) => required(a.type)) || !types.has(named(field.type))) continue;
      queue.push({ type: named(field.type), wrap: (inner) => wrap(`${field.name} { ${inner} }`), depth: depth + 1 });
    }
  }
  return queries;
}

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.app.prisma, { capabilities: [FORECASTING] });
  session = (await server.call('POST', '/api/auth/sign-in', { body: { email: tenant.admin.email, password: tenant.admin.password } })).body.token;
  // Parents for the connections below Query (a category's products).
  const category = await server.graphql('mutation { createCategory(input: {name: "Cursors"}) { ... on Category { id } } }', {}, tenant.key);
  expect(category.body.errors).toBeUndefined();
  for (const sku of ['CUR-1', 'CUR-2']) {
    const res = await server.call('POST', '/api/products', { token: tenant.key, body: { sku, name: sku, categoryId: category.body.data.createCategory.id } });
    expect(res.status).toBe(201);
  }
});
afterAll(() => server?.close());

describe('cursors of every connection', () => {
  it('finds every connection field, below Query too', async () => {
    const found = [...(await connectionQueries()).keys()].sort();
    expect(found).toEqual(expect.arrayContaining(['Query.products', 'Query.stockTransactions', 'Category.products']));
    expect(found.length).toBeGreaterThanOrEqual(8);
  });

  it('refuses every crafted or malformed cursor with VALIDATION_ERROR naming `after` (or `before`), on every connection', async () => {
    const problems: string[] = [];
    for (const [field, query] of await connectionQueries()) {
      for (const [what, cursor] of Object.entries(CRAFTED)) {
        const res = await server.graphql(query, { cursor }, tenant.key);
        const error = res.body.errors?.[0];
        if (res.status !== 400 || error?.extensions?.code !== 'VALIDATION_ERROR' || !error.extensions.details?.after) problems.push(`${field} with ${what}: ${JSON.stringify(res.body)}`);
      }
      const before = await server.graphql(query.replace('first: 1, after: $cursor', 'last: 1, before: $cursor'), { cursor: CRAFTED['a number cursor'] }, tenant.key);
      if (!before.body.errors?.[0]?.extensions?.details?.before) problems.push(`${field} with before: ${JSON.stringify(before.body)}`);
    }
    expect(problems).toEqual([]);
  });

  it('refuses a page size over the maximum or below 0 with VALIDATION_ERROR naming the argument and the maximum, on every connection', async () => {
    const problems: string[] = [];
    for (const [field, query] of await connectionQueries()) {
      for (const [size, args, name, message] of [
        [100_001, 'first: 100001', 'first', /^first must be at most (\d+): page on with the cursors of pageInfo$/],
        [100_001, 'last: 100001', 'last', /^last must be at most (\d+): page on with the cursors of pageInfo$/],
        [-1, 'first: -1', 'first', /^Must be 0 or more$/],
        [-1, 'last: -1', 'last', /^Must be 0 or more$/],
      ] as const) {
        const res = await server.graphql(query.replace('first: 1, after: $cursor', args).replace('($cursor: String) ', ''), {}, tenant.key);
        const error = res.body.errors?.[0];
        if (res.status !== 400 || res.body.data || error?.extensions?.code !== 'VALIDATION_ERROR' || !message.test(error.extensions.details?.[name]?.[0] ?? '')) {
          problems.push(`${field} with ${name} ${size}: ${JSON.stringify(res.body)}`);
        }
      }
      const max = await server.graphql(query.replace('first: 1, after: $cursor', 'first: 100').replace('($cursor: String) ', ''), {}, session);
      // A placeholder parent id answers NOT_FOUND: the page size itself was accepted.
      if (max.body.errors && max.body.errors[0]?.extensions?.code !== 'NOT_FOUND') problems.push(`${field} with first: 100: ${JSON.stringify(max.body)}`);
    }
    expect(problems).toEqual([]);
    // The same through a variable, and below Query.
    const variable = await server.graphql('query ($n: Int) { categories { edges { node { products(first: $n) { totalCount } } } } }', { n: 150 }, tenant.key);
    expect(variable.status).toBe(400);
    expect(variable.body.errors[0].extensions).toEqual({ code: 'VALIDATION_ERROR', details: { first: ['first must be at most 100: page on with the cursors of pageInfo'] } });
  });

  it('a cursor a page returned still pages, and an unknown but well-formed one is an empty page', async () => {
    const first = await server.graphql('{ products(first: 1) { edges { cursor node { sku } } } }', {}, tenant.key);
    const cursor = first.body.data.products.edges[0].cursor;
    const next = await server.graphql('query ($c: String) { products(first: 1, after: $c) { edges { node { sku } } } }', { c: cursor }, tenant.key);
    expect(next.body.errors).toBeUndefined();
    expect(next.body.data.products.edges).toHaveLength(1);
    expect(next.body.data.products.edges[0].node.sku).not.toBe(first.body.data.products.edges[0].node.sku);
    const unknown = await server.graphql('query ($c: String) { products(first: 1, after: $c) { edges { cursor } } }', { c: b64('GPC:S:no-such-id') }, tenant.key);
    expect(unknown.body.errors).toBeUndefined();
    expect(unknown.body.data.products.edges).toEqual([]);
  });

  it('the other paging arguments the connection refuses are VALIDATION_ERROR naming them', async () => {
    const both = await server.graphql(
      'query ($c: String) { products(after: $c, before: $c) { edges { cursor } } }',
      { c: (await server.graphql('{ products(first: 1) { edges { cursor } } }', {}, tenant.key)).body.data.products.edges[0].cursor },
      tenant.key,
    );
    expect(both.status).toBe(400);
    expect(both.body.errors[0].extensions).toEqual({ code: 'VALIDATION_ERROR', details: { before: [expect.stringContaining('cannot be used together')] } });
    const negative = await server.graphql('{ categories { edges { node { products(first: -1) { totalCount } } } } }', {}, tenant.key);
    expect(negative.body.errors[0].extensions).toEqual({ code: 'VALIDATION_ERROR', details: { first: ['Must be 0 or more'] } });
  });
});

describe('variables GraphQL cannot coerce', () => {
  it('are VALIDATION_ERROR naming the variable or its field, over HTTP and graphql-ws', async () => {
    const scalar = await server.graphql('query ($f: Int) { products(first: $f) { totalCount } }', { f: 'abc' }, tenant.key);
    expect(scalar.status).toBe(400);
    expect(scalar.body.errors[0].extensions).toEqual({ code: 'VALIDATION_ERROR', details: { f: [expect.stringContaining('Int cannot represent')] } });
    const nested = await server.graphql('mutation ($input: ProductCreateInput!) { createProduct(input: $input) { ... on Product { id } } }', { input: { sku: 1.5, name: 'n' } }, tenant.key);
    expect(nested.status).toBe(400);
    expect(nested.body.errors[0].extensions).toEqual({ code: 'VALIDATION_ERROR', details: { 'input.sku': [expect.stringContaining('String cannot represent')] } });
    const missing = await server.graphql('query ($id: ID!) { product(id: $id) { id } }', {}, tenant.key);
    expect(missing.body.errors[0].extensions).toEqual({ code: 'VALIDATION_ERROR', details: { id: [expect.stringContaining('was not provided')] } });

    const ws = wsConnection(server.url);
    await ws.init({ authorization: `Bearer ${tenant.key}` });
    const result = await ws.result(await ws.subscribe('subscription ($id: ID!) { importJobProgress(id: $id) { id } }', { id: { not: 'an id' } }));
    const errors = result.payload.errors ?? result.payload;
    expect(errors[0].extensions).toEqual({ code: 'VALIDATION_ERROR', details: { id: [expect.stringContaining('ID cannot represent')] } });
    ws.close();
  });
});
