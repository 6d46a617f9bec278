import { operatorContext } from '../../../src/context.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocationFor } from '../../../src/services/admin/admin.js';
import { createProduct, graphqlData, graphqlError } from '../../support/api.js';
import { insertWeeklyDemand, weekAfter } from '../../support/demand-history.js';
import { createTenant, type Tenant } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';
import { startServerWithTwoTenants } from '../../support/two-tenants.js';
import { FORECASTING } from '../../support/forecasting.js';

// Scenario assumptions on GET /api/forecast (and demandForecast), and POST /api/forecast/scenarios/compare
// (and compareForecastScenarios), on a real database. Every series is a constant 100 a week, so the engine
// forecasts exactly 100 with zero-width intervals and each lift can be checked to the unit.

const FIRST_WEEK = '2024-01-01'; // a Monday
const HISTORY_WEEKS = 30;
const COMPARE = '/api/forecast/scenarios/compare';

let server: TestServer;
let a: Tenant;
let b: Tenant;
let plain: Tenant;
let crowded: Tenant;
let dc: { id: string };
let rainGear: string; // category of p1
let web: string; // channel named "Web" (type WEB)
let amazon: string; // channel named "Amazon" of type MARKETPLACE
let p1: string;
let p2: string;
let p3: string;
let saleX1_5: string; // p3, first forecast week, ×1.5
let saleAdd: string; // p3, second forecast week, +100 % additive
let theirScenario: string;

/** Week `i` of the fixtures, counted from FIRST_WEEK; the forecast starts at week(HISTORY_WEEKS). */
const week = (i: number) => weekAfter(FIRST_WEEK, i);
const first = week(HISTORY_WEEKS);

const ok = async (method: string, path: string, options: { token?: string; body?: unknown } = {}) => {
  const res = await server.call(method, path, { token: a.key, ...options });
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(method === 'POST' && path.endsWith('/scenarios') ? 201 : 200);
  return res.body;
};
const scenario = async (assumptions: Record<string, unknown> | null, name = 'S', tenant = a) =>
  (await ok('POST', '/api/forecast/scenarios', { token: tenant.key, body: { name, type: 'CUSTOM', assumptions } })).id as string;
const forecast = async (query: string, token = a.key) => (await ok('GET', `/api/forecast?${query}`, { token })) as { data: any[]; meta: any };
const seriesOf = (page: { data: any[] }, productMasterId: string, channel = 'ALL') => page.data.find((s) => s.productMasterId === productMasterId && s.channel === channel);
const forecasts = (series: any) => series.points.map((p: any) => p.forecast);

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants({}, { capabilities: [FORECASTING] }));
  const db = server.app.prisma;
  plain = await createTenant(db, { capabilities: [] });
  crowded = await createTenant(db, { capabilities: [FORECASTING] });
  dc = await createLocationFor(operatorContext(db, 'test-setup'), { organizationId: a.org.id, code: 'DC2', name: 'Second DC' });
  rainGear = (await db.category.create({ data: { organizationId: a.org.id, name: 'Rain gear' } })).id;
  web = (await db.channel.create({ data: { organizationId: a.org.id, name: 'Web', type: 'WEB' } })).id;
  amazon = (await db.channel.create({ data: { organizationId: a.org.id, name: 'Amazon', type: 'MARKETPLACE' } })).id;
  p1 = await createProduct(server, a.key, 'SC-1');
  p2 = await createProduct(server, a.key, 'SC-2');
  p3 = await createProduct(server, a.key, 'SC-3');
  await db.productMaster.update({ where: { id: p1 }, data: { categoryId: rainGear } });
  const constant = Array(HISTORY_WEEKS).fill(100);
  const at = a.warehouse.id;
  // At the warehouse: p1 on the Web channel (label in another case than the channel's name), p2 without a
  // channel (ALL) and p2 on a label matching Amazon's type. p3 at the DC carries the events.
  await insertWeeklyDemand(db, { organizationId: a.org.id, productMasterId: p1, locationId: at, channel: 'web', firstWeek: FIRST_WEEK, values: constant });
  await insertWeeklyDemand(db, { organizationId: a.org.id, productMasterId: p2, locationId: at, firstWeek: FIRST_WEEK, values: constant });
  await insertWeeklyDemand(db, { organizationId: a.org.id, productMasterId: p2, locationId: at, channel: 'Marketplace', firstWeek: FIRST_WEEK, values: constant });
  await insertWeeklyDemand(db, { organizationId: a.org.id, productMasterId: p3, locationId: dc.id, firstWeek: FIRST_WEEK, values: constant });
  const event = async (body: Record<string, unknown>) => (await server.call('POST', '/api/forecast/events', { token: a.key, body: { type: 'PROMOTION', productMasterId: p3, ...body } })).body.id as string;
  saleX1_5 = await event({ name: 'x1.5', startsAt: `${week(30)}T00:00:00Z`, endsAt: `${week(30)}T12:00:00Z`, value: { liftPct: 0.5 } });
  saleAdd = await event({ name: '+100 %', startsAt: `${week(31)}T00:00:00Z`, endsAt: `${week(31)}T12:00:00Z`, value: { liftPct: 1, stackingMode: 'ADDITIVE' } });
  // Tenant b: one constant 1000 series and a scenario of its own.
  const theirs = await createProduct(server, b.key, 'SC-B');
  await insertWeeklyDemand(db, { organizationId: b.org.id, productMasterId: theirs, locationId: b.warehouse.id, firstWeek: FIRST_WEEK, values: Array(HISTORY_WEEKS).fill(1000) });
  theirScenario = await scenario({ globalLiftPct: 0.5 }, 'Theirs', b);
  // More series than one comparison adds up: 201 channel labels of one product, one week each.
  const many = await createProduct(server, crowded.key, 'SC-MANY');
  await db.demandHistory.createMany({
    data: Array.from({ length: 201 }, (_, i) => ({
      organizationId: crowded.org.id,
      productMasterId: many,
      locationId: crowded.warehouse.id,
      channel: `C${i}`,
      weekStart: new Date(`${FIRST_WEEK}T00:00:00Z`),
      actualUnits: 1,
      forecastUnits: 1,
    })),
  });
}, 60_000);
afterAll(() => server?.close());

describe('GET /api/forecast?scenarioId=', () => {
  it('applies the category, channel (by name, else type, any case) and global lifts to the unit, forecast and bounds', async () => {
    const id = await scenario({
      categoryAdjustments: [{ categoryId: rainGear, liftPct: 0.1 }],
      channelAdjustments: [
        { channelId: web, liftPct: 0.2 },
        { channelId: amazon, liftPct: 0.3 },
      ],
      globalLiftPct: -0.5,
    });
    const page = await forecast(`locationId=${a.warehouse.id}&horizon=3&scenarioId=${id}`);
    expect(page.meta.scenarioId).toBe(id);
    const onWeb = seriesOf(page, p1, 'web');
    // 100 × 1.1 × 1.2 × 0.5
    expect(forecasts(onWeb)).toEqual([66, 66, 66]);
    expect(onWeb.adjustments).toEqual({ scenarioId: id, categoryId: rainGear, categoryLiftPct: 0.1, channelId: web, channelLiftPct: 0.2, globalLiftPct: -0.5, factor: 0.66 });
    for (const point of onWeb.points) {
      expect(point).toMatchObject({ forecast: 66, lower: 66, upper: 66, lower95: 66, upper95: 66, liftFactor: 1, adjustmentFactor: 0.66 });
      expect(point.intervals).toEqual([{ level: 80, lower: 66, upper: 66 }, { level: 95, lower: 66, upper: 66 }]);
    }
    // No category, label ALL matches no channel: only the global lift.
    const all = seriesOf(page, p2);
    expect(forecasts(all)).toEqual([50, 50, 50]);
    expect(all.adjustments).toMatchObject({ categoryId: null, categoryLiftPct: null, channelId: null, channelLiftPct: null, globalLiftPct: -0.5, factor: 0.5 });
    // "Marketplace" is no channel's name but Amazon's type: 100 × 1.3 × 0.5.
    const marketplace = seriesOf(page, p2, 'Marketplace');
    expect(forecasts(marketplace)).toEqual([65, 65, 65]);
    expect(marketplace.adjustments).toMatchObject({ channelId: amazon, channelLiftPct: 0.3, factor: 0.65 });
    // Without a scenario nothing moves, and adjustments is null.
    const plainPage = await forecast(`locationId=${a.warehouse.id}&horizon=3`);
    expect(plainPage.meta.scenarioId).toBeNull();
    for (const s of plainPage.data) {
      expect(forecasts(s)).toEqual([100, 100, 100]);
      expect(s.adjustments).toBeNull();
      expect(s.points.every((p: any) => p.adjustmentFactor === 1)).toBe(true);
    }
  });

  it('applies events first, then the adjustments: forecast = statistical × liftFactor × adjustmentFactor; -100 % takes everything to zero', async () => {
    const all = await forecast(`productMasterId=${p3}&horizon=3`);
    // Events without a scenario: ×1.5, then +100 %.
    expect(forecasts(all.data[0])).toEqual([150, 200, 100]);
    const up = await scenario({ globalLiftPct: 0.1 });
    const lifted = (await forecast(`productMasterId=${p3}&horizon=3&scenarioId=${up}`)).data[0];
    expect(lifted.points.map((p: any) => [p.forecast, p.liftFactor, p.adjustmentFactor])).toEqual([
      [165, 1.5, 1.1],
      [220, 2, 1.1],
      [110, 1, 1.1],
    ]);
    expect(lifted.events.map((e: any) => e.id)).toEqual([saleX1_5, saleAdd]);
    const gone = await scenario({ globalLiftPct: -1, categoryAdjustments: [{ categoryId: rainGear, liftPct: 5 }] });
    const zero = (await forecast(`productMasterId=${p3}&horizon=3&scenarioId=${gone}`)).data[0];
    for (const point of zero.points) expect([point.forecast, point.lower, point.upper, point.lower95, point.upper95, point.adjustmentFactor]).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it('applies only the events in includedEventIds: absent or null all of them, [] none', async () => {
    const only = await scenario({ includedEventIds: [saleX1_5] });
    const none = await scenario({ includedEventIds: [] });
    const absent = await scenario({ globalLiftPct: 0 });
    const empty = await scenario(null);
    const of = async (id: string) => (await forecast(`productMasterId=${p3}&horizon=3&scenarioId=${id}`)).data[0];
    const withOne = await of(only);
    expect(forecasts(withOne)).toEqual([150, 100, 100]);
    expect(withOne.events.map((e: any) => e.id)).toEqual([saleX1_5]);
    const withNone = await of(none);
    expect(forecasts(withNone)).toEqual([100, 100, 100]);
    expect(withNone.events).toEqual([]);
    for (const id of [absent, empty]) expect(forecasts(await of(id))).toEqual([150, 200, 100]);
  });

  it('keeps ARCHIVED scenarios readable; unknown or foreign ones are 404', async () => {
    const id = await scenario({ globalLiftPct: 1 });
    await ok('DELETE', `/api/forecast/scenarios/${id}`);
    expect(forecasts((await forecast(`productMasterId=${p2}&channel=ALL&horizon=2&scenarioId=${id}`)).data[0])).toEqual([200, 200]);
    for (const bad of ['nope', theirScenario]) {
      const res = await server.call('GET', `/api/forecast?scenarioId=${bad}`, { token: a.key });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('NOT_FOUND');
    }
    // b's own scenario applies to b's series only.
    const theirs = await forecast(`horizon=1&scenarioId=${theirScenario}`, b.key);
    expect(theirs.data.map((s) => forecasts(s))).toEqual([[1500]]);
  });

  it('demandForecast takes scenarioId and answers the breakdown', async () => {
    const id = await scenario({ categoryAdjustments: [{ categoryId: rainGear, liftPct: 0.1 }], globalLiftPct: 0.1 });
    const data = await graphqlData(
      server,
      a.key,
      `query ($p: ID, $s: ID) { demandForecast(productMasterId: $p, scenarioId: $s, horizon: 1) {
        scenarioId edges { node { channel adjustments { categoryId categoryLiftPct channelId globalLiftPct factor } points { forecast liftFactor adjustmentFactor } } } } }`,
      { p: p1, s: id },
    );
    expect(data.demandForecast.scenarioId).toBe(id);
    expect(data.demandForecast.edges.map((e: any) => e.node)).toEqual([
      {
        channel: 'web',
        adjustments: { categoryId: rainGear, categoryLiftPct: 0.1, channelId: null, globalLiftPct: 0.1, factor: 1.21 },
        points: [{ forecast: 121, liftFactor: 1, adjustmentFactor: 1.21 }],
      },
    ]);
    const error = await graphqlError(server, a.key, `query ($s: ID) { demandForecast(scenarioId: $s) { totalCount } }`, { s: theirScenario });
    expect(error.code).toBe('NOT_FOUND');
  });
});

describe('POST /api/forecast/scenarios/compare', () => {
  let base: string;
  let up: string;
  let down: string;

  beforeAll(async () => {
    base = await scenario(null, 'Base');
    up = await scenario({ globalLiftPct: 0.1 }, 'Up');
    down = await scenario({ categoryAdjustments: [{ categoryId: rainGear, liftPct: -0.5 }] }, 'Rain gear halved');
  });

  it('totals every matching series per scenario and week, with deltas against the first', async () => {
    server.queries.length = 0;
    const res = await ok('POST', COMPARE, { body: { scenarioIds: [base, up, down], locationId: a.warehouse.id, horizon: 2 } });
    // One read of the history (keys, then rows) and of the events, whatever the number of scenarios: one fit.
    const reading = (table: string) => server.queries.filter((sql) => sql.includes(`"${table}"`)).length;
    expect([reading('demand_history'), reading('external_events')]).toEqual([2, 1]);
    expect(res.meta).toEqual({ baseScenarioId: base, series: 3, horizon: 2, from: null });
    const weekly = (forecast: number, delta: number, deltaPct: number) =>
      [first, week(HISTORY_WEEKS + 1)].map((periodStart) => ({ periodStart, forecast, delta, deltaPct }));
    expect(res.data).toEqual([
      { scenarioId: base, name: 'Base', type: 'CUSTOM', status: 'DRAFT', forecast: 600, delta: 0, deltaPct: 0, periods: weekly(300, 0, 0) },
      { scenarioId: up, name: 'Up', type: 'CUSTOM', status: 'DRAFT', forecast: 660, delta: 60, deltaPct: 0.1, periods: weekly(330, 30, 0.1) },
      // p1 is halved: 50 + 100 + 100 a week.
      { scenarioId: down, name: 'Rain gear halved', type: 'CUSTOM', status: 'DRAFT', forecast: 500, delta: -100, deltaPct: -0.1667, periods: weekly(250, -50, -0.1667) },
    ]);
  });

  it('compares event choices (includedEventIds) on one fit, and ARCHIVED scenarios too; "13" is a horizon', async () => {
    const noEvents = await scenario({ includedEventIds: [] }, 'No events');
    await ok('DELETE', `/api/forecast/scenarios/${noEvents}`);
    const res = await ok('POST', COMPARE, { body: { scenarioIds: [noEvents, base], productMasterId: p3, horizon: '3', from: week(HISTORY_WEEKS + 0) } });
    expect(res.meta).toMatchObject({ series: 1, horizon: 3, from: first });
    expect(res.data[0]).toMatchObject({ status: 'ARCHIVED', forecast: 300 });
    expect(res.data[1]).toMatchObject({ forecast: 450, delta: 150, deltaPct: 0.5 });
    expect(res.data[1].periods.map((p: any) => [p.forecast, p.delta, p.deltaPct])).toEqual([
      [150, 50, 0.5],
      [200, 100, 1],
      [100, 0, 0],
    ]);
  });

  it('answers deltaPct null against a zero total, and zero series as empty periods', async () => {
    const gone = await scenario({ globalLiftPct: -1 }, 'Nothing');
    const res = await ok('POST', COMPARE, { body: { scenarioIds: [gone, base], productMasterId: p2, channel: 'ALL', horizon: 1 } });
    expect(res.data.map((s: any) => [s.forecast, s.delta, s.deltaPct])).toEqual([
      [0, 0, null],
      [100, 100, null],
    ]);
    const empty = await ok('POST', COMPARE, { body: { scenarioIds: [base, up], channel: 'NO-SUCH-LABEL' } });
    expect(empty.meta.series).toBe(0);
    expect(empty.data.map((s: any) => [s.forecast, s.periods])).toEqual([
      [0, []],
      [0, []],
    ]);
  });

  it('refuses bad bodies with 400 and details, unknown or foreign scenarios and filters with 404', async () => {
    const eleven = Array.from({ length: 11 }, (_, i) => `s${i}`);
    for (const [body, field] of [
      [{ scenarioIds: [base] }, 'scenarioIds'],
      [{ scenarioIds: eleven }, 'scenarioIds'],
      [{ scenarioIds: [base, base] }, 'scenarioIds.1'],
      [{}, 'scenarioIds'],
      [{ scenarioIds: [base, up], horizon: 105 }, 'horizon'],
      [{ scenarioIds: [base, up], from: 'soon' }, 'from'],
      [{ scenarioIds: [base, up], extra: 1 }, 'extra'],
    ] as const) {
      const res = await server.call('POST', COMPARE, { token: a.key, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(Object.keys(res.body.details), JSON.stringify(res.body)).toContain(field);
    }
    for (const body of [{ scenarioIds: [base, 'nope'] }, { scenarioIds: [theirScenario, base] }, { scenarioIds: [base, up], productMasterId: 'nope' }]) {
      const res = await server.call('POST', COMPARE, { token: a.key, body });
      expect(res.status, JSON.stringify(body)).toBe(404);
      expect(res.body.code).toBe('NOT_FOUND');
    }
  });

  it('refuses more than 200 matching series with 400, before reading their history', async () => {
    const mine = [await scenario(null, 'A', crowded), await scenario(null, 'B', crowded)];
    server.queries.length = 0;
    const res = await server.call('POST', COMPARE, { token: crowded.key, body: { scenarioIds: mine } });
    expect(res.status).toBe(400);
    // Only the series keys were read.
    expect(server.queries.filter((sql) => sql.includes('"demand_history"'))).toHaveLength(1);
    expect(res.body.details.series[0]).toMatch(/^201 series match; at most 200/);
    expect((await server.call('POST', COMPARE, { token: crowded.key, body: { scenarioIds: mine, channel: 'C7' } })).status).toBe(200);
  });

  it('keeps tenants apart: b compares its own scenarios over its own series', async () => {
    const another = await scenario(null, 'Their base', b);
    const res = await ok('POST', COMPARE, { token: b.key, body: { scenarioIds: [another, theirScenario], horizon: 1 } });
    expect(res.data.map((s: any) => [s.forecast, s.delta, s.deltaPct])).toEqual([
      [1000, 0, 0],
      [1500, 500, 0.5],
    ]);
    expect((await server.call('POST', COMPARE, { token: b.key, body: { scenarioIds: [another, base] } })).status).toBe(404);
  });

  it('compareForecastScenarios answers the same over GraphQL', async () => {
    const query = `query ($ids: [ID!]!, $location: ID) { compareForecastScenarios(scenarioIds: $ids, locationId: $location, horizon: 1) {
      baseScenarioId series horizon from items { scenarioId status forecast delta deltaPct periods { periodStart forecast delta deltaPct } } } }`;
    const data = await graphqlData(server, a.key, query, { ids: [base, up], location: a.warehouse.id });
    expect(data.compareForecastScenarios).toEqual({
      baseScenarioId: base,
      series: 3,
      horizon: 1,
      from: null,
      items: [
        { scenarioId: base, status: 'DRAFT', forecast: 300, delta: 0, deltaPct: 0, periods: [{ periodStart: first, forecast: 300, delta: 0, deltaPct: 0 }] },
        { scenarioId: up, status: 'DRAFT', forecast: 330, delta: 30, deltaPct: 0.1, periods: [{ periodStart: first, forecast: 330, delta: 30, deltaPct: 0.1 }] },
      ],
    });
    expect((await graphqlError(server, a.key, query, { ids: [base] })).code).toBe('VALIDATION_ERROR');
    expect((await graphqlError(server, a.key, query, { ids: [base, theirScenario] })).code).toBe('NOT_FOUND');
  });

  it("applies planners' overrides as GET /api/forecast does: the base ones to every scenario, a scenario's own to it only", async () => {
    const p4 = await createProduct(server, a.key, 'SC-4');
    await insertWeeklyDemand(server.app.prisma, { organizationId: a.org.id, productMasterId: p4, locationId: dc.id, firstWeek: FIRST_WEEK, values: Array(HISTORY_WEEKS).fill(100) });
    const own = await scenario({ globalLiftPct: 0.1 }, 'Own override');
    const override = (body: Record<string, unknown>) => ok('PUT', '/api/forecast/overrides', { body: { productMasterId: p4, locationId: dc.id, ...body } });
    await override({ periodStart: first, quantity: 40 });
    await override({ periodStart: week(HISTORY_WEEKS + 1), quantity: 250, scenarioId: own });
    const res = await ok('POST', COMPARE, { body: { scenarioIds: [base, own], productMasterId: p4, horizon: 3 } });
    // base: 40 (override), 100, 100; own: 40 (the base override wins over its ×1.1), 250 (its own), 110.
    expect(res.data.map((s: any) => s.periods.map((p: any) => p.forecast))).toEqual([
      [40, 100, 100],
      [40, 250, 110],
    ]);
    expect(res.data[1]).toMatchObject({ forecast: 400, delta: 160 });
    for (const [id, expected] of [[base, [40, 100, 100]], [own, [40, 250, 110]]] as const) {
      expect(forecasts((await forecast(`productMasterId=${p4}&horizon=3&scenarioId=${id}`)).data[0])).toEqual(expected);
    }
  });

  it('needs the plan capability, then forecast.read', async () => {
    const body = { scenarioIds: [base, up] };
    const featureless = await server.call('POST', COMPARE, { token: plain.key, body });
    expect([featureless.status, featureless.body.code]).toEqual([403, 'FEATURE_NOT_ENABLED']);
    const gql = await server.graphql(`{ compareForecastScenarios(scenarioIds: ["x", "y"]) { series } }`, {}, plain.key);
    expect(gql.body.errors[0].extensions.code).toBe('FEATURE_NOT_ENABLED');
    const inventoryOnly = await server.call('POST', COMPARE, { token: await a.keyWith(['inventory:read']), body });
    expect([inventoryOnly.status, inventoryOnly.body.code]).toEqual([403, 'INSUFFICIENT_SCOPE']);
    const readKey = await a.keyWith(['forecast:read']);
    expect((await server.call('POST', COMPARE, { token: readKey, body: { ...body, horizon: 1 } })).status).toBe(200);
    expect((await server.call('GET', `/api/forecast?horizon=1&scenarioId=${up}`, { token: readKey })).status).toBe(200);
    const viewer = await a.userWith('VIEWER');
    const token = (await server.call('POST', '/api/auth/sign-in', { body: { email: viewer.email, password: viewer.password } })).body.token as string;
    expect((await server.call('POST', COMPARE, { token, body: { ...body, horizon: 1 } })).status).toBe(200);
  });
});
