import { getNamedType, isNonNullType, isObjectType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../../src/schema/index.js';
import { FORECASTING } from '../support/forecasting.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import type { TestServer } from '../support/server.js';
import { addStock } from '../support/stock.js';
import { startServerWithTwoTenants } from '../support/two-tenants.js';

let server: TestServer;
let a: Tenant;
let b: Tenant;
let plain: Tenant;

/** The ids of one organization's records that the lookups by id find. */
interface Records {
  product: string;
  location: string;
  channel: string;
  category: string;
  stockLine: string;
  availabilityLine: string;
  apiKey: string;
  externalEvent: string;
  forecastScenario: string;
}
let own: Records;
let foreign: Records;
let session: string;

const UNKNOWN_IDS = ['0190c0de-0000-7000-8000-000000000000', 'no-such-id'];

/** The Query fields named after the object type they return, taking its `id`: the lookups by id. */
const LOOKUPS = Object.values(schema.getQueryType()!.getFields())
  .filter((field) => {
    const type = getNamedType(field.type);
    const id = field.args.find((arg) => arg.name === 'id');
    // The REST adapter's deprecated page fields (forecastRunSeriesPage: ForecastRunSeriesPage) are not lookups.
    return !field.deprecationReason && isObjectType(type) && type.name === field.name[0]!.toUpperCase() + field.name.slice(1) && id && isNonNullType(id.type);
  })
  .map((field) => field.name);

async function gqlData(token: string, query: string, variables: Record<string, unknown> = {}) {
  const res = await server.graphql(query, variables, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
  return res.body.data;
}

async function recordsOf(tenant: Tenant, tag: string): Promise<Records> {
  const mutate = async (query: string) => Object.values(await gqlData(tenant.key, query))[0] as { id: string };
  const product = (await server.call('POST', '/api/products', { token: tenant.key, body: { sku: `FE-${tag}`, name: `Field errors ${tag}` } })).body.id as string;
  const channel = await mutate(`mutation { createChannel(input: { name: "Channel ${tag}" }) { ... on Channel { id } } }`);
  const category = await mutate(`mutation { createCategory(input: { name: "Category ${tag}" }) { ... on Category { id } } }`);
  const line = await addStock(server.app, tenant.org.id, { productMasterId: product, locationId: tenant.warehouse.id }, { ON_HAND: 5 });
  const apiKey = await server.app.prisma.apiKey.findFirstOrThrow({ where: { organizationId: tenant.org.id } });
  const event = await server.call('POST', '/api/forecast/events', {
    token: tenant.key,
    body: { name: `Event ${tag}`, type: 'PROMOTION', startsAt: '2030-01-01T00:00:00Z', endsAt: '2030-01-02T00:00:00Z' },
  });
  const scenario = await server.call('POST', '/api/forecast/scenarios', { token: tenant.key, body: { name: `Scenario ${tag}`, type: 'CUSTOM' } });
  expect([event.status, scenario.status], JSON.stringify([event.body, scenario.body])).toEqual([201, 201]);
  return {
    product,
    location: tenant.warehouse.id,
    channel: channel.id,
    category: category.id,
    stockLine: line.id,
    availabilityLine: line.id,
    apiKey: apiKey.id,
    externalEvent: event.body.id,
    forecastScenario: scenario.body.id,
  };
}

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants({}, { capabilities: [FORECASTING] }));
  plain = await createTenant(server.app.prisma, { capabilities: [] });
  own = await recordsOf(a, 'A');
  foreign = await recordsOf(b, 'B');
  const signIn = await server.call('POST', '/api/auth/sign-in', { body: { email: a.admin.email, password: a.admin.password } });
  expect(signIn.status).toBe(200);
  session = signIn.body.token;
});
afterAll(() => server?.close());

describe('lookups by id', () => {
  it('are nullable and marked to answer null when absent, every one of them', () => {
    expect(LOOKUPS.sort()).toEqual(
      [
        'alert', 'alertRule', 'apiKey', 'availabilityLine', 'booking', 'category', 'channel', 'externalEvent', 'forecastRun', 'forecastScenario', 'importJob',
        'cycleCountBatch', 'inventoryHold', 'inventoryTransfer', 'location', 'product', 'replenishmentRecord', 'shipment', 'stockLine', 'stockRequest', 'stockRequestHistory', 'transferRecommendation', 'webhookEndpoint',
      ].sort(),
    );
    const fields = schema.getQueryType()!.getFields();
    for (const name of LOOKUPS) {
      expect(isNonNullType(fields[name]!.type), name).toBe(false);
      expect((fields[name]!.extensions as { pothosOptions?: { orNullWhenAbsent?: boolean } }).pothosOptions?.orNullWhenAbsent, name).toBe(true);
    }
  });

  // A view of a stock line names it with stockLineId, a stock request's history its request with requestId (one
  // type per entity); every other lookup is a Node.
  const idOf = (name: string) => (name === 'availabilityLine' ? '{ id: stockLineId }' : name === 'stockRequestHistory' ? '{ id: requestId }' : '{ id }');

  it('answer null, without an error, for an unknown id', async () => {
    for (const name of LOOKUPS) {
      for (const id of UNKNOWN_IDS) {
        expect(await gqlData(session, `query ($id: ID!) { ${name}(id: $id) ${idOf(name)} }`, { id }), `${name}(${id})`).toEqual({ [name]: null });
      }
    }
  });

  it("answer the organization's own record, and null for another organization's, in one document", async () => {
    for (const name of Object.keys(own) as (keyof Records)[]) {
      const query = `query ($own: ID!, $foreign: ID!) { mine: ${name}(id: $own) ${idOf(name)} theirs: ${name}(id: $foreign) ${idOf(name)} products(first: 1) { totalCount } }`;
      const data = await gqlData(session, query, { own: own[name], foreign: foreign[name] });
      expect(data, name).toEqual({ mine: { id: own[name] }, theirs: null, products: { totalCount: 1 } });
    }
  });

  it('leave a NOT_FOUND of another argument an error (a list filtered by a foreign id), with its path, siblings intact', async () => {
    const res = await server.graphql(
      'query ($id: ID!) { product(id: $id) { id } inventoryLevels(productMasterId: $id) { totalCount } }',
      { id: foreign.product },
      a.key,
    );
    expect(res.body.data).toEqual({ product: null, inventoryLevels: null });
    // The connection's count refuses the foreign filter as its list would (a count alone must not answer 0).
    expect(res.body.errors).toEqual([expect.objectContaining({ path: ['inventoryLevels', 'totalCount'], extensions: { code: 'NOT_FOUND' } })]);
  });
});

describe('REST paths of the lookups', () => {
  it('keep answering 404 with the documented body for unknown and foreign ids, and 200 for own ones', async () => {
    const paths: [keyof Records, (id: string) => string, string][] = [
      ['product', (id) => `/api/products/${id}`, 'Product not found'],
      ['availabilityLine', (id) => `/api/inventory/availability/${id}`, 'Inventory item not found'],
      ['externalEvent', (id) => `/api/forecast/events/${id}`, 'Event not found'],
      ['forecastScenario', (id) => `/api/forecast/scenarios/${id}`, 'Scenario not found'],
    ];
    for (const [name, path, message] of paths) {
      expect((await server.call('GET', path(own[name]), { token: a.key })).status, path(own[name])).toBe(200);
      for (const id of [foreign[name], ...UNKNOWN_IDS]) {
        const res = await server.call('GET', path(id), { token: a.key });
        expect([res.status, res.body], path(id)).toEqual([404, { error: message, code: 'NOT_FOUND' }]);
      }
    }
    for (const [path, message] of [
      ['/api/admin/api-keys/', 'API key not found'],
      ['/api/forecast/runs/', 'Forecast run not found'],
      ['/api/import/status/', 'Import job not found'],
      ['/api/inventory/transfers/', 'Transfer not found'],
      ['/api/transfers/recommendations/', 'Recommendation not found'],
    ] as const) {
      const res = await server.call('GET', `${path}${UNKNOWN_IDS[0]}`, { token: path.includes('api-keys') ? session : a.key });
      expect([res.status, res.body], path).toEqual([404, { error: message, code: 'NOT_FOUND' }]);
    }
    const foreignKey = await server.call('GET', `/api/admin/api-keys/${foreign.apiKey}`, { token: session });
    expect([foreignKey.status, foreignKey.body]).toEqual([404, { error: 'API key not found', code: 'NOT_FOUND' }]);
  });
});

describe('refusals of one field', () => {
  it('a field the API key lacks the scope for is null with a coded, pathed error; its siblings answer', async () => {
    const inventoryOnly = await a.keyWith(['inventory:read']);
    const res = await server.graphql('{ products(first: 5) { totalCount } purchaseOrders(first: 1) { edges { cursor } } }', {}, inventoryOnly);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data, JSON.stringify(res.body)).toEqual({ products: { totalCount: 1 }, purchaseOrders: null });
    expect(res.body.errors).toEqual([
      expect.objectContaining({ path: ['purchaseOrders'], extensions: { code: 'INSUFFICIENT_SCOPE', permission: 'procurement.read' } }),
    ]);
  });

  it("a field the organization's plan lacks the capability for is null with a coded, pathed error; its siblings answer", async () => {
    const res = await server.graphql(
      'query ($h: Int) { productsPage { total } forecastScenarios { totalCount } demandForecast(horizon: $h) { totalCount } }',
      { h: 4 },
      plain.key,
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ productsPage: { total: 0 }, forecastScenarios: null, demandForecast: null });
    const feature = { feature: FORECASTING, planCapability: FORECASTING, entitlement: FORECASTING };
    expect(res.body.errors).toHaveLength(2);
    expect(res.body.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: ['forecastScenarios'], extensions: { code: 'FEATURE_NOT_ENABLED', ...feature } }),
        expect.objectContaining({ path: ['demandForecast'], extensions: { code: 'FEATURE_NOT_ENABLED', ...feature } }),
      ]),
    );
  });

  it('a session-only field asked for by an API key is null with a coded, pathed error; its siblings answer', async () => {
    const res = await server.graphql('{ locations(first: 10) { edges { node { id } } } apiKeys { totalCount } }', {}, a.key);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ locations: { edges: [{ node: { id: a.warehouse.id } }] }, apiKeys: null });
    expect(res.body.errors).toEqual([expect.objectContaining({ path: ['apiKeys'], extensions: { code: 'FORBIDDEN' } })]);
  });

  it('a refused field whose variables do not fit refuses the operation as a whole, not telling what is wrong with them', async () => {
    const res = await server.graphql('query ($h: Int) { productsPage { total } demandForecast(horizon: $h) { totalCount } }', { h: 'many' }, plain.key);
    expect(res.body.data ?? null).toBeNull();
    expect(res.body.errors.map((e: { extensions: { code: string } }) => e.extensions.code)).toEqual(['FEATURE_NOT_ENABLED']);
  });

  it('a request without credentials is refused as a whole, 401 MISSING_AUTHORIZATION', async () => {
    const res = await server.graphql('{ productsPage { total } locations { totalCount } }');
    expect(res.status).toBe(401);
    expect(res.body.data ?? null).toBeNull();
    expect(res.body.errors).toEqual([expect.objectContaining({ extensions: { code: 'MISSING_AUTHORIZATION' } })]);
  });
});
