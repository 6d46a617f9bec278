import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { FORECASTING } from '../support/forecasting.js';
import { wsConnection } from '../support/graphql-ws.js';
import { startTestServer, type TestServer } from '../support/server.js';

// Bad input at the two doors (REST and /graphql): refused with 400 VALIDATION_ERROR naming the field,
// never a 500, never a partial write; the server keeps answering.
let server: TestServer;
let a: Tenant;
let productId: string;
let adminToken: string;
let n = 0;

const NUL = expect.arrayContaining([expect.stringContaining('NUL')]);
const SURROGATE = [expect.stringContaining('lone surrogate')];

beforeAll(async () => {
  server = await startTestServer();
  a = await createTenant(server.app.prisma);
  productId = (await server.call('POST', '/api/products', { token: a.key, body: { sku: 'BAD-IN-1', name: 'Probe' } })).body.id;
  adminToken = (await server.call('POST', '/api/auth/sign-in', { body: { email: a.admin.email, password: a.admin.password } })).body.token;
});
afterAll(() => server?.close());

/** The server still answers, promptly. */
async function healthy() {
  const res = await fetch(`${server.url}/health`, { signal: AbortSignal.timeout(5000) });
  expect(res.status).toBe(200);
}

/** A 400 VALIDATION_ERROR whose details name exactly these fields with these messages. */
function refused(res: { status: number; body: any }, details: Record<string, unknown>) {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', details });
  expect(Object.keys(res.body.details).sort()).toEqual(Object.keys(details).sort());
}

/** The rows the receiving paths write, to show a refused request wrote none. */
const footprint = async () => {
  const where = { organizationId: a.org.id };
  const db = server.app.prisma;
  return { lots: await db.lot.count({ where }), bins: await db.bin.count({ where }), lines: await db.stockLine.count({ where }), ledger: await db.stockTransaction.count({ where }) };
};

const receive = (line: Record<string, unknown>) =>
  server.call('POST', '/api/inventory/record-stock', { token: a.key, body: { lines: [{ productMasterId: productId, locationId: a.warehouse.id, quantity: 3, ...line }] } });

describe('NUL characters', () => {
  it('record-stock with a NUL in lotCode books nothing and leaves no lot', async () => {
    const before = await footprint();
    refused(await receive({ lotCode: 'LOT\u0000A' }), { 'lines.0.lotCode': NUL });
    expect(await footprint()).toEqual(before);
    await healthy();
  });

  it('record-stock with a NUL in both codes names both fields instead of answering 500', async () => {
    const before = await footprint();
    refused(await receive({ lotCode: 'L\u0000', binCode: 'B\u0000' }), { 'lines.0.lotCode': NUL, 'lines.0.binCode': NUL });
    expect(await footprint()).toEqual(before);
    await healthy();
  });

  it('in a body field, a query parameter and a path id', async () => {
    refused(await server.call('POST', '/api/products', { token: a.key, body: { sku: 'S\u00001', name: 'n' } }), { sku: NUL });
    refused(await server.call('GET', '/api/products?search=a%00b', { token: a.key }), { search: NUL });
    refused(await server.call('GET', '/api/products/abc%00', { token: a.key }), { id: NUL });
    refused(await server.call('POST', '/api/inventory/adjust', { token: a.key, body: { inventoryItemId: 'x', delta: 1, reasonCode: 'FOUND', comment: 'c\u0000' } }), { comment: NUL });
    expect(await server.app.prisma.productMaster.count({ where: { organizationId: a.org.id } })).toBe(1);
    await healthy();
  });

  it('in a key of a body object', async () => {
    refused(await server.call('POST', '/api/products', { token: a.key, body: { sku: 'S2', name: 'n', ['x\u0000y']: 1 } }), { 'x\\u0000y': NUL });
    await healthy();
  });

  it('over /graphql: in a variable (named by its path) and in a string literal (named by its argument)', async () => {
    const variable = await server.graphql('mutation ($input: ProductCreateInput!) { createProduct(input: $input) { ... on Product { id } } }', { input: { sku: 'G\u00001', name: 'n' } }, a.key);
    expect(variable.status).toBe(400);
    expect(variable.body.errors[0].extensions).toEqual({ code: 'VALIDATION_ERROR', details: { 'input.sku': NUL } });

    const literal = await server.graphql('{ productsPage(search: "a\\u0000b") { total } }', {}, a.key);
    expect(literal.status).toBe(400);
    expect(literal.body.errors[0].extensions).toEqual({ code: 'VALIDATION_ERROR', details: { search: NUL } });
    expect(literal.body.data).toBeUndefined();
    await healthy();
  });
});

// A lone UTF-16 surrogate ("\ud800" in JSON) is not a character: PostgreSQL refuses it (a 500), or the
// driver stores U+FFFD in its place. The same door as the NUL character refuses it, naming the field.
describe('lone surrogates', () => {
  it('in a body field, a body key, an array item and a query parameter, over REST: 400 naming the field, nothing stored', async () => {
    const before = await server.app.prisma.productMaster.count({ where: { organizationId: a.org.id } });
    refused(await server.call('POST', '/api/products', { token: a.key, body: { sku: 'SUR\ud8001', name: 'n' } }), { sku: SURROGATE });
    refused(await server.call('POST', '/api/products', { token: a.key, body: { sku: 'SUR-2', name: 'trail\udc00' } }), { name: SURROGATE });
    refused(await server.call('POST', '/api/products', { token: a.key, body: { sku: 'SUR-3', name: 'n', ['k\ud800']: 1 } }), { 'k\\ud800': SURROGATE });
    refused(await receive({ lotCode: 'L\ud800' }), { 'lines.0.lotCode': SURROGATE });
    // A JSON text spelling the escape, as any client sends it.
    refused(await server.call('POST', '/api/products', { token: a.key, body: '{"sku":"SUR-4","name":"\\ud800x"}' }), { name: SURROGATE });
    expect(await server.app.prisma.productMaster.count({ where: { organizationId: a.org.id } })).toBe(before);
    // A well-formed pair (an emoji) is text like any other.
    const emoji = await server.call('POST', '/api/products', { token: a.key, body: { sku: 'SUR-OK', name: 'box \ud83d\udce6' } });
    expect(emoji.status).toBe(201);
    expect(emoji.body.name).toBe('box 📦');
    await healthy();
  });

  it('a scenario narrative with one is 400 on the field (it was a 500 from the database)', async () => {
    const f = await createTenant(server.app.prisma, { capabilities: [FORECASTING] });
    const res = await server.call('POST', '/api/forecast/scenarios', { token: f.key, body: { name: 'Lone', type: 'CUSTOM', assumptions: { narrative: 'up \ud800 20%' } } });
    refused(res, { 'assumptions.narrative': SURROGATE });
    expect((await server.call('GET', '/api/forecast/scenarios', { token: f.key })).body.scenarios).toEqual([]);
    await healthy();
  });

  it('over /graphql in a variable (named by its path); in a literal GraphQL itself refuses it, as a syntax error', async () => {
    const variable = await server.graphql('mutation ($input: ProductCreateInput!) { createProduct(input: $input) { ... on Product { id } } }', { input: { sku: 'G\ud800', name: 'n' } }, a.key);
    expect(variable.status).toBe(400);
    expect(variable.body.errors[0].extensions).toEqual({ code: 'VALIDATION_ERROR', details: { 'input.sku': SURROGATE } });
    for (const search of ['a\\ud800b', 'a\ud800b']) {
      const literal = await server.graphql(`{ productsPage(search: "${search}") { total } }`, {}, a.key);
      expect(literal.body.errors[0]).toMatchObject({ message: expect.stringContaining('Syntax Error'), extensions: { code: 'GRAPHQL_PARSE_FAILED' } });
      expect(literal.body.data).toBeUndefined();
    }
    await healthy();
  });

  it('over graphql-ws in a variable', async () => {
    const ws = wsConnection(server.url);
    await ws.init({ authorization: `Bearer ${a.key}` });
    const id = await ws.subscribe('subscription ($id: ID!) { importJobProgress(id: $id) { id } }', { id: 'a\ud800' });
    const result = await ws.result(id);
    expect(result.payload[0].extensions).toEqual({ code: 'VALIDATION_ERROR', details: { id: SURROGATE } });
    ws.close();
  });
});

describe('prototype keys', () => {
  for (const key of ['__proto__', 'constructor', 'prototype']) {
    it(`a body key ${key} is an unknown field (400), not a 500, and pollutes nothing`, async () => {
      const body = `{"sku":"PROTO-${n++}","name":"n","${key}":{"polluted":true}}`;
      refused(await server.call('POST', '/api/products', { token: a.key, body }), { [key]: ['Unknown field'] });
      const nested = `{"lines":[{"productMasterId":"${productId}","locationId":"${a.warehouse.id}","quantity":1,"${key}":{"polluted":true}}]}`;
      refused(await server.call('POST', '/api/inventory/record-stock', { token: a.key, body: nested }), { [`lines.0.${key}`]: ['Unknown field'] });
      const gql = await server.call('POST', '/graphql', {
        token: a.key,
        body: `{"query":"mutation ($input: ProductCreateInput!) { createProduct(input: $input) { ... on Product { id } } }","variables":{"input":{"sku":"P","name":"n","${key}":{"polluted":true}}}}`,
      });
      expect(gql.status).toBe(400);
      expect(gql.body.errors[0].message).toContain(`Field "${key}" is not defined`);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      await healthy();
    });
  }

  it('in a query string, is just another unknown parameter (400 naming it)', async () => {
    const res = await server.call('GET', '/api/products?__proto__=x&constructor=y', { token: a.key });
    refused(res, { ['__proto__']: ['Unknown query parameter'], constructor: ['Unknown query parameter'] });
    expect(res.body.error).toBe('Unknown query parameter: __proto__, constructor');
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    await healthy();
  });
});

describe('deep nesting', () => {
  it('a body nested deeper than 32 levels is refused before anything recursive reads it', async () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    const product = await server.call('POST', '/api/products', { token: a.key, body: deep });
    expect(product.status).toBe(400);
    expect(product.body.code).toBe('VALIDATION_ERROR');
    expect(product.body.details).toEqual({ [Array.from({ length: 32 }, () => '0').join('.')]: [expect.stringContaining('32 levels')] });
    const imported = await server.call('POST', '/api/import/catalog', { token: a.key, body: `[${deep}]` });
    expect(imported.status).toBe(400);
    expect(imported.body.code).toBe('VALIDATION_ERROR');
    const gql = await server.call('POST', '/graphql', {
      token: a.key,
      // Within /graphql's 64 KiB body limit.
      body: `{"query":"mutation ($rows: JSON!) { startImport(kind: CATALOG, rows: $rows) { ... on ImportJob { id } } }","variables":{"rows":${'['.repeat(20_000)}${']'.repeat(20_000)}}}`,
    });
    expect(gql.status).toBe(400);
    expect(gql.body.errors[0].extensions.code).toBe('VALIDATION_ERROR');
    await healthy();
  });
});

describe('numbers out of range', () => {
  it('a unit cost the column cannot hold (1e20) is a 400 on unitCost, over REST and GraphQL, on create and update', async () => {
    const message = ['Must be a number from -9999999999.9999 to 9999999999.9999'];
    refused(await server.call('POST', '/api/products', { token: a.key, body: { sku: 'COST-1', name: 'n', unitCost: 1e20 } }), { unitCost: message });
    refused(await server.call('PATCH', `/api/products/${productId}`, { token: a.key, body: { unitCost: 1e20 } }), { unitCost: message });
    refused(await server.call('PATCH', `/api/products/${productId}`, { token: a.key, body: { unitCost: 9_999_999_999.99995 } }), { unitCost: message });
    const gql = await server.graphql('mutation { createProduct(input: {sku: "COST-2", name: "n", unitCost: 1e20}) { ... on Product { id } } }', {}, a.key);
    expect(gql.body.errors[0].message).toContain('Must be a number from');
    const edge = await server.call('PATCH', `/api/products/${productId}`, { token: a.key, body: { unitCost: 9_999_999_999.9999 } });
    expect(edge.status).toBe(200);
    await healthy();
  });

  it('1e309 (Infinity once parsed) in a typed field is a 400 on that field', async () => {
    refused(await server.call('POST', '/api/products', { token: a.key, body: '{"sku":"INF","name":"n","unitCost":1e309}' }), { unitCost: ['Must be a number'] });
    const res = await server.call('POST', '/api/inventory/record-stock', {
      token: a.key,
      body: `{"lines":[{"productMasterId":"${productId}","locationId":"${a.warehouse.id}","quantity":1e309}]}`,
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.details)).toEqual(['lines.0.quantity']);
    await healthy();
  });
});

describe('dates out of range (years 1970 to 2200)', () => {
  const YEARS = ['The year must be from 1970 to 2200'];

  it('an expiry date in year 99999 or 0000 is refused on the field', async () => {
    const before = await footprint();
    refused(await receive({ lotCode: 'LD', expiryDate: '+099999-12-05' }), { 'lines.0.expiryDate': ['Must be an ISO 8601 date (YYYY-MM-DD)'] });
    refused(await receive({ lotCode: 'LD', expiryDate: '0000-01-01' }), { 'lines.0.expiryDate': YEARS });
    refused(await receive({ lotCode: 'LD', expiryDate: '2027-02-30' }), { 'lines.0.expiryDate': ['Must be an ISO 8601 date (YYYY-MM-DD)'] });
    expect(await footprint()).toEqual(before);
    await healthy();
  });

  it('ledger and analytics date filters beyond the range are 400 on the parameter, not 500', async () => {
    refused(await server.call('GET', '/api/inventory/adjustments?startDate=0000-01-01', { token: a.key }), { startDate: YEARS });
    refused(await server.call('GET', '/api/inventory/adjustments?endDate=2201-01-01', { token: a.key }), { endDate: YEARS });
    // An expanded year is not an ISO date as the rule writes it.
    refused(await server.call('GET', `/api/inventory/adjustments?endDate=${encodeURIComponent('+099999-12-05')}`, { token: a.key }), { endDate: [expect.stringContaining('Must be an ISO 8601 date (YYYY-MM-DD) or date-time')] });
    refused(await server.call('GET', '/api/inventory/analytics?fromDate=0000-01-01', { token: a.key }), { fromDate: YEARS });
    await healthy();
  });

  it('a DateTime beyond the range is refused by the scalar, over REST and GraphQL', async () => {
    for (const expiresAt of ['2201-01-01T00:00:00Z', '1969-12-31T23:59:59Z']) {
      refused(await server.call('POST', '/api/admin/api-keys', { token: adminToken, body: { name: 'far', scopes: ['*'], expiresAt } }), { expiresAt: YEARS });
    }
    const gql = await server.graphql('mutation { createApiKey(input: {name: "far", scopes: ["*"], expiresAt: "2201-01-01T00:00:00Z"}) { ... on ApiKeyWithSecret { key } } }', {}, adminToken);
    expect(gql.body.errors[0].message).toContain('The year must be from 1970 to 2200');
    await healthy();
  });
});

describe('API key expiry', () => {
  it('an expiresAt in the past is refused on create and on update', async () => {
    const past = '2001-01-01T00:00:00Z';
    refused(await server.call('POST', '/api/admin/api-keys', { token: adminToken, body: { name: 'late', scopes: ['*'], expiresAt: past } }), { expiresAt: ['Must be in the future'] });
    const created = await server.call('POST', '/api/admin/api-keys', { token: adminToken, body: { name: 'ok', scopes: ['*'], expiresAt: '2099-01-01T00:00:00Z' } });
    expect(created.status).toBe(201);
    refused(await server.call('PATCH', `/api/admin/api-keys/${created.body.id}`, { token: adminToken, body: { expiresAt: past } }), { expiresAt: ['Must be in the future'] });
    expect((await server.app.prisma.apiKey.findUniqueOrThrow({ where: { id: created.body.id } })).expiresAt?.toISOString()).toBe('2099-01-01T00:00:00.000Z');
    await healthy();
  });
});
