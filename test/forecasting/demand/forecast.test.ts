import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocationFor } from '../../../src/services/admin/admin.js';
import { createProduct, graphqlData, graphqlError } from '../../support/api.js';
import { dayAfter, insertWeeklyDemand, weekAfter } from '../../support/demand-history.js';
import { createTenant, type Tenant } from '../../support/fixtures.js';
import { importRows } from '../../support/import.js';
import type { TestServer } from '../../support/server.js';
import { startServerWithTwoTenants } from '../../support/two-tenants.js';
import { expectForecastReadGates, expectForeignFiltersNotFound, expectValidationDetails, FORECASTING } from '../../support/forecasting.js';

// GET /api/forecast and the demandForecast query on a real database, history written as fixtures (long
// series) and through the demand-history import (a short one).

const FIRST_WEEK = '2024-01-01'; // a Monday

let server: TestServer;
let a: Tenant;
let b: Tenant;
let plain: Tenant;
let dc: { id: string };
let p1: string;
let p2: string;
let theirs: string;

/** Week `i` of the fixtures, counted from FIRST_WEEK. */
const week = (i: number) => weekAfter(FIRST_WEEK, i);

/** 60 weeks near 100, then 10 weeks near 300: a level change only the whole history shows. */
const shifting = Array.from({ length: 70 }, (_, i) => (i < 60 ? 100 : 300) + [0, 3, -2, 1][i % 4]!);

const get = (query: string, token = a.key) => server.call('GET', `/api/forecast${query}`, { token });
const forecastOf = async (query: string, token = a.key) => {
  const res = await get(query, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { data: any[]; meta: any };
};
const createEvent = async (body: Record<string, unknown>, token = a.key) => {
  const res = await server.call('POST', '/api/forecast/events', { token, body: { type: 'PROMOTION', ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
};

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants({ IMPORT_WORKERS: '1', IMPORT_POLL_MS: '50' }, { capabilities: [FORECASTING] }));
  plain = await createTenant(server.app.prisma, { capabilities: [] });
  dc = await createLocationFor(server.operator, { organizationId: a.org.id, code: 'DC2', name: 'Second DC' });
  p1 = await createProduct(server, a.key, 'FC-1');
  p2 = await createProduct(server, a.key, 'FC-2');
  theirs = await createProduct(server, b.key, 'FC-B');
  const db = server.app.prisma;
  await insertWeeklyDemand(db, { organizationId: a.org.id, productMasterId: p1, locationId: a.warehouse.id, firstWeek: FIRST_WEEK, values: shifting });
  // Constant demand: a forecast of exactly 50 every week, so lifts can be checked to the unit.
  await insertWeeklyDemand(db, { organizationId: a.org.id, productMasterId: p1, locationId: dc.id, firstWeek: FIRST_WEEK, values: Array(30).fill(50) });
  await insertWeeklyDemand(db, { organizationId: b.org.id, productMasterId: theirs, locationId: b.warehouse.id, firstWeek: FIRST_WEEK, values: Array(30).fill(1000) });
  // Six weeks on the WEB channel through the import (dates inside each week; they are bucketed to its Monday).
  await importRows(
    server,
    a.key,
    'demand-history',
    [4, 6, 5, 7, 6, 5].map((actualDemand, i) => ({ sku: 'FC-2', locationCode: 'WH1', date: weekAfter('2024-03-06', i), channel: 'WEB', actualDemand })),
  );
}, 60_000);
afterAll(() => server?.close());

function expectWellFormed(series: any, horizon: number, levels: number[]) {
  expect(series.points).toHaveLength(horizon);
  series.points.forEach((point: any, h: number) => {
    expect(point.periodStart).toBe(weekAfter(series.points[0].periodStart, h));
    expect(point.intervals.map((i: any) => i.level)).toEqual(levels);
    expect([point.lower, point.upper]).toEqual([point.intervals[0].lower, point.intervals[0].upper]);
    for (const i of point.intervals) {
      expect(i.lower).toBeGreaterThanOrEqual(0);
      expect(i.lower).toBeLessThanOrEqual(point.forecast);
      expect(i.upper).toBeGreaterThanOrEqual(point.forecast);
    }
    expect(point.lower95).toBeGreaterThanOrEqual(0);
    expect(point.lower95).toBeLessThanOrEqual(point.forecast);
    expect(point.upper95).toBeGreaterThanOrEqual(point.forecast);
  });
}

describe('GET /api/forecast', () => {
  it('forecasts every series of the organization: 13 weeks after its history, 80 % and 95 % intervals, method and backtest error', async () => {
    const { data, meta } = await forecastOf('');
    expect(meta).toEqual({ page: 1, limit: 20, total: 3, totalPages: 1, horizon: 13, levels: [80, 95], from: null, scenarioId: null });
    expect(data.map((s) => [s.productMasterId, s.locationId, s.channel]).sort()).toEqual(
      [
        [p1, a.warehouse.id, 'ALL'],
        [p1, dc.id, 'ALL'],
        [p2, a.warehouse.id, 'WEB'],
      ].sort(),
    );
    for (const series of data) {
      expect(Object.keys(series).sort()).toEqual(
        ['adjustments', 'backtestError', 'channel', 'demandClass', 'errorScale', 'events', 'historyWeeks', 'intervalSource', 'lastHistoryWeek', 'locationId', 'method', 'points', 'productMasterId'].sort(),
      );
      expectWellFormed(series, 13, [80, 95]);
      expect(series.points[0].periodStart).toBe(weekAfter(series.lastHistoryWeek, 1));
      for (const point of series.points) {
        // 95 % holds the 80 % interval.
        expect(point.lower95).toBeLessThanOrEqual(point.lower);
        expect(point.upper95).toBeGreaterThanOrEqual(point.upper);
      }
    }
    const shifted = data.find((s) => s.locationId === a.warehouse.id && s.channel === 'ALL');
    expect(shifted).toMatchObject({ historyWeeks: 70, lastHistoryWeek: week(69), demandClass: 'SMOOTH', errorScale: 'SEASONAL_NAIVE_MAE' });
    expect(shifted.backtestError).toBeGreaterThanOrEqual(0);
    // The whole history ends near 300.
    expect(shifted.points[0].forecast).toBeGreaterThan(200);
    // The imported series: six weeks bucketed to their Mondays, too short to backtest.
    const imported = data.find((s) => s.channel === 'WEB');
    expect(imported).toMatchObject({ historyWeeks: 6, lastHistoryWeek: weekAfter('2024-03-04', 5), method: 'SIMPLE_LEVEL', backtestError: null, errorScale: 'NONE', intervalSource: 'MODEL' });
    expect(imported.points[0].forecast).toBeCloseTo((7 + 6 + 5 + 5) / 4, 6);
  });

  it('takes horizon and levels: lower/upper are the first level, intervals every level asked in order, lower95/upper95 always', async () => {
    const { data, meta } = await forecastOf(`?productMasterId=${p1}&locationId=${a.warehouse.id}&horizon=5&levels=50,99,80`);
    expect(meta).toMatchObject({ horizon: 5, levels: [50, 99, 80], total: 1 });
    const [series] = data;
    expectWellFormed(series, 5, [50, 99, 80]);
    for (const point of series.points) {
      const [l50, l99, l80] = point.intervals;
      expect(l80.lower).toBeLessThanOrEqual(l50.lower);
      expect(l80.upper).toBeGreaterThanOrEqual(l50.upper);
      expect(l99.lower).toBeLessThanOrEqual(point.lower95);
      expect(l99.upper).toBeGreaterThanOrEqual(point.upper95);
      expect(point.lower95).toBeLessThanOrEqual(l80.lower);
      expect(point.upper95).toBeGreaterThanOrEqual(l80.upper);
    }
    const longest = await forecastOf(`?productMasterId=${p1}&locationId=${dc.id}&horizon=104&levels=90`);
    expectWellFormed(longest.data[0], 104, [90]);
  });

  it('with `from` inside the history, sees only the weeks before it: a level change after it is not seen', async () => {
    const { data, meta } = await forecastOf(`?productMasterId=${p1}&locationId=${a.warehouse.id}&from=${week(60)}`);
    expect(meta.from).toBe(week(60));
    const [series] = data;
    expect(series).toMatchObject({ historyWeeks: 60, lastHistoryWeek: week(59) });
    expect(series.points[0].periodStart).toBe(week(60));
    for (const point of series.points) expect(point.forecast).toBeLessThan(150);

    // A day inside a week means that week; a `from` after the history leaves the weeks between unanswered.
    const midweek = await forecastOf(`?productMasterId=${p1}&locationId=${a.warehouse.id}&from=${dayAfter(week(60), 2)}`);
    expect(midweek.data[0].points[0].periodStart).toBe(week(60));
    const later = await forecastOf(`?productMasterId=${p1}&locationId=${dc.id}&from=${week(33)}&horizon=4`);
    expect(later.data[0].lastHistoryWeek).toBe(week(29));
    expect(later.data[0].points.map((p: any) => p.periodStart)).toEqual([week(33), week(34), week(35), week(36)]);

    // Series with no history before `from` are not listed.
    const early = await forecastOf(`?from=${week(3)}`);
    expect(early.meta.total).toBe(2);
    expect(early.data.every((s) => s.channel === 'ALL' && s.historyWeeks === 3)).toBe(true);
  });

  it('pages the series', async () => {
    const all = (await forecastOf('?horizon=1')).data.map((s) => s.locationId + s.channel + s.productMasterId);
    const first = await forecastOf('?horizon=1&limit=2');
    const second = await forecastOf('?horizon=1&limit=2&page=2');
    expect(first.meta).toMatchObject({ page: 1, limit: 2, total: 3, totalPages: 2 });
    expect(second.meta).toMatchObject({ page: 2, limit: 2, total: 3, totalPages: 2 });
    expect([...first.data, ...second.data].map((s) => s.locationId + s.channel + s.productMasterId)).toEqual(all);
    expect((await forecastOf('?horizon=1&page=3&limit=2')).data).toEqual([]);
  });

  it('reads the history of a page in one query after the series keys, however many series the page holds', async () => {
    const count = async (limit: number) => {
      server.queries.length = 0;
      const { data } = await forecastOf(`?horizon=1&limit=${limit}`);
      // (The import worker's polling runs beside: only these tables are counted.)
      const reading = (table: string) => server.queries.filter((sql) => sql.includes(`"${table}"`)).length;
      return { series: data.length, demand: reading('demand_history'), events: reading('external_events') };
    };
    expect(await count(1)).toEqual({ series: 1, demand: 2, events: 1 });
    expect(await count(3)).toEqual({ series: 3, demand: 2, events: 1 });
  });

  it('answers 404 for a product or location that is unknown or of another organization', async () => {
    await expectForeignFiltersNotFound(get, theirs, b);
    // A product of the organization without history: no series.
    const bare = await createProduct(server, a.key, 'FC-NONE');
    expect((await forecastOf(`?productMasterId=${bare}`)).data).toEqual([]);
  });

  it('answers 400 with details in our words for bad query values', async () => {
    const cases: [string, Record<string, string[]>][] = [
      ['?horizon=0', { horizon: ['Must be an integer from 1 to 104'] }],
      ['?horizon=105', { horizon: ['Must be an integer from 1 to 104'] }],
      ['?horizon=ten', { horizon: ['Must be an integer from 1 to 104'] }],
      ['?levels=0,100', { levels: ['Must be a comma-separated list of percentages above 0 and below 100, for example 80,95'] }],
      ['?levels=80,abc', { levels: ['Must be a comma-separated list of percentages above 0 and below 100, for example 80,95'] }],
      ['?levels=80,80', { levels: ['Each level at most once'] }],
      ['?levels=10,20,30,40,50', { levels: ['At most 4 levels'] }],
      ['?from=2025-02-30', { from: ['Must be an ISO 8601 date (YYYY-MM-DD)'] }],
      ['?from=yesterday', { from: ['Must be an ISO 8601 date (YYYY-MM-DD)'] }],
      ['?page=0', { page: ['Must be an integer of at least 1'] }],
      ['?limit=101', { limit: ['Must be an integer from 1 to 100'] }],
      [`?from=${weekAfter(FIRST_WEEK, 200)}`, { from: ['Must be at most 104 weeks after the last history week of each series'] }],
    ];
    await expectValidationDetails(get, cases);
  });

  it('answers 403 FEATURE_NOT_ENABLED without the plan capability, INSUFFICIENT_SCOPE without forecast.read', async () => {
    await expectForecastReadGates(get, plain, a, '?horizon=1');
  });

  it("keeps tenants apart: each sees only its own series, and another organization's events never lift them", async () => {
    await createEvent({ name: 'Their sale', startsAt: `${week(30)}T00:00:00Z`, endsAt: `${week(31)}T00:00:00Z`, value: { liftPct: 1 } }, b.key);
    const { data, meta } = await forecastOf('', b.key);
    expect(meta.total).toBe(1);
    expect(data[0]).toMatchObject({ productMasterId: theirs, locationId: b.warehouse.id });
    const ours = await forecastOf(`?productMasterId=${p1}&locationId=${dc.id}&horizon=3`);
    expect(ours.data[0].points.map((p: any) => p.forecast)).toEqual([50, 50, 50]);
    expect(ours.data[0].events).toEqual([]);
  });
});

describe('events on top of the statistical forecast', () => {
  // The constant series at the DC forecasts 50 from week 30 on.
  it('lift the weeks they overlap when their scope reaches the series, multiplying or adding as their stacking mode says', async () => {
    const at = (i: number, time = '00:00:00') => `${week(i)}T${time}Z`;
    const global = await createEvent({ name: 'Everything +10 %', startsAt: at(31, '08:00:00'), endsAt: at(31, '20:00:00'), value: { liftPct: 0.1 } });
    const linked = await createEvent({ name: 'P1 at DC +20 %', startsAt: at(31), endsAt: at(32), productMasterId: p1, locationId: dc.id, value: { liftPct: 0.2, stackingMode: 'MULTIPLICATIVE' } });
    const add1 = await createEvent({ name: 'P1 +10 % additive', startsAt: at(33, '12:00:00'), endsAt: at(33, '13:00:00'), productMasterId: p1, value: { liftPct: 0.1, stackingMode: 'ADDITIVE' } });
    const add2 = await createEvent({ name: 'DC +20 % additive', startsAt: at(33, '12:00:00'), endsAt: at(33, '13:00:00'), locationId: dc.id, value: { liftPct: 0.2, stackingMode: 'ADDITIVE' } });
    await createEvent({ name: 'Other location', startsAt: at(32, '01:00:00'), endsAt: at(32, '02:00:00'), locationId: a.warehouse.id, value: { liftPct: 0.5 } });
    await createEvent({ name: 'Other product', startsAt: at(32, '01:00:00'), endsAt: at(32, '02:00:00'), productMasterId: p2, value: { liftPct: 0.5 } });
    // No stated lift and no past holiday to learn one from (learned-lifts.test.ts has the learning): no lift.
    await createEvent({ name: 'No value', type: 'HOLIDAY', startsAt: at(34, '01:00:00'), endsAt: at(34, '02:00:00') });
    const spanning = await createEvent({ name: 'Thursday to Tuesday −50 %', startsAt: `${dayAfter(week(35), 3)}T00:00:00Z`, endsAt: `${dayAfter(week(36), 1)}T12:00:00Z`, value: { liftPct: -0.5 } });

    const { data } = await forecastOf(`?productMasterId=${p1}&locationId=${dc.id}&horizon=8`);
    const [series] = data;
    expect(series.points.map((p: any) => p.periodStart)).toEqual([30, 31, 32, 33, 34, 35, 36, 37].map(week));
    // 31: (1 + 0.1)(1 + 0.2); 32: the neighbouring events are not its own; 33: 1 + 0.1 + 0.2; 35 and 36: both overlapped.
    expect(series.points.map((p: any) => p.forecast)).toEqual([50, 66, 50, 65, 50, 25, 25, 50]);
    expect(series.points.map((p: any) => p.liftFactor)).toEqual([1, 1.32, 1, 1.3, 1, 0.5, 0.5, 1]);
    for (const point of series.points) {
      expect(point.lower).toBeLessThanOrEqual(point.forecast);
      expect(point.upper).toBeGreaterThanOrEqual(point.forecast);
    }
    expect(series.events.map((e: any) => e.id).sort()).toEqual([global, linked, add1, add2, spanning].sort());
    expect(series.events.find((e: any) => e.id === add1)).toMatchObject({ liftPct: 0.1, stackingMode: 'ADDITIVE' });

    // The same week at the warehouse: the global event and the location's own, not the DC's.
    const warehouse = await forecastOf(`?productMasterId=${p1}&locationId=${a.warehouse.id}&from=${week(30)}&horizon=3`);
    expect(warehouse.data[0].points.map((p: any) => p.liftFactor)).toEqual([1, 1.1, 1.5]);
  });
});

describe('GraphQL demandForecast', () => {
  const QUERY = `query ($productMasterId: ID, $locationId: ID, $horizon: Int, $levels: [Float!], $from: Date) {
    demandForecast(productMasterId: $productMasterId, locationId: $locationId, horizon: $horizon, levels: $levels, from: $from) {
      edges { node { productMasterId locationId channel method backtestError errorScale demandClass intervalSource historyWeeks lastHistoryWeek
        events { id: eventId name type startsAt endsAt liftPct stackingMode liftSource learnedPool learnedOccurrences }
        adjustments { scenarioId categoryId categoryLiftPct channelId channelLiftPct globalLiftPct factor }
        points { periodStart forecast lower upper lower95 upper95 intervals { level lower upper } liftFactor liftSource eventIds adjustmentFactor bookedQuantity overridden modelForecast overrideId } } }
      totalCount horizon levels from scenarioId } }`;

  it('answers what GET /api/forecast answers', async () => {
    const rest = await forecastOf(`?productMasterId=${p1}&horizon=4&levels=70&from=${week(40)}`);
    const { demandForecast } = await graphqlData(server, a.key, QUERY, { productMasterId: p1, horizon: 4, levels: [70], from: week(40) });
    const { edges, totalCount, ...meta } = demandForecast;
    const { page: _page, limit: _limit, total, totalPages: _pages, ...restMeta } = rest.meta;
    expect(edges.map((e: any) => e.node)).toEqual(rest.data);
    expect(totalCount).toBe(total);
    expect(meta).toEqual(restMeta);
  });

  it('refuses as REST does: bad values, foreign ids, no capability', async () => {
    expect(await graphqlError(server, a.key, QUERY, { horizon: 105, levels: [0] })).toEqual({
      code: 'VALIDATION_ERROR',
      details: { horizon: ['Must be an integer from 1 to 104'], levels: ['Must be a comma-separated list of percentages above 0 and below 100, for example 80,95'] },
    });
    expect((await graphqlError(server, a.key, QUERY, { productMasterId: theirs })).code).toBe('NOT_FOUND');
    expect((await graphqlError(server, a.key, QUERY, { locationId: b.warehouse.id })).code).toBe('NOT_FOUND');
    expect(await graphqlError(server, plain.key, QUERY)).toEqual({ code: 'FEATURE_NOT_ENABLED', feature: FORECASTING, planCapability: FORECASTING, entitlement: FORECASTING });
    expect((await graphqlError(server, await a.keyWith(['inventory:read']), QUERY)).code).toBe('INSUFFICIENT_SCOPE');
    const theirsOnly = (await graphqlData(server, b.key, QUERY, { horizon: 1 })).demandForecast;
    expect(theirsOnly.edges.map((e: any) => e.node.productMasterId)).toEqual([theirs]);
  });
});
