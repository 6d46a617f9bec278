import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { allRoutes } from '../../rest-adapter/all-routes.js';
import { operationScopes } from '../../rest-adapter/operation-scopes.js';
import { schema } from '../../src/schema/index.js';
import { createProduct } from '../support/api.js';
import { insertWeeklyDemand } from '../support/demand-history.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { FORECASTING } from '../support/forecasting.js';
import type { TestServer } from '../support/server.js';
import { startServerWithTwoTenants } from '../support/two-tenants.js';

let server: TestServer;
let a: Tenant;
let b: Tenant;
let plain: Tenant;
const ids: Record<string, { a: string; b: string }> = {};

const routes = allRoutes.filter((r) => r.path.startsWith('/api/forecast'));
const pathFor = (path: string, who: 'a' | 'b') => {
  const kind = path.startsWith('/api/forecast/scenarios') ? 'scenario' : path.startsWith('/api/forecast/events') ? 'event' : path.startsWith('/api/forecast/runs') ? 'run' : 'override';
  return path.replace(':id', ids[kind]![who]);
};

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants({}, { capabilities: [FORECASTING] }));
  plain = await createTenant(server.app.prisma, { capabilities: [] });
  for (const [who, t] of [['a', a], ['b', b]] as const) {
    const product = await createProduct(server, t.key, `P-${who}`);
    await insertWeeklyDemand(server.app.prisma, { organizationId: t.org.id, productMasterId: product, locationId: t.warehouse.id, firstWeek: '2026-01-05', values: [5, 6, 7, 8, 5, 6, 7, 8, 5, 6] });
    const scenario = (await server.call('POST', '/api/forecast/scenarios', { token: t.key, body: { name: 'S', type: 'CUSTOM' } })).body.id;
    const event = (await server.call('POST', '/api/forecast/events', { token: t.key, body: { name: 'E', type: 'OTHER', startsAt: '2026-03-02T00:00:00Z', endsAt: '2026-03-09T00:00:00Z' } })).body.id;
    const run = (await server.call('POST', `/api/forecast/scenarios/${scenario}/generate`, { token: t.key, body: {} })).body.id;
    const override = await server.call('PUT', '/api/forecast/overrides', { token: t.key, body: { productMasterId: product, locationId: t.warehouse.id, periodStart: '2026-03-16', quantity: 3 } });
    for (const [k, v] of Object.entries({ scenario, event, run, override: override.body.id ?? override.body.override?.id, product, location: t.warehouse.id })) {
      ids[k] ??= { a: '', b: '' };
      ids[k]![who] = v;
    }
  }
});
afterAll(() => server?.close());

// Every forecasting path, whatever it is sent: the plan capability first, then the permission, then the
// input; another organization's id is 404; no input is ever a 500.
describe('every forecasting path', () => {
  const INVALID_QUERY = 'horizon=abc&levels=0,100&from=2025-02-30&page=-1';
  const INVALID_BODY = { unknown: '\u0000', name: 5, quantity: 1e309 };
  const isWrite = (r: (typeof routes)[number]) => r.method !== 'GET' && !r.path.endsWith('/compare');
  const send = (r: (typeof routes)[number], token: string, who: 'a' | 'b' = 'a') =>
    server.call(r.method, `${pathFor(r.path, who)}?${INVALID_QUERY}`, { token, body: r.method === 'GET' || r.method === 'DELETE' ? undefined : INVALID_BODY });

  it('lists the spec\'s paths', () => {
    const listed = routes.map((r) => `${r.method} ${r.path}`);
    for (const path of ['/api/forecast', '/api/forecast/change-history', '/api/forecast/channel-projection', '/api/forecast/long-term', '/api/forecast/accuracy', '/api/forecast/events', '/api/forecast/scenarios'])
      expect(listed).toContain(`GET ${path}`);
    for (const path of ['/api/forecast/scenarios/:id/generate', '/api/forecast/scenarios/:id/publish', '/api/forecast/scenarios/compare', '/api/forecast/scenarios', '/api/forecast/events'])
      expect(listed).toContain(`POST ${path}`);
    for (const method of ['GET', 'PUT', 'PATCH', 'DELETE']) expect(listed).toContain(`${method} /api/forecast/scenarios/:id`);
  });

  it('answers an organization without ai.forecasting.demand 403 FEATURE_NOT_ENABLED, even for invalid input', async () => {
    const refused: string[] = [];
    for (const r of routes) {
      const res = await send(r, plain.key);
      if (res.status !== 403 || res.body.code !== 'FEATURE_NOT_ENABLED' || res.body.feature !== FORECASTING || res.body.planCapability !== FORECASTING)
        refused.push(`${r.method} ${r.path} ${res.status} ${JSON.stringify(res.body)}`);
    }
    expect(refused).toEqual([]);
  });

  it('answers a key without forecast.read 403, and a forecast:read key 403 on every write, even for invalid input', async () => {
    const noScope = await a.keyWith(['inventory:read']);
    const readOnly = await a.keyWith(['forecast:read']);
    const wrong: string[] = [];
    for (const r of routes) {
      const none = await send(r, noScope);
      if (none.status !== 403 || none.body.code !== 'INSUFFICIENT_SCOPE') wrong.push(`no scope: ${r.method} ${r.path} ${none.status}`);
      const read = await send(r, readOnly);
      if (isWrite(r) && (read.status !== 403 || read.body.code !== 'INSUFFICIENT_SCOPE')) wrong.push(`read key writes: ${r.method} ${r.path} ${read.status}`);
      if (!isWrite(r) && read.status === 403) wrong.push(`read key reads: ${r.method} ${r.path} ${read.status}`);
    }
    expect(wrong).toEqual([]);
  });

  it("answers another organization's scenario, event, run or override id 404", async () => {
    const wrong: string[] = [];
    for (const r of routes.filter((r) => r.path.includes(':id'))) {
      const res = await server.call(r.method, pathFor(r.path, 'b'), { token: a.key, body: r.method === 'PUT' || r.method === 'PATCH' ? { name: 'x' } : r.method === 'POST' ? {} : undefined });
      if (res.status !== 404 && !(res.status === 400 && r.method === 'PUT')) wrong.push(`${r.method} ${r.path} ${res.status} ${JSON.stringify(res.body)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('never answers 500 to odd query values', async () => {
    const values = ['abc', '-1', '0', '1e309', '99999999999999999999', '2025-02-30', '\u0000', '0,100', '80,80', '', '1.5', '2026-01-05T25:00:00Z', '99999-01-01', 'x'.repeat(3000), 'true'];
    const failed: string[] = [];
    for (const r of routes.filter((r) => r.method === 'GET' && r.input?.query)) {
      for (const key of Object.keys(r.input!.query!.shape)) {
        for (const v of values) {
          const res = await server.call('GET', `${pathFor(r.path, 'a')}?${key}=${encodeURIComponent(v)}`, { token: a.key });
          if (res.status >= 500) failed.push(`${res.status} ${r.path} ${key}=${v.slice(0, 20)}`);
        }
      }
    }
    expect(failed).toEqual([]);
  });

  it('never answers 500 to odd bodies', async () => {
    const raw = ['{', '[]', '"x"', 'null', '1', '{"name":"a\\u0000","type":"CUSTOM"}', '{"__proto__":{"x":1}}'];
    const odd = [null, 'abc', -1, 1e309, 1e20, '2025-02-30', 'a\u0000b', [], {}, true, '9999-12-31T00:00:00Z'];
    const failed: string[] = [];
    for (const r of routes.filter((r) => r.method !== 'GET' && r.method !== 'DELETE')) {
      const path = pathFor(r.path, 'a');
      for (const body of raw) {
        const res = await server.call(r.method, path, { token: a.key, body });
        if (res.status >= 500) failed.push(`${res.status} ${r.method} ${r.path} ${body}`);
      }
      const keys = Object.keys((r.input?.body as { shape?: object } | undefined)?.shape ?? {});
      for (const key of [...keys, 'assumptions.globalLiftPct', 'assumptions.includedEventIds', 'value.liftPct']) {
        for (const v of odd) {
          const [head, tail] = key.split('.');
          const body = tail ? { name: 'n', type: 'CUSTOM', [head!]: { [tail]: v } } : { [key]: v };
          const res = await server.call(r.method, path, { token: a.key, body });
          if (res.status >= 500) failed.push(`${res.status} ${r.method} ${r.path} ${JSON.stringify(body)}`);
        }
      }
    }
    expect(failed).toEqual([]);
  });
});

describe('date-times on days that do not exist', () => {
  const event = { name: 'Sale', type: 'PROMOTION', startsAt: '2026-03-02T00:00:00Z', endsAt: '2026-03-09T00:00:00Z' };

  it('are 400 on the field in a body and a query, and nothing is written', async () => {
    const before = await server.app.prisma.externalEvent.count({ where: { organizationId: a.org.id } });
    for (const startsAt of ['2025-02-30T00:00:00Z', '2026-02-29T10:00:00+02:00', '2026-04-31']) {
      const res = await server.call('POST', '/api/forecast/events', { token: a.key, body: { ...event, startsAt } });
      expect(res.status, startsAt).toBe(400);
      expect(Object.keys(res.body.details), startsAt).toEqual(['startsAt']);
    }
    expect(await server.app.prisma.externalEvent.count({ where: { organizationId: a.org.id } })).toBe(before);
    const list = await server.call('GET', '/api/forecast/events?from=2025-02-30T00:00:00Z', { token: a.key });
    expect(list.status).toBe(400);
    expect(Object.keys(list.body.details)).toEqual(['from']);
    const history = await server.call('GET', '/api/forecast/change-history?to=2025-02-30T00:00:00Z', { token: a.key });
    expect(history.status).toBe(400);
    expect(Object.keys(history.body.details)).toEqual(['to']);
    // A real leap day and an offset are still taken.
    expect((await server.call('POST', '/api/forecast/events', { token: a.key, body: { ...event, startsAt: '2028-02-29T23:00:00-01:00', endsAt: '2028-03-09T00:00:00Z' } })).status).toBe(201);
  });

  it('are refused by the DateTime scalar over GraphQL', async () => {
    const res = await server.graphql(
      'mutation ($input: ExternalEventCreateInput!) { createExternalEvent(input: $input) { ... on ExternalEvent { id } } }',
      { input: { ...event, startsAt: '2025-02-30T00:00:00Z' } },
      a.key,
    );
    expect(res.body.data ?? null).toBeNull();
    expect(JSON.stringify(res.body.errors)).toMatch(/startsAt/);
  });
});

describe('every forecasting GraphQL root field', () => {
  const FORECAST_FIELD = /forecast|scenario|externalEvent|channelProjection|learnedEventLifts/i;

  it('needs the plan capability and forecast.read or forecast.write', () => {
    const roots = { query: schema.getQueryType()!, mutation: schema.getMutationType()!, subscription: schema.getSubscriptionType()! };
    const found: string[] = [];
    for (const [kind, type] of Object.entries(roots)) {
      for (const field of Object.values(type.getFields()).filter((f) => FORECAST_FIELD.test(f.name))) {
        const scopes = operationScopes(schema, `${kind} { ${field.name} { __typename } }`);
        const permission = kind === 'mutation' ? 'forecast.write' : 'forecast.read';
        found.push(`${kind} ${field.name}: ${scopes.capabilities.join()} ${scopes.permissions.join()}`);
        expect(`${kind} ${field.name}: ${scopes.capabilities.join()} ${scopes.permissions.join()}`).toBe(`${kind} ${field.name}: ${FORECASTING} ${permission}`);
      }
    }
    expect(found.length).toBeGreaterThan(20);
  });

  it('forecastRunProgress refuses an organization without the capability, a key without forecast.read and a foreign run', async () => {
    const first = async (token: string, id: string) => {
      const client = createClient({ url: `${server.url.replace(/^http/, 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${token}` }, retryAttempts: 0, lazy: true });
      try {
        return await new Promise<string>((resolve) => {
          client.subscribe(
            { query: 'subscription ($id: ID!) { forecastRunProgress(id: $id) { id status } }', variables: { id } },
            { next: (r) => resolve(JSON.stringify(r)), error: (e) => resolve(JSON.stringify(e)), complete: () => resolve('complete') },
          );
        });
      } finally {
        await client.dispose();
      }
    };
    expect(await first(plain.key, ids.run!.a)).toMatch(/FEATURE_NOT_ENABLED/);
    expect(await first(await a.keyWith(['inventory:read']), ids.run!.a)).toMatch(/INSUFFICIENT_SCOPE/);
    expect(await first(a.key, ids.run!.b)).toMatch(/NOT_FOUND/);
    expect(await first(a.key, ids.run!.a)).toMatch(new RegExp(ids.run!.a));
  });
});

describe('GET /api/forecast/events filters', () => {
  it("answer 404 for a product or location that is not the organization's, over REST and GraphQL", async () => {
    for (const query of [`productMasterId=${ids.product!.b}`, `locationId=${ids.location!.b}`, 'productMasterId=nope']) {
      const res = await server.call('GET', `/api/forecast/events?${query}`, { token: a.key });
      expect(res.status, query).toBe(404);
      expect(res.body.code).toBe('NOT_FOUND');
    }
    const body = { name: 'Mine', type: 'OTHER', startsAt: '2031-03-03T00:00:00Z', endsAt: '2031-03-10T00:00:00Z', productMasterId: ids.product!.a, locationId: ids.location!.a };
    const mine = (await server.call('POST', '/api/forecast/events', { token: a.key, body })).body.id;
    const own = await server.call('GET', `/api/forecast/events?productMasterId=${ids.product!.a}&locationId=${ids.location!.a}&from=2031-03-01T00:00:00Z`, { token: a.key });
    expect(own.status).toBe(200);
    expect(own.body.events.map((e: { id: string }) => e.id)).toContain(mine);
    const gql = await server.graphql('query ($p: ID) { externalEvents(productMasterId: $p) { totalCount } }', { p: ids.product!.b }, a.key);
    expect(gql.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});

describe('GET /api/forecast/runs/{id}/series filters', () => {
  it("answer 404 for a product or location that is not the organization's", async () => {
    for (const query of [`productMasterId=${ids.product!.b}`, `locationId=${ids.location!.b}`]) {
      const res = await server.call('GET', `/api/forecast/runs/${ids.run!.a}/series?${query}`, { token: a.key });
      expect(res.status, query).toBe(404);
    }
    expect((await server.call('GET', `/api/forecast/runs/${ids.run!.a}/series?productMasterId=${ids.product!.a}`, { token: a.key })).status).toBe(200);
    const gql = await server.graphql('query ($id: ID!, $p: ID) { forecastRunSeries(id: $id, productMasterId: $p) { totalCount } }', { id: ids.run!.a, p: ids.product!.b }, a.key);
    expect(gql.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});

describe('read-only scenarios', () => {
  it('refuse every write with 409 INVALID_STATE, in words that read right for PUBLISHED and ARCHIVED', async () => {
    const point = { productMasterId: ids.product!.a, locationId: ids.location!.a, periodStart: '2026-03-23', quantity: 2 };
    const writes = (id: string): [string, string, unknown][] => [
      ['PUT', `/api/forecast/scenarios/${id}`, { name: 'y', type: 'CUSTOM' }],
      ['PATCH', `/api/forecast/scenarios/${id}`, { name: 'y' }],
      ['POST', `/api/forecast/scenarios/${id}/publish`, undefined],
      ['POST', `/api/forecast/scenarios/${id}/generate`, {}],
      ['PUT', '/api/forecast/overrides', { ...point, scenarioId: id }],
    ];
    const id = (await server.call('POST', '/api/forecast/scenarios', { token: a.key, body: { name: 'RO', type: 'CUSTOM' } })).body.id;
    expect((await server.call('POST', `/api/forecast/scenarios/${id}/publish`, { token: a.key })).status).toBe(200);
    for (const [method, path, body] of writes(id)) {
      const res = await server.call(method, path, { token: a.key, body });
      expect(res.status, `${method} ${path}`).toBe(409);
      expect(res.body).toEqual({ error: expect.stringMatching(/^A PUBLISHED scenario is read-only/), code: 'INVALID_STATE' });
    }
    expect((await server.call('DELETE', `/api/forecast/scenarios/${id}`, { token: a.key })).status).toBe(200);
    for (const [method, path, body] of writes(id)) {
      const res = await server.call(method, path, { token: a.key, body });
      expect(res.status, `${method} ${path}`).toBe(409);
      expect(res.body).toEqual({ error: expect.stringMatching(/^An ARCHIVED scenario is read-only/), code: 'INVALID_STATE' });
    }
    expect((await server.call('DELETE', `/api/forecast/scenarios/${id}`, { token: a.key })).status).toBe(409);
    expect(await server.app.prisma.forecastOverride.count({ where: { scenarioId: id } })).toBe(0);
    expect(await server.app.prisma.forecastRun.count({ where: { scenarioId: id } })).toBe(0);
  });
});

describe('GraphQL: the plan capability and the permission come before the variables', () => {
  it('refuses invalid variables with FEATURE_NOT_ENABLED or INSUFFICIENT_SCOPE, not with what is wrong with them', async () => {
    const MUTATION = 'mutation ($input: ForecastScenarioInput!) { createForecastScenario(input: $input) { __typename } }';
    const bad = { input: { name: 5, type: 'NOPE' } };
    expect((await server.graphql(MUTATION, bad, plain.key)).body.errors?.[0]?.extensions?.code).toBe('FEATURE_NOT_ENABLED');
    expect((await server.graphql(MUTATION, bad, await a.keyWith(['forecast:read']))).body.errors?.[0]?.extensions?.code).toBe('INSUFFICIENT_SCOPE');
    const QUERY = 'query ($h: Int) { demandForecast(horizon: $h) { totalCount } }';
    expect((await server.graphql(QUERY, { h: 'many' }, plain.key)).body.errors?.[0]?.extensions?.code).toBe('FEATURE_NOT_ENABLED');
    // A caller let in still learns what is wrong with its variables.
    const errors = JSON.stringify((await server.graphql(MUTATION, bad, a.key)).body.errors);
    expect(errors).toMatch(/\$input/);
    expect(errors).not.toMatch(/FEATURE_NOT_ENABLED|INSUFFICIENT_SCOPE/);
  });
});
