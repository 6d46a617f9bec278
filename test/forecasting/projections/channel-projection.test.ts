import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocationFor } from '../../../src/services/admin/admin.js';
import { createProduct, graphqlData, graphqlError } from '../../support/api.js';
import { insertWeeklyDemand, weekAfter } from '../../support/demand-history.js';
import { createTenant, type Tenant } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';
import { startServerWithTwoTenants } from '../../support/two-tenants.js';
import { expectForecastReadGates, expectForeignFiltersNotFound, expectValidationDetails, FORECASTING } from '../../support/forecasting.js';

// GET /api/forecast/channel-projection and the channelProjection query on a real database.

const FIRST_WEEK = '2024-01-01'; // a Monday

let server: TestServer;
let a: Tenant;
let b: Tenant;
let plain: Tenant;
let dc: { id: string };
let p1: string;
let p2: string;
let theirs: string;

const get = (query: string, token = a.key) => server.call('GET', `/api/forecast/channel-projection${query}`, { token });
const projectionOf = async (query: string, token = a.key) => {
  const res = await get(query, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { data: any[]; meta: any };
};
const only = async (productMasterId: string, locationId: string, rest = '') => {
  const { data } = await projectionOf(`?productMasterId=${productMasterId}&locationId=${locationId}${rest}`);
  expect(data).toHaveLength(1);
  return data[0];
};

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants({}, { capabilities: [FORECASTING] }));
  plain = await createTenant(server.app.prisma, { capabilities: [] });
  dc = await createLocationFor(server.operator, { organizationId: a.org.id, code: 'DC2', name: 'Second DC' });
  p1 = await createProduct(server, a.key, 'CP-1');
  p2 = await createProduct(server, a.key, 'CP-2');
  theirs = await createProduct(server, b.key, 'CP-B');
  const db = server.app.prisma;
  const org = a.org.id;
  const series = (productMasterId: string, locationId: string, channel: string, values: number[], organizationId = org) =>
    insertWeeklyDemand(db, { organizationId, productMasterId, locationId, channel, firstWeek: FIRST_WEEK, values });
  // WEB 30 and STORE 70 every week: a total of exactly 100.
  await series(p1, a.warehouse.id, 'WEB', Array(30).fill(30));
  await series(p1, a.warehouse.id, 'STORE', Array(30).fill(70));
  // Demand only in the first 10 weeks (STORE 10, WEB 30 a week), none in the last 20.
  await series(p1, dc.id, 'STORE', [...Array(10).fill(10), ...Array(20).fill(0)]);
  await series(p1, dc.id, 'WEB', [...Array(10).fill(30), ...Array(20).fill(0)]);
  // WEB grows from 10 to 40 a week for the last 10 weeks; STORE 60 throughout.
  await series(p2, a.warehouse.id, 'WEB', [...Array(20).fill(10), ...Array(10).fill(40)]);
  await series(p2, a.warehouse.id, 'STORE', Array(30).fill(60));
  // No demand at all.
  await series(p2, dc.id, 'A', Array(5).fill(0));
  await series(p2, dc.id, 'B', Array(5).fill(0));
  await series(theirs, b.warehouse.id, 'WEB', Array(30).fill(1000), b.org.id);
}, 60_000);
afterAll(() => server?.close());

describe('GET /api/forecast/channel-projection', () => {
  it('splits the forecast of the total by the recent shares: WEB 30 and STORE 70 a week give 0.3/0.7 and 30/70 of a flat 100', async () => {
    const { data, meta } = await projectionOf(`?productMasterId=${p1}&locationId=${a.warehouse.id}`);
    expect(meta).toEqual({ page: 1, limit: 20, total: 1, totalPages: 1, horizon: 13, shareWeeks: 13, levels: [80, 95], scenarioId: null });
    const [pair] = data;
    expect(pair).toMatchObject({
      productMasterId: p1,
      locationId: a.warehouse.id,
      historyWeeks: 30,
      lastHistoryWeek: weekAfter(FIRST_WEEK, 29),
      shareBasis: 'RECENT',
      shareWeeks: 13,
      shareFrom: weekAfter(FIRST_WEEK, 17),
    });
    expect(pair.shares).toEqual([
      { channel: 'STORE', share: 0.7, recentUnits: 13 * 70 },
      { channel: 'WEB', share: 0.3, recentUnits: 13 * 30 },
    ]);
    expect(pair.total).toHaveLength(13);
    expect(pair.total[0].periodStart).toBe(weekAfter(FIRST_WEEK, 30));
    for (const point of pair.total) expect(point).toMatchObject({ forecast: 100, lower: 100, upper: 100, lower95: 100, upper95: 100 });
    expect(pair.channels.map((c: any) => [c.channel, c.share])).toEqual([['STORE', 0.7], ['WEB', 0.3]]);
    const [store, web] = pair.channels;
    expect(store.points.map((p: any) => p.forecast)).toEqual(Array(13).fill(70));
    expect(web.points.map((p: any) => p.forecast)).toEqual(Array(13).fill(30));
    expect(web.points[0]).toEqual({
      periodStart: weekAfter(FIRST_WEEK, 30),
      forecast: 30,
      lower: 30,
      upper: 30,
      lower95: 30,
      upper95: 30,
      intervals: [{ level: 80, lower: 30, upper: 30 }, { level: 95, lower: 30, upper: 30 }],
      liftFactor: 1,
      liftSource: 'NONE',
      adjustmentFactor: 1,
      overridden: false,
      overrideId: null,
    });
    expect(pair.events).toEqual([]);
    expect(pair.channels.map((c: any) => c.adjustments)).toEqual([null, null]);
  });

  it('takes the shares from the last shareWeeks weeks; each channel is the total times its share, bounds included', async () => {
    const recent = await only(p2, a.warehouse.id, '&shareWeeks=10&horizon=4&levels=50');
    // Last 10 weeks: WEB 400, STORE 600.
    expect(recent.shares).toEqual([
      { channel: 'STORE', share: 0.6, recentUnits: 600 },
      { channel: 'WEB', share: 0.4, recentUnits: 400 },
    ]);
    const whole = await only(p2, a.warehouse.id, '&shareWeeks=30&horizon=4&levels=50');
    // All 30 weeks: WEB 200 + 400, STORE 1800.
    expect(whole.shares).toEqual([
      { channel: 'STORE', share: 0.75, recentUnits: 1800 },
      { channel: 'WEB', share: 0.25, recentUnits: 600 },
    ]);
    // A window longer than the history is the whole history.
    expect((await only(p2, a.warehouse.id, '&shareWeeks=104&horizon=1')).shareWeeks).toBe(30);
    expect(recent.total).toHaveLength(4);
    for (const [i, total] of recent.total.entries()) {
      expect(total.lower).toBeLessThanOrEqual(total.forecast);
      expect(total.upper).toBeGreaterThanOrEqual(total.forecast);
      expect(total.lower95).toBeLessThanOrEqual(total.lower);
      expect(total.lower95).toBeGreaterThanOrEqual(0);
      for (const channel of recent.channels) {
        const point = channel.points[i];
        expect(point.periodStart).toBe(total.periodStart);
        for (const key of ['forecast', 'lower', 'upper', 'lower95', 'upper95']) expect(point[key]).toBeCloseTo(total[key] * channel.share, 3);
        expect(point.intervals).toEqual([{ level: 50, lower: point.lower, upper: point.upper }]);
      }
      expect(recent.channels.reduce((sum: number, c: any) => sum + c.points[i].forecast, 0)).toBeCloseTo(total.forecast, 3);
    }
  });

  it('without demand in the window takes the shares from the whole history, and without any demand splits equally', async () => {
    const quiet = await only(p1, dc.id);
    expect(quiet.shareBasis).toBe('HISTORY');
    // Nothing in the last 13 weeks; over the history STORE 100, WEB 300.
    expect(quiet.shares).toEqual([
      { channel: 'STORE', share: 0.25, recentUnits: 0 },
      { channel: 'WEB', share: 0.75, recentUnits: 0 },
    ]);
    const none = await only(p2, dc.id);
    expect(none.shareBasis).toBe('EQUAL');
    expect(none.shares).toEqual([
      { channel: 'A', share: 0.5, recentUnits: 0 },
      { channel: 'B', share: 0.5, recentUnits: 0 },
    ]);
    for (const channel of none.channels) for (const point of channel.points) expect(point.forecast).toBe(0);
  });

  it('pages the product × location pairs, by product then location id', async () => {
    const all = await projectionOf('?horizon=1');
    expect(all.meta.total).toBe(4);
    const pairs = all.data.map((p) => `${p.productMasterId}/${p.locationId}`);
    expect(pairs).toEqual([...pairs].sort());
    const second = await projectionOf('?horizon=1&limit=3&page=2');
    expect(second.meta).toMatchObject({ page: 2, limit: 3, total: 4, totalPages: 2 });
    expect(second.data.map((p) => `${p.productMasterId}/${p.locationId}`)).toEqual(pairs.slice(3));
  });

  it('answers 404 for a product or location that is unknown or of another organization', async () => {
    await expectForeignFiltersNotFound(get, theirs, b);
  });

  it('answers 400 with details for bad query values', async () => {
    const cases: [string, Record<string, string[]>][] = [
      ['?horizon=0', { horizon: ['Must be an integer from 1 to 104'] }],
      ['?horizon=105', { horizon: ['Must be an integer from 1 to 104'] }],
      ['?shareWeeks=0', { shareWeeks: ['Must be an integer from 1 to 104'] }],
      ['?shareWeeks=105', { shareWeeks: ['Must be an integer from 1 to 104'] }],
      ['?shareWeeks=many', { shareWeeks: ['Must be an integer from 1 to 104'] }],
      ['?levels=80,80', { levels: ['Each level at most once'] }],
      ['?limit=101', { limit: ['Must be an integer from 1 to 100'] }],
    ];
    await expectValidationDetails(get, cases);
  });

  it('answers 403 FEATURE_NOT_ENABLED without the plan capability, INSUFFICIENT_SCOPE without forecast.read', async () => {
    await expectForecastReadGates(get, plain, a, '?horizon=1');
  });

  it('keeps tenants apart: each sees only its own pairs', async () => {
    const { data, meta } = await projectionOf('?horizon=1', b.key);
    expect(meta.total).toBe(1);
    expect(data[0]).toMatchObject({ productMasterId: theirs, locationId: b.warehouse.id, shares: [{ channel: 'WEB', share: 1, recentUnits: 13_000 }] });
  });
});

describe('channelProjection (GraphQL)', () => {
  const QUERY = `query ($productMasterId: ID, $locationId: ID, $horizon: Int, $shareWeeks: Int, $levels: [Float!]) {
    channelProjection(productMasterId: $productMasterId, locationId: $locationId, horizon: $horizon, shareWeeks: $shareWeeks, levels: $levels) {
      edges { node { productMasterId locationId shareBasis shareFrom shareWeeks shares { channel share recentUnits }
        total { periodStart forecast lower upper } channels { channel share points { periodStart forecast lower upper lower95 upper95 } } } }
      totalCount horizon shareWeeks levels
    }
  }`;

  it('answers what GET /api/forecast/channel-projection answers', async () => {
    const vars = { productMasterId: p2, locationId: a.warehouse.id, horizon: 3, shareWeeks: 10, levels: [80] };
    const { channelProjection } = await graphqlData(server, a.key, QUERY, vars);
    const rest = await only(p2, a.warehouse.id, '&horizon=3&shareWeeks=10&levels=80');
    expect(channelProjection).toMatchObject({ totalCount: 1, horizon: 3, shareWeeks: 10, levels: [80] });
    const [item] = channelProjection.edges.map((e: any) => e.node);
    expect(item.shares).toEqual(rest.shares);
    expect(item.channels.map((c: any) => c.points.map((p: any) => p.forecast))).toEqual(rest.channels.map((c: any) => c.points.map((p: any) => p.forecast)));
  });

  it('refuses as REST does: bad values, foreign ids, no capability, no permission', async () => {
    expect((await graphqlError(server, a.key, QUERY, { shareWeeks: 0 })).code).toBe('VALIDATION_ERROR');
    expect((await graphqlError(server, a.key, QUERY, { productMasterId: theirs })).code).toBe('NOT_FOUND');
    expect((await graphqlError(server, a.key, QUERY, { locationId: b.warehouse.id })).code).toBe('NOT_FOUND');
    expect((await graphqlError(server, plain.key, QUERY)).code).toBe('FEATURE_NOT_ENABLED');
    expect((await graphqlError(server, await a.keyWith(['inventory:read']), QUERY)).code).toBe('INSUFFICIENT_SCOPE');
    const theirsOnly = (await graphqlData(server, b.key, QUERY, { horizon: 1 })).channelProjection;
    expect(theirsOnly.edges.map((e: any) => e.node.productMasterId)).toEqual([theirs]);
  });
});

describe('channel projection with events, a scenario and overrides (the assumptions of GET /api/forecast)', () => {
  // p1 at the warehouse: STORE 70 + WEB 30 = a flat 100 from week 30 on.
  const W = (i: number) => weekAfter(FIRST_WEEK, i);
  let scenarioId: string;
  let noEvents: string;
  let event: string;

  beforeAll(async () => {
    const db = server.app.prisma;
    const category = (await db.category.create({ data: { organizationId: a.org.id, name: 'Projected' } })).id;
    await db.productMaster.update({ where: { id: p1 }, data: { categoryId: category } });
    // Matches the label WEB by its type.
    const online = (await db.channel.create({ data: { organizationId: a.org.id, name: 'Online', type: 'WEB' } })).id;
    const post = async (path: string, body: unknown, method = 'POST') => {
      const res = await server.call(method, path, { token: a.key, body });
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
      return res.body.id as string;
    };
    scenarioId = await post('/api/forecast/scenarios', { name: 'Split', type: 'CUSTOM', assumptions: { categoryAdjustments: [{ categoryId: category, liftPct: 0.2 }], channelAdjustments: [{ channelId: online, liftPct: 0.5 }] } });
    noEvents = await post('/api/forecast/scenarios', { name: 'No events', type: 'CUSTOM', assumptions: { includedEventIds: [] } });
    event = await post('/api/forecast/events', { name: 'Double', type: 'PROMOTION', startsAt: `${W(31)}T00:00:00Z`, endsAt: `${W(31)}T12:00:00Z`, productMasterId: p1, locationId: a.warehouse.id, value: { liftPct: 1 } });
    await post('/api/forecast/overrides', { productMasterId: p1, locationId: a.warehouse.id, channel: 'STORE', periodStart: W(32), quantity: 10 }, 'PUT');
    await post('/api/forecast/overrides', { productMasterId: p1, locationId: a.warehouse.id, channel: 'WEB', periodStart: W(32), quantity: 5, scenarioId }, 'PUT');
  });

  const forecasts = (points: any[]) => points.map((p) => p.forecast);

  it('without a scenario: events lift the total before the split, base overrides set their channel, the total adds up', async () => {
    const pair = await only(p1, a.warehouse.id, '&horizon=3');
    expect(pair.events.map((e: any) => e.id)).toEqual([event]);
    const [store, web] = pair.channels;
    expect(forecasts(store.points)).toEqual([70, 140, 10]);
    expect(forecasts(web.points)).toEqual([30, 60, 30]);
    expect(forecasts(pair.total)).toEqual([100, 200, 40]);
    expect(pair.total.map((p: any) => [p.liftFactor, p.overridden])).toEqual([[1, false], [2, false], [1, true]]);
    expect(store.points[2]).toMatchObject({ overridden: true, overrideId: expect.any(String), lower: 10, upper95: 10 });
    expect(pair.total[2]).toMatchObject({ lower: 40, upper: 40, overrideId: null });
  });

  it("with scenarioId: category and global on the total, the channel's own lift on its part, the scenario's overrides before the base ones", async () => {
    const pair = await only(p1, a.warehouse.id, `&horizon=3&scenarioId=${scenarioId}`);
    const [store, web] = pair.channels;
    // STORE: 100 × 1.2 × 0.7; WEB: 100 × 1.2 × 0.3 × 1.5; week 31 doubled; week 32 STORE 10 (base), WEB 5 (the scenario's).
    expect(forecasts(store.points)).toEqual([84, 168, 10]);
    expect(forecasts(web.points)).toEqual([54, 108, 5]);
    expect(forecasts(pair.total)).toEqual([138, 276, 15]);
    expect(store.points[0].adjustmentFactor).toBe(1.2);
    expect(web.points[0].adjustmentFactor).toBe(1.8);
    // 1.2 × (0.7 × 1 + 0.3 × 1.5)
    expect(pair.total[0].adjustmentFactor).toBe(1.38);
    expect(store.adjustments).toMatchObject({ scenarioId, categoryLiftPct: 0.2, channelId: null, factor: 1.2 });
    expect(web.adjustments).toMatchObject({ scenarioId, categoryLiftPct: 0.2, channelLiftPct: 0.5, factor: 1.8 });
    const { meta } = await projectionOf(`?productMasterId=${p1}&horizon=1&scenarioId=${scenarioId}`);
    expect(meta.scenarioId).toBe(scenarioId);

    // includedEventIds [] drops the event; the base override still applies.
    const none = await only(p1, a.warehouse.id, `&horizon=3&scenarioId=${noEvents}`);
    expect(forecasts(none.total)).toEqual([100, 100, 40]);
    expect(none.events).toEqual([]);

    const gql = await graphqlData(
      server,
      a.key,
      `query ($p: ID, $l: ID, $s: ID) { channelProjection(productMasterId: $p, locationId: $l, scenarioId: $s, horizon: 3) {
        scenarioId edges { node { total { forecast adjustmentFactor overridden } channels { channel adjustments { factor } points { forecast overrideId } } } } } }`,
      { p: p1, l: a.warehouse.id, s: scenarioId },
    );
    expect(gql.channelProjection.scenarioId).toBe(scenarioId);
    expect(forecasts(gql.channelProjection.edges[0].node.total)).toEqual([138, 276, 15]);
    expect(gql.channelProjection.edges[0].node.channels.map((c: any) => c.adjustments.factor)).toEqual([1.2, 1.8]);
  });

  it("answers 404 for another organization's or an unknown scenario", async () => {
    const theirs = (await server.call('POST', '/api/forecast/scenarios', { token: b.key, body: { name: 'Theirs', type: 'CUSTOM' } })).body.id;
    for (const id of [theirs, 'nope']) {
      const res = await get(`?scenarioId=${id}`);
      expect([res.status, res.body.code]).toEqual([404, 'NOT_FOUND']);
    }
    expect((await graphqlError(server, a.key, `{ channelProjection(scenarioId: "${theirs}") { totalCount } }`)).code).toBe('NOT_FOUND');
  });
});
