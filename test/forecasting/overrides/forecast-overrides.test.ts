import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct, graphqlData, graphqlRefusal } from '../../support/api.js';
import { dayAfter, insertWeeklyDemand, weekAfter } from '../../support/demand-history.js';
import { createTenant, type Tenant } from '../../support/fixtures.js';
import { REFUSAL } from '../../support/graphql.js';
import type { TestServer } from '../../support/server.js';
import { startServerWithTwoTenants } from '../../support/two-tenants.js';
import { FORECASTING } from '../../support/forecasting.js';

// Planner overrides of single forecast weeks (PUT/GET/DELETE /api/forecast/overrides, forecastOverrides,
// setForecastOverride, removeForecastOverride) and how GET /api/forecast answers them, on a real database.
// The series is a constant 100 a week, so the model forecasts exactly 100 with zero-width intervals.

const OVERRIDES = '/api/forecast/overrides';
const FIRST_WEEK = '2024-01-01'; // a Monday
const HISTORY_WEEKS = 30;
const first = weekAfter(FIRST_WEEK, HISTORY_WEEKS);
const second = weekAfter(first, 1);
const third = weekAfter(first, 2);

let server: TestServer;
let a: Tenant;
let b: Tenant;
let plain: Tenant;
let product: string;
let theirProduct: string;

const call = async (method: string, path: string, status: number, options: { token?: string; body?: unknown } = {}) => {
  const res = await server.call(method, path, { token: a.key, ...options });
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(status);
  return res.body;
};
const point = (extra: Record<string, unknown> = {}) => ({ productMasterId: product, locationId: a.warehouse.id, periodStart: first, quantity: 150, ...extra });
const scenario = async (name: string) => (await call('POST', '/api/forecast/scenarios', 201, { body: { name, type: 'CUSTOM' } })).id as string;
const weeks = async (query = '') => {
  const page = await call('GET', `/api/forecast?productMasterId=${product}&horizon=3&levels=80${query}`, 200);
  return page.data[0].points as any[];
};
const history = async (query = '') => (await call('GET', `/api/forecast/change-history?kind=OVERRIDE&productMasterId=${product}${query}`, 200)).changes as any[];
const clear = () => server.app.prisma.forecastOverride.deleteMany({ where: { organizationId: a.org.id } });
const signIn = async (tenant: Tenant, role: 'VIEWER' | 'PLANNER') => {
  const user = await tenant.userWith(role);
  return (await server.call('POST', '/api/auth/sign-in', { body: { email: user.email, password: user.password } })).body.token as string;
};

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants({}, { capabilities: [FORECASTING] }));
  const db = server.app.prisma;
  plain = await createTenant(db, { capabilities: [] });
  product = await createProduct(server, a.key, 'OV-1');
  theirProduct = await createProduct(server, b.key, 'OV-B');
  await insertWeeklyDemand(db, { organizationId: a.org.id, productMasterId: product, locationId: a.warehouse.id, firstWeek: FIRST_WEEK, values: Array(HISTORY_WEEKS).fill(100) });
});
afterAll(() => server?.close());

describe('REST /api/forecast/overrides', () => {
  it('sets, replaces and removes an override; the forecast answers it and the history records each step', async () => {
    await clear();
    const set = await call('PUT', OVERRIDES, 200, { body: point({ note: 'Trade show' }) });
    expect(set).toMatchObject({
      id: expect.any(String),
      scenarioId: null,
      productMasterId: product,
      locationId: a.warehouse.id,
      channel: 'ALL',
      periodStart: first,
      quantity: 150,
      note: 'Trade show',
      setBy: { type: 'API_KEY', id: expect.any(String) },
    });

    let points = await weeks();
    expect(points[0]).toMatchObject({ periodStart: first, forecast: 150, modelForecast: 100, overridden: true, overrideId: set.id, lower: 150, upper: 150, lower95: 150, upper95: 150 });
    expect(points[0].intervals).toEqual([{ level: 80, lower: 150, upper: 150 }]);
    expect(points[1]).toMatchObject({ periodStart: second, forecast: 100, modelForecast: 100, overridden: false, overrideId: null });

    const replaced = await call('PUT', OVERRIDES, 200, { body: point({ quantity: 0 }) });
    expect(replaced.id).toBe(set.id);
    expect(replaced).toMatchObject({ quantity: 0, note: null });
    points = await weeks();
    expect(points[0]).toMatchObject({ forecast: 0, lower: 0, upper95: 0, overridden: true });
    expect((await call('GET', `${OVERRIDES}?productMasterId=${product}`, 200)).pagination.total).toBe(1);

    const removed = await call('DELETE', `${OVERRIDES}/${set.id}`, 200);
    expect(removed).toMatchObject({ id: set.id, quantity: 0 });
    points = await weeks();
    expect(points[0]).toMatchObject({ forecast: 100, overridden: false, overrideId: null });
    await call('DELETE', `${OVERRIDES}/${set.id}`, 404);

    const rows = (await history()).filter((c) => c.periodStart === first);
    expect(rows.slice(0, 3).map((c) => [c.scenarioId, c.totalBefore, c.totalAfter, c.note])).toEqual([
      [null, 0, null, 'Override removed'],
      [null, 150, 0, null],
      [null, null, 150, 'Trade show'],
    ]);
    expect(rows[0]).toMatchObject({ kind: 'OVERRIDE', productMasterId: product, locationId: a.warehouse.id, channel: 'ALL', actor: { type: 'API_KEY' } });
  });

  it('moves the bounds with the override and keeps them at zero or above', async () => {
    await clear();
    // A noisy series of its own, so that the interval has width.
    const noisy = await createProduct(server, a.key, 'OV-NOISY');
    const values = Array.from({ length: HISTORY_WEEKS }, (_, i) => 50 + ((i * 37) % 21) - 10);
    await insertWeeklyDemand(server.app.prisma, { organizationId: a.org.id, productMasterId: noisy, locationId: a.warehouse.id, firstWeek: FIRST_WEEK, values });
    const model = (await call('GET', `/api/forecast?productMasterId=${noisy}&horizon=1&levels=80`, 200)).data[0].points[0];
    expect(model.upper).toBeGreaterThan(model.lower);
    await call('PUT', OVERRIDES, 200, { body: { productMasterId: noisy, locationId: a.warehouse.id, periodStart: first, quantity: model.forecast + 10 } });
    const up = (await call('GET', `/api/forecast?productMasterId=${noisy}&horizon=1&levels=80`, 200)).data[0].points[0];
    expect(up.upper).toBeCloseTo(model.upper + 10, 3);
    expect(up.lower).toBeCloseTo(model.lower + 10, 3);
    expect(up.modelForecast).toBe(model.forecast);
    await call('PUT', OVERRIDES, 200, { body: { productMasterId: noisy, locationId: a.warehouse.id, periodStart: first, quantity: 0 } });
    const down = (await call('GET', `/api/forecast?productMasterId=${noisy}&horizon=1&levels=80`, 200)).data[0].points[0];
    expect(down.forecast).toBe(0);
    expect(down.lower).toBe(0);
    expect(down.lower95).toBe(0);
    expect(down.upper).toBeCloseTo(Math.max(0, model.upper - model.forecast), 3);
  });

  it("lets a scenario's own override win over the base one, which holds for the base and other scenarios", async () => {
    await clear();
    const [mine, other] = [await scenario('Mine'), await scenario('Other')];
    await call('PUT', OVERRIDES, 200, { body: point({ quantity: 120 }) });
    const own = await call('PUT', OVERRIDES, 200, { body: point({ quantity: 80, scenarioId: mine }) });
    await call('PUT', OVERRIDES, 200, { body: point({ quantity: 60, scenarioId: mine, periodStart: second }) });

    expect((await weeks()).map((p) => p.forecast)).toEqual([120, 100, 100]);
    expect((await weeks(`&scenarioId=${mine}`)).map((p) => p.forecast)).toEqual([80, 60, 100]);
    expect((await weeks(`&scenarioId=${other}`)).map((p) => p.forecast)).toEqual([120, 100, 100]);

    const [setOwn] = await history(`&scenarioId=${mine}`);
    expect(setOwn).toMatchObject({ scenarioId: mine, periodStart: second, totalBefore: null, totalAfter: 60 });
    const ownFirst = (await history(`&scenarioId=${mine}`)).find((c) => c.periodStart === first);
    expect(ownFirst).toMatchObject({ totalBefore: 120, totalAfter: 80 });

    // Removing the scenario's own override falls back to the base one.
    await call('DELETE', `${OVERRIDES}/${own.id}`, 200);
    expect((await weeks(`&scenarioId=${mine}`)).map((p) => p.forecast)).toEqual([120, 60, 100]);
    expect((await history(`&scenarioId=${mine}`))[0]).toMatchObject({ periodStart: first, totalBefore: 80, totalAfter: 120 });

    const listed = await call('GET', `${OVERRIDES}?scenarioId=${mine}`, 200);
    expect(listed.data.map((o: any) => o.quantity)).toEqual([60]);
    expect(listed.overrides).toEqual(listed.data);
    const base = await call('GET', `${OVERRIDES}?baseOnly=true`, 200);
    expect(base.data.map((o: any) => [o.scenarioId, o.quantity])).toEqual([[null, 120]]);
    const paged = await call('GET', `${OVERRIDES}?limit=1&offset=1`, 200);
    expect(paged.pagination).toEqual({ total: 2, limit: 1, offset: 1, hasMore: false });
    expect((await call('GET', `${OVERRIDES}?from=${second}&to=${third}`, 200)).data.map((o: any) => o.periodStart)).toEqual([second]);
  });

  it('serialises concurrent writers of one point: every one answers 200 and one override remains', async () => {
    await clear();
    const draft = await scenario('Concurrent');
    for (const scenarioId of [null, draft]) {
      const answers = await Promise.all([1, 2, 3, 4].map((quantity) => server.call('PUT', OVERRIDES, { token: a.key, body: point({ periodStart: third, quantity, scenarioId }) })));
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200]);
      expect(new Set(answers.map((r) => r.body.id)).size).toBe(1);
    }
    expect(await server.app.prisma.forecastOverride.count({ where: { organizationId: a.org.id, periodStart: new Date(`${third}T00:00:00Z`) } })).toBe(2);
    expect((await history(`&scenarioId=${draft}`)).filter((c) => c.periodStart === third)).toHaveLength(4);
  });

  it('refuses writes to PUBLISHED and ARCHIVED scenarios with 409 INVALID_STATE', async () => {
    await clear();
    const published = await scenario('Published');
    const kept = await call('PUT', OVERRIDES, 200, { body: point({ scenarioId: published }) });
    await call('POST', `/api/forecast/scenarios/${published}/publish`, 200);
    expect((await call('PUT', OVERRIDES, 409, { body: point({ scenarioId: published, quantity: 1 }) })).code).toBe('INVALID_STATE');
    expect((await call('DELETE', `${OVERRIDES}/${kept.id}`, 409)).code).toBe('INVALID_STATE');
    const archived = await scenario('Archived');
    await call('DELETE', `/api/forecast/scenarios/${archived}`, 200);
    await call('PUT', OVERRIDES, 409, { body: point({ scenarioId: archived }) });
    // The published scenario's override still answers in its forecast.
    expect((await weeks(`&scenarioId=${published}`))[0].forecast).toBe(150);
  });

  it('answers 400 with details per field and 404 for ids of no one or of another organization', async () => {
    const bad = await call('PUT', OVERRIDES, 400, { body: { productMasterId: product, locationId: a.warehouse.id, periodStart: dayAfter(first, 1), quantity: -1 } });
    expect(bad.code).toBe('VALIDATION_ERROR');
    expect(Object.keys(bad.details).sort()).toEqual(['periodStart', 'quantity']);
    expect((await call('PUT', OVERRIDES, 400, { body: { ...point(), extra: 1 } })).code).toBe('VALIDATION_ERROR');
    expect((await call('PUT', OVERRIDES, 400, { body: {} })).details).toMatchObject({ productMasterId: ['Required'], periodStart: ['Required'], quantity: ['Required'] });
    // Ids in the body are fields: 400 naming each; as filters and in paths they are 404.
    expect((await call('PUT', OVERRIDES, 400, { body: point({ productMasterId: theirProduct, locationId: b.warehouse.id }) })).details).toEqual({
      productMasterId: ['Product not found'],
      locationId: ['Location not found'],
    });
    expect((await call('PUT', OVERRIDES, 400, { body: point({ scenarioId: 'nope' }) })).details).toEqual({ scenarioId: ['Scenario not found'] });
    await call('GET', `${OVERRIDES}?productMasterId=${theirProduct}`, 404);
    await call('GET', `${OVERRIDES}?scenarioId=x&baseOnly=true`, 400);
  });

  it("keeps each organization's overrides to itself", async () => {
    await clear();
    const mine = await call('PUT', OVERRIDES, 200, { body: point() });
    expect((await call('GET', OVERRIDES, 200, { token: b.key })).data).toEqual([]);
    await call('DELETE', `${OVERRIDES}/${mine.id}`, 404, { token: b.key });
    expect((await call('GET', OVERRIDES, 200)).data.map((o: any) => o.id)).toEqual([mine.id]);
    expect((await call('GET', `/api/forecast/change-history?kind=OVERRIDE`, 200, { token: b.key })).changes).toEqual([]);
  });

  it('needs the plan capability, forecast.read to list and forecast.write to change', async () => {
    for (const [method, path, body] of [
      ['GET', OVERRIDES],
      ['PUT', OVERRIDES, point()],
      ['DELETE', `${OVERRIDES}/x`],
    ] as const) {
      const res = await server.call(method, path, { token: plain.key, body });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.code).toBe('FEATURE_NOT_ENABLED');
    }
    const readKey = await a.keyWith(['forecast:read']);
    const viewer = await signIn(a, 'VIEWER');
    for (const token of [readKey, viewer]) {
      await call('GET', OVERRIDES, 200, { token });
      expect((await call('PUT', OVERRIDES, 403, { token, body: point() })).code).toMatch(/INSUFFICIENT_SCOPE|FORBIDDEN/);
      await call('DELETE', `${OVERRIDES}/x`, 403, { token });
    }
    const planner = await signIn(a, 'PLANNER');
    expect((await call('PUT', OVERRIDES, 200, { token: planner, body: point({ quantity: 3 }) })).setBy.type).toBe('USER');
    await call('GET', OVERRIDES, 401, { token: '' });
  });
});

describe('GraphQL forecast overrides', () => {
  const FIELDS = 'id scenarioId channel periodStart quantity note setBy { type }';
  it('sets, lists and removes, answers typed refusals, and demandForecast answers the override', async () => {
    await clear();
    const draft = await scenario('GraphQL');
    const set = await graphqlData(
      server,
      a.key,
      `mutation ($input: ForecastOverrideInput!) { setForecastOverride(input: $input) { ... on ForecastOverride { ${FIELDS} } ${REFUSAL} } }`,
      { input: point({ quantity: 42, scenarioId: draft, note: 'gql' }) },
    );
    expect(set.setForecastOverride).toMatchObject({ scenarioId: draft, channel: 'ALL', periodStart: first, quantity: 42, note: 'gql', setBy: { type: 'API_KEY' } });

    const forecast = await graphqlData(
      server,
      a.key,
      `query ($p: ID, $s: ID) { demandForecast(productMasterId: $p, scenarioId: $s, horizon: 1) { edges { node { points { forecast modelForecast overridden overrideId } } } } }`,
      { p: product, s: draft },
    );
    expect(forecast.demandForecast.edges[0].node.points[0]).toEqual({ forecast: 42, modelForecast: 100, overridden: true, overrideId: set.setForecastOverride.id });

    const list = await graphqlData(server, a.key, `query ($s: ID) { forecastOverrides(scenarioId: $s) { edges { node { id quantity } } totalCount pageInfo { hasNextPage } } }`, { s: draft });
    expect(list.forecastOverrides).toEqual({ edges: [{ node: { id: set.setForecastOverride.id, quantity: 42 } }], totalCount: 1, pageInfo: { hasNextPage: false } });

    const refusal = await graphqlRefusal(
      server,
      a.key,
      `mutation ($input: ForecastOverrideInput!) { setForecastOverride(input: $input) { ... on ForecastOverride { id } ${REFUSAL} } }`,
      { input: point({ quantity: -5 }) },
    );
    expect(refusal).toMatchObject({ code: 'VALIDATION_ERROR', details: { quantity: ['Must be 0 or more'] } });
    // periodStart is a Date: a day that does not exist is refused before anything runs; a Tuesday is the service's refusal.
    const setOverride = `mutation ($input: ForecastOverrideInput!) { setForecastOverride(input: $input) { ... on ForecastOverride { id } ${REFUSAL} } }`;
    const noDay = await server.graphql(setOverride, { input: point({ periodStart: '2024-02-30' }) }, a.key);
    expect(noDay.status).toBe(400);
    expect(noDay.body.errors[0].extensions).toEqual({ code: 'VALIDATION_ERROR', details: { 'input.periodStart': [expect.stringContaining('Must be an ISO 8601 date')] } });
    const literal = await server.graphql(`mutation { setForecastOverride(input: { productMasterId: "${product}", locationId: "${a.warehouse.id}", periodStart: "soon", quantity: 1 }) { ... on ForecastOverride { id } } }`, {}, a.key);
    // A literal is judged by GraphQL's own validation, as for every Date argument written in the document.
    expect(literal.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    const tuesday = await graphqlRefusal(server, a.key, setOverride, { input: point({ periodStart: dayAfter(first, 1) }) });
    expect(tuesday).toMatchObject({ code: 'VALIDATION_ERROR', details: { periodStart: ['Must be a Monday (the first day of an ISO week)'] } });
    const missing = await graphqlRefusal(server, a.key, `mutation { removeForecastOverride(id: "nope") { ... on ForecastOverride { id } ${REFUSAL} } }`);
    expect(missing.code).toBe('NOT_FOUND');

    const removed = await graphqlData(server, a.key, `mutation ($id: ID!) { removeForecastOverride(id: $id) { ... on ForecastOverride { id quantity } ${REFUSAL} } }`, {
      id: set.setForecastOverride.id,
    });
    expect(removed.removeForecastOverride).toEqual({ id: set.setForecastOverride.id, quantity: 42 });
    const denied = await server.graphql(`{ forecastOverrides { totalCount } }`, {}, plain.key);
    expect(denied.body.errors[0].extensions.code).toBe('FEATURE_NOT_ENABLED');
  });
});
