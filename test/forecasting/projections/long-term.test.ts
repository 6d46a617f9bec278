import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocationFor } from '../../../src/services/admin/admin.js';
import { createProduct, graphqlData, graphqlError } from '../../support/api.js';
import { insertWeeklyDemand } from '../../support/demand-history.js';
import { createTenant, type Tenant } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';
import { startServerWithTwoTenants } from '../../support/two-tenants.js';
import { expectForecastReadGates, expectForeignFiltersNotFound, expectValidationDetails, FORECASTING } from '../../support/forecasting.js';

// GET /api/forecast/long-term and the longTermForecast query on a real database.

const FIRST_WEEK = '2024-01-01'; // a Monday

let server: TestServer;
let a: Tenant;
let b: Tenant;
let plain: Tenant;
let dc: { id: string };
let p1: string;
let theirs: string;

const get = (query: string, token = a.key) => server.call('GET', `/api/forecast/long-term${query}`, { token });
const forecastOf = async (query: string, token = a.key) => {
  const res = await get(query, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { data: any[]; meta: any };
};
const only = async (query: string) => {
  const { data } = await forecastOf(query);
  expect(data).toHaveLength(1);
  return data[0];
};

function expectOrdered(series: any) {
  for (const p of series.points) {
    expect(p.lower95).toBeGreaterThanOrEqual(0);
    expect(p.lower95).toBeLessThanOrEqual(p.lower);
    expect(p.lower).toBeLessThanOrEqual(p.forecast);
    expect(p.forecast).toBeLessThanOrEqual(p.upper);
    expect(p.upper).toBeLessThanOrEqual(p.upper95);
  }
}

// Erratic demand with many zero weeks over two and a half years (enough months for a backtest of 8 origins): wide
// intervals that would go below zero unclamped.
const erratic = Array.from({ length: 130 }, (_, i) => [0, 50, 5, 120, 0, 0, 30, 2][i % 8]! * (i % 3 === 0 ? 0 : 1));

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants({}, { capabilities: [FORECASTING] }));
  plain = await createTenant(server.app.prisma, { capabilities: [] });
  dc = await createLocationFor(server.operator, { organizationId: a.org.id, code: 'DC2', name: 'Second DC' });
  p1 = await createProduct(server, a.key, 'LT-1');
  theirs = await createProduct(server, b.key, 'LT-B');
  const db = server.app.prisma;
  // 10 units a day for 104 weeks: 2024-01-01 to 2025-12-28.
  await insertWeeklyDemand(db, { organizationId: a.org.id, productMasterId: p1, locationId: a.warehouse.id, channel: 'ALL', firstWeek: FIRST_WEEK, values: Array(104).fill(70) });
  // A straight rise over 60 weeks.
  await insertWeeklyDemand(db, { organizationId: a.org.id, productMasterId: p1, locationId: a.warehouse.id, channel: 'WEB', firstWeek: FIRST_WEEK, values: Array.from({ length: 60 }, (_, i) => 10 + 2 * i) });
  await insertWeeklyDemand(db, { organizationId: a.org.id, productMasterId: p1, locationId: dc.id, firstWeek: FIRST_WEEK, values: erratic });
  await insertWeeklyDemand(db, { organizationId: b.org.id, productMasterId: theirs, locationId: b.warehouse.id, firstWeek: FIRST_WEEK, values: Array(60).fill(700) });
}, 60_000);
afterAll(() => server?.close());

describe('GET /api/forecast/long-term', () => {
  it('buckets the weeks into calendar months and forecasts 12 months after the last one, by default', async () => {
    const { data, meta } = await forecastOf('');
    expect(meta).toEqual({ page: 1, limit: 20, total: 3, totalPages: 1, months: 12, levels: [80, 95], scenarioId: null });
    const daily = data.find((s) => s.locationId === a.warehouse.id && s.channel === 'ALL');
    expect(daily).toMatchObject({
      method: 'DAMPED_TREND_SEASONAL',
      historyMonths: 24,
      firstHistoryMonth: '2024-01',
      lastHistoryMonth: '2025-12',
      // The last week ends on 2025-12-28.
      lastMonthPartial: true,
    });
    expect(daily.points.map((p: any) => p.month)).toEqual(Array.from({ length: 12 }, (_, i) => `2026-${String(i + 1).padStart(2, '0')}`));
    expect(daily.points[0]).toMatchObject({ periodStart: '2026-01-01', periodEnd: '2026-01-31' });
    expect(daily.points[1]).toMatchObject({ periodStart: '2026-02-01', periodEnd: '2026-02-28' });
    // 10 a day: about 310 in a 31-day month, fewer in February (the seasonal indices carry the month lengths).
    for (const p of daily.points) {
      expect(p.forecast).toBeGreaterThan(270);
      expect(p.forecast).toBeLessThan(320);
    }
    expect(daily.points[0].forecast).toBeGreaterThan(daily.points[1].forecast);
    for (const series of data) {
      expect(series.points).toHaveLength(12);
      expectOrdered(series);
      for (const p of series.points) expect(p.intervals.map((i: any) => i.level)).toEqual([80, 95]);
    }
  });

  it('damps the trend: a steady rise keeps rising by less each month, below the straight line', async () => {
    const rising = await only(`?channel=WEB&months=24`);
    expect(rising).toMatchObject({ method: 'DAMPED_TREND', channel: 'WEB', firstHistoryMonth: '2024-01' });
    expect(rising.phi).toBeLessThan(1);
    expect(rising.points).toHaveLength(24);
    const values = rising.points.map((p: any) => p.forecast);
    const steps = values.slice(1).map((v: number, h: number) => v - values[h]);
    for (const step of steps) expect(step).toBeGreaterThan(0);
    steps.slice(1).forEach((step: number, h: number) => expect(step).toBeLessThan(steps[h]));
    // Undamped, 24 more months at the first step's pace.
    expect(values.at(-1)).toBeLessThan(values[0] + 23 * steps[0]);
    expectOrdered(rising);
  });

  it('keeps the intervals of erratic demand ordered and never below zero', async () => {
    const series = await only(`?locationId=${dc.id}&levels=50,90`);
    expect(series.points[0].intervals.map((i: any) => i.level)).toEqual([50, 90]);
    expect(series.intervalSource).toMatch(/^CONFORMAL/);
    expectOrdered(series);
    expect(series.points.some((p: any) => p.upper95 > p.forecast)).toBe(true);
  });

  it('pages the series', async () => {
    const second = await forecastOf('?limit=2&page=2');
    expect(second.meta).toMatchObject({ page: 2, limit: 2, total: 3, totalPages: 2 });
    expect(second.data).toHaveLength(1);
  });

  it('answers 404 for a product or location that is unknown or of another organization', async () => {
    await expectForeignFiltersNotFound(get, theirs, b);
  });

  it('answers 400 with details for bad query values', async () => {
    const cases: [string, Record<string, string[]>][] = [
      ['?months=11', { months: ['Must be an integer from 12 to 24'] }],
      ['?months=25', { months: ['Must be an integer from 12 to 24'] }],
      ['?months=year', { months: ['Must be an integer from 12 to 24'] }],
      ['?levels=0', { levels: ['Must be a comma-separated list of percentages above 0 and below 100, for example 80,95'] }],
      ['?page=0', { page: ['Must be an integer of at least 1'] }],
    ];
    await expectValidationDetails(get, cases);
  });

  it('answers 403 FEATURE_NOT_ENABLED without the plan capability, INSUFFICIENT_SCOPE without forecast.read', async () => {
    await expectForecastReadGates(get, plain, a, '?limit=1');
  });

  it('keeps tenants apart', async () => {
    const { data, meta } = await forecastOf('', b.key);
    expect(meta.total).toBe(1);
    expect(data[0]).toMatchObject({ productMasterId: theirs, locationId: b.warehouse.id });
  });
});

describe('longTermForecast (GraphQL)', () => {
  const QUERY = `query ($productMasterId: ID, $locationId: ID, $channel: String, $months: Int) {
    longTermForecast(productMasterId: $productMasterId, locationId: $locationId, channel: $channel, months: $months) {
      edges { node { productMasterId channel method phi lastHistoryMonth points { month forecast lower upper lower95 upper95 } } } totalCount months
    }
  }`;

  it('answers what GET /api/forecast/long-term answers', async () => {
    const { longTermForecast } = await graphqlData(server, a.key, QUERY, { channel: 'WEB', months: 18 });
    const rest = await only('?channel=WEB&months=18');
    expect(longTermForecast).toMatchObject({ totalCount: 1, months: 18 });
    expect(longTermForecast.edges[0].node.points).toEqual(rest.points.map(({ month, forecast, lower, upper, lower95, upper95 }: any) => ({ month, forecast, lower, upper, lower95, upper95 })));
  });

  it('refuses as REST does: bad values, foreign ids, no capability, no permission', async () => {
    expect((await graphqlError(server, a.key, QUERY, { months: 30 })).code).toBe('VALIDATION_ERROR');
    expect((await graphqlError(server, a.key, QUERY, { productMasterId: theirs })).code).toBe('NOT_FOUND');
    expect((await graphqlError(server, plain.key, QUERY)).code).toBe('FEATURE_NOT_ENABLED');
    expect((await graphqlError(server, await a.keyWith(['inventory:read']), QUERY)).code).toBe('INSUFFICIENT_SCOPE');
    const theirsOnly = (await graphqlData(server, b.key, QUERY)).longTermForecast;
    expect(theirsOnly.edges.map((e: any) => e.node.productMasterId)).toEqual([theirs]);
  });
});

describe('long-term forecast with events and a scenario (the assumptions of GET /api/forecast)', () => {
  // p1 at the warehouse, channel ALL: 10 a day, forecast from 2026-01.
  const query = (extra = '') => `?productMasterId=${p1}&locationId=${a.warehouse.id}&channel=ALL${extra}`;
  let event: string;
  let noEvents: string;
  let up: string;

  beforeAll(async () => {
    const post = async (path: string, body: unknown) => {
      const res = await server.call('POST', path, { token: a.key, body });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.id as string;
    };
    // 10 days of January 2026 (the 11th to the 20th), +50 %.
    event = await post('/api/forecast/events', { name: 'Sale', type: 'PROMOTION', startsAt: '2026-01-11T00:00:00Z', endsAt: '2026-01-21T00:00:00Z', productMasterId: p1, value: { liftPct: 0.5 } });
    noEvents = await post('/api/forecast/scenarios', { name: 'No events', type: 'CUSTOM', assumptions: { includedEventIds: [] } });
    up = await post('/api/forecast/scenarios', { name: 'Up 10 %', type: 'CUSTOM', assumptions: { includedEventIds: [], globalLiftPct: 0.1 } });
  });

  it('lifts each month by the share of its days an event covers; a scenario chooses the events and multiplies', async () => {
    const base = await only(query(`&scenarioId=${noEvents}`));
    expect(base.events).toEqual([]);
    expect(base.points.map((p: any) => p.liftFactor)).toEqual(Array(12).fill(1));
    const withEvent = await only(query());
    expect(withEvent.events.map((e: any) => e.id)).toEqual([event]);
    expect(withEvent.adjustments).toBeNull();
    // January: (21 × 1 + 10 × 1.5) / 31 = 36/31.
    const [january, february] = withEvent.points;
    expect(january).toMatchObject({ liftSource: 'STATED', adjustmentFactor: 1 });
    expect(january.liftFactor).toBeCloseTo(36 / 31, 4);
    expect(january.forecast).toBeCloseTo((base.points[0].forecast * 36) / 31, 2);
    expect(january.upper95).toBeCloseTo((base.points[0].upper95 * 36) / 31, 2);
    expect(february).toMatchObject({ liftFactor: 1, liftSource: 'NONE', forecast: base.points[1].forecast });

    const raised = await only(query(`&scenarioId=${up}`));
    expect(raised.adjustments).toMatchObject({ scenarioId: up, globalLiftPct: 0.1, factor: 1.1 });
    raised.points.forEach((p: any, i: number) => {
      expect(p).toMatchObject({ liftFactor: 1, adjustmentFactor: 1.1 });
      expect(p.forecast).toBeCloseTo(base.points[i].forecast * 1.1, 2);
    });
    expect((await forecastOf(query(`&scenarioId=${up}`))).meta.scenarioId).toBe(up);

    const gql = await graphqlData(
      server,
      a.key,
      `query ($p: ID, $s: ID) { longTermForecast(productMasterId: $p, channel: "ALL", scenarioId: $s) { scenarioId edges { node { locationId events { id: eventId } points { forecast liftFactor adjustmentFactor } } } } }`,
      { p: p1, s: up },
    );
    const item = gql.longTermForecast.edges.map((e: any) => e.node).find((i: any) => i.locationId === a.warehouse.id);
    expect(item.points.map((p: any) => p.forecast)).toEqual(raised.points.map((p: any) => p.forecast));
  });

  it("answers 404 for another organization's or an unknown scenario", async () => {
    const theirs = (await server.call('POST', '/api/forecast/scenarios', { token: b.key, body: { name: 'Theirs', type: 'CUSTOM' } })).body.id;
    for (const id of [theirs, 'nope']) {
      const res = await get(`?scenarioId=${id}`);
      expect([res.status, res.body.code]).toEqual([404, 'NOT_FOUND']);
    }
    expect((await graphqlError(server, a.key, `{ longTermForecast(scenarioId: "${theirs}") { totalCount } }`)).code).toBe('NOT_FOUND');
  });
});
