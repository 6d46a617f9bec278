import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocationFor } from '../../../src/services/admin/admin.js';
import { createProduct, graphqlData, graphqlError } from '../../support/api.js';
import { dayAfter, insertWeeklyDemand, weekAfter } from '../../support/demand-history.js';
import { createTenant, type Tenant } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';
import { startServerWithTwoTenants } from '../../support/two-tenants.js';
import { expectForecastReadGates, expectValidationDetails, FORECASTING } from '../../support/forecasting.js';

// Event lifts learned from history: GET /api/forecast/events/learned-lifts, the learnedEventLifts query, and
// GET /api/forecast using them for events without a stated lift.

const FIRST_WEEK = '2024-01-01'; // a Monday
const HISTORY_WEEKS = 80;
/** The weeks of the past promotions, each +40 % over its week's usual demand. */
const PROMOTION_WEEKS = [8, 20, 32, 44, 56, 68];

let server: TestServer;
let a: Tenant;
let b: Tenant;
let plain: Tenant;
let dc: { id: string };
let p1: string;
let theirs: string;
let upcomingPromotion: string;
let upcomingHoliday: string;
let statedPromotion: string;

const week = (i: number) => weekAfter(FIRST_WEEK, i);
/** An event covering week i only (Monday to Sunday noon). */
const inWeek = (i: number) => ({ startsAt: `${week(i)}T00:00:00.000Z`, endsAt: `${dayAfter(week(i), 6)}T12:00:00.000Z` });
/** Usual demand near 100 (±3, no trend), 40 % more in the promotion weeks. */
const usual = (i: number) => 100 + [0, 3, -2, 1, -3, 2][i % 6]!;
const history = Array.from({ length: HISTORY_WEEKS }, (_, i) => usual(i) * (PROMOTION_WEEKS.includes(i) ? 1.4 : 1));

const get = (query: string, token = a.key) => server.call('GET', `/api/forecast/events/learned-lifts${query}`, { token });
const learned = async (query = '', token = a.key) => {
  const res = await get(query, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { data: any[]; occurrences: any[]; meta: any };
};
const createEvent = async (body: Record<string, unknown>, token = a.key) => {
  const res = await server.call('POST', '/api/forecast/events', { token, body: { name: 'Promo', type: 'PROMOTION', ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
};
const forecastOf = async (query: string) => {
  const res = await server.call('GET', `/api/forecast${query}`, { token: a.key });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as any[];
};

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants({}, { capabilities: [FORECASTING] }));
  plain = await createTenant(server.app.prisma, { capabilities: [] });
  dc = await createLocationFor(server.operator, { organizationId: a.org.id, code: 'DC2', name: 'Second DC' });
  p1 = await createProduct(server, a.key, 'LL-1');
  theirs = await createProduct(server, b.key, 'LL-B');
  const db = server.app.prisma;
  await insertWeeklyDemand(db, { organizationId: a.org.id, productMasterId: p1, locationId: a.warehouse.id, firstWeek: FIRST_WEEK, values: history });
  // The other tenant: the same weeks flat, and its own promotions there (no lift).
  await insertWeeklyDemand(db, { organizationId: b.org.id, productMasterId: theirs, locationId: b.warehouse.id, firstWeek: FIRST_WEEK, values: Array(HISTORY_WEEKS).fill(500) });
  // The past promotions of p1 at the warehouse: some state a (wrong) lift, some none; learning looks at the units only.
  for (const [n, i] of PROMOTION_WEEKS.entries()) {
    await createEvent({ name: `Promo ${i}`, ...inWeek(i), productMasterId: p1, locationId: a.warehouse.id, ...(n % 2 ? { value: { liftPct: 0.1 } } : {}) });
    await createEvent({ name: `Their promo ${i}`, ...inWeek(i), productMasterId: theirs, locationId: b.warehouse.id }, b.key);
  }
  // Upcoming, after the history: a promotion and a holiday without a lift, a promotion with one.
  upcomingPromotion = await createEvent({ name: 'Next promo', ...inWeek(HISTORY_WEEKS + 2), productMasterId: p1, locationId: a.warehouse.id });
  upcomingHoliday = await createEvent({ name: 'Holiday', type: 'HOLIDAY', ...inWeek(HISTORY_WEEKS + 5) });
  statedPromotion = await createEvent({ name: 'Stated promo', ...inWeek(HISTORY_WEEKS + 7), value: { liftPct: 0.2 } });
}, 60_000);
afterAll(() => server?.close());

describe('GET /api/forecast/events/learned-lifts', () => {
  it('recovers a planted +40 % promotion lift from six occurrences, per type and per link', async () => {
    const { data, occurrences, meta } = await learned();
    // Learned over the last 260 weeks of the history (here: all of it), from at most 500 events.
    expect(meta).toEqual({ before: null, learnedFrom: week(HISTORY_WEEKS - 260), maxEvents: 500, minOccurrences: 3, method: 'LOCAL_BASELINE_MEDIAN' });
    expect(data.map((l) => [l.type, l.pool])).toEqual([
      ['PROMOTION', 'TYPE'],
      ['PROMOTION', 'LINK'],
    ]);
    const [byType, byLink] = data;
    expect(byType).toMatchObject({ productMasterId: null, locationId: null, occurrences: 6, weeks: 6, usable: true, method: 'LOCAL_BASELINE_MEDIAN' });
    expect(byLink).toMatchObject({ productMasterId: p1, locationId: a.warehouse.id, occurrences: 6, weeks: 6, usable: true });
    expect(Math.abs(byType.liftPct - 0.4)).toBeLessThan(0.05);
    expect(byLink.liftPct).toBe(byType.liftPct);
    // Six occurrences: the 1st and 6th smallest bracket the median with 1 − 2/64 coverage.
    expect(byType.confidenceLevel).toBeCloseTo(1 - 2 / 64, 10);
    expect(byType.lowerPct).toBeLessThanOrEqual(byType.liftPct);
    expect(byType.upperPct).toBeGreaterThanOrEqual(byType.liftPct);
    expect(Math.abs(byType.lowerPct - 0.4)).toBeLessThan(0.1);
    expect(Math.abs(byType.upperPct - 0.4)).toBeLessThan(0.1);

    expect(occurrences.map((o) => o.name)).toEqual(PROMOTION_WEEKS.map((i) => `Promo ${i}`));
    for (const o of occurrences) {
      expect(o).toMatchObject({ type: 'PROMOTION', productMasterId: p1, locationId: a.warehouse.id, weeks: 1, baselineWeeks: 8 });
      // Each occurrence by hand: its week's units over the median of the four event-free weeks on each side.
      const i = PROMOTION_WEEKS[occurrences.indexOf(o)]!;
      const around = [-4, -3, -2, -1, 1, 2, 3, 4].map((k) => history[i + k]!).sort((x, y) => x - y);
      const baseline = (around[3]! + around[4]!) / 2;
      expect(o.baselineUnits).toBeCloseTo(baseline, 6);
      expect(o.actualUnits).toBeCloseTo(history[i]!, 6);
      expect(o.liftPct).toBeCloseTo(history[i]! / baseline - 1, 6);
    }
  });

  it('learns from the history before `before` only, and filters by type and link', async () => {
    const early = await learned(`?before=${week(40)}`);
    expect(early.meta.before).toBe(week(40));
    expect(early.occurrences.map((o) => o.name)).toEqual(['Promo 8', 'Promo 20', 'Promo 32']);
    expect(early.data[0]).toMatchObject({ type: 'PROMOTION', pool: 'TYPE', occurrences: 3, usable: true, lowerPct: null, upperPct: null, confidenceLevel: null });

    expect((await learned('?type=HOLIDAY')).data).toEqual([]);
    const atDc = await learned(`?locationId=${dc.id}`);
    expect(atDc.data.map((l) => l.pool)).toEqual(['TYPE']);
    expect(atDc.occurrences).toEqual([]);
    expect((await learned(`?productMasterId=${p1}&locationId=${a.warehouse.id}&type=PROMOTION`)).data).toHaveLength(2);
  });

  it('keeps tenants apart: their own events and history only, and 404 for the other tenant\'s ids', async () => {
    const theirsLearned = await learned('', b.key);
    // b's promotions saw no lift in its flat history.
    expect(theirsLearned.data[0]).toMatchObject({ type: 'PROMOTION', pool: 'TYPE', occurrences: 6, liftPct: 0 });
    expect(theirsLearned.occurrences.every((o: any) => o.productMasterId === theirs)).toBe(true);
    expect((await get(`?productMasterId=${p1}`, b.key)).status).toBe(404);
    expect((await get(`?locationId=${a.warehouse.id}`, b.key)).status).toBe(404);
    expect((await get(`?productMasterId=${theirs}`)).status).toBe(404);
  });

  it('answers 400 with details, and the forecasting gates', async () => {
    await expectValidationDetails(get, [
      ['?type=PARTY', { type: ['One of PROMOTION, PRICE_CHANGE, HOLIDAY, WEATHER, BOOKING, MACRO, OTHER (any case)'] }],
      ['?before=soon', { before: [expect.any(String)] as any }],
    ]);
    await expectForecastReadGates(get, plain, a);
    const noWrite = await get('', await a.keyWith(['forecast:read']));
    expect(noWrite.status).toBe(200);
  });

  it('is the learnedEventLifts query in GraphQL, behind the same gates', async () => {
    const QUERY = `query ($type: ExternalEventType, $productMasterId: ID, $before: Date) {
      learnedEventLifts(type: $type, productMasterId: $productMasterId, before: $before) {
        lifts { type pool liftPct occurrences usable } occurrences { eventId liftPct } before minOccurrences method } }`;
    const data = await graphqlData(server, a.key, QUERY, { type: 'PROMOTION' });
    const rest = await learned('?type=PROMOTION');
    expect(data.learnedEventLifts.lifts).toEqual(rest.data.map(({ type, pool, liftPct, occurrences, usable }) => ({ type, pool, liftPct, occurrences, usable })));
    expect(data.learnedEventLifts.occurrences).toHaveLength(6);
    expect((await graphqlError(server, b.key, QUERY, { productMasterId: p1 })).code).toBe('NOT_FOUND');
    expect((await graphqlError(server, plain.key, QUERY)).code).toBe('FEATURE_NOT_ENABLED');
    expect((await graphqlError(server, await a.keyWith(['inventory:read']), QUERY)).code).toBe('INSUFFICIENT_SCOPE');
  });
});

describe('GET /api/forecast with learned lifts', () => {
  it('lifts an upcoming promotion without a stated lift by the learned one; a holiday with no past occurrences lifts nothing', async () => {
    const [series] = await forecastOf(`?productMasterId=${p1}&locationId=${a.warehouse.id}`);
    const at = (i: number) => series.points.find((p: any) => p.periodStart === week(i));
    const { data: lifts } = await learned('?type=PROMOTION');
    const promo = at(HISTORY_WEEKS + 2);
    expect(promo).toMatchObject({ liftSource: 'LEARNED', eventIds: [upcomingPromotion] });
    expect(promo.liftFactor).toBeCloseTo(1 + lifts[1].liftPct, 4);
    expect(Math.abs(promo.liftFactor - 1.4)).toBeLessThan(0.05);
    const holiday = at(HISTORY_WEEKS + 5);
    expect(holiday).toMatchObject({ liftFactor: 1, liftSource: 'NONE', eventIds: [] });
    expect(at(HISTORY_WEEKS + 7)).toMatchObject({ liftFactor: 1.2, liftSource: 'STATED', eventIds: [statedPromotion] });
    expect(series.events.map((e: any) => e.id)).toEqual([upcomingPromotion, statedPromotion]);
    expect(series.events.map((e: any) => e.id)).not.toContain(upcomingHoliday);
    expect(series.events[0]).toMatchObject({ type: 'PROMOTION', liftSource: 'LEARNED', learnedPool: 'LINK', learnedOccurrences: 6, stackingMode: 'MULTIPLICATIVE' });
    expect(series.events[1]).toMatchObject({ liftSource: 'STATED', learnedPool: null, learnedOccurrences: null, liftPct: 0.2 });
  });

  it('with `from`, learns only from the history before it: two occurrences are too few, so the promotion in week 32 lifts nothing', async () => {
    const [series] = await forecastOf(`?productMasterId=${p1}&locationId=${a.warehouse.id}&from=${week(30)}`);
    const promo = series.points.find((p: any) => p.periodStart === week(32));
    expect(promo).toMatchObject({ liftFactor: 1, liftSource: 'NONE' });
    // From week 50 four have occurred (weeks 8, 20, 32, 44): week 56's promotion gets the learned lift.
    const [later] = await forecastOf(`?productMasterId=${p1}&locationId=${a.warehouse.id}&from=${week(50)}`);
    const next = later.points.find((p: any) => p.periodStart === week(56));
    expect(next.liftSource).toBe('LEARNED');
    expect(Math.abs(next.liftFactor - 1.4)).toBeLessThan(0.06);
  });
});
