import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemContext } from '../../src/context.js';
import { asForecastRequest } from '../../src/services/forecasting/engine/engine-admission.js';
import { createProduct, graphqlError } from '../support/api.js';
import { dayAfter, insertWeeklyDemand, weekAfter } from '../support/demand-history.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import type { TestServer } from '../support/server.js';
import { startServerWithTwoTenants } from '../support/two-tenants.js';
import { FORECASTING } from '../support/forecasting.js';

// Issue 17, defects 1 and 2: the work of one forecasting request is bounded whatever the dates of the
// history and the events. Two history records 230 years apart make a series of the last 260 weeks (not of
// 12,000), and events spanning those years are compared by their ends, not week by week. The bounds are
// asserted as the API shows them (the fitted window, the learning window, the events learned from).

const FIRST_WEEK = '1970-01-05'; // a Monday
/** 11,990 weeks later: a Monday in 2199. */
const LAST_WEEK = weekAfter(FIRST_WEEK, 11_990);
const RECENT_WEEKS = 30;
const WINDOW_WEEKS = 260;

let server: TestServer;
let a: Tenant;
let b: Tenant;
let c: Tenant;
let p1: string;

const ok = async (path: string, token = a.key) => {
  const res = await server.call('GET', path, { token });
  expect(res.status, JSON.stringify(res.body).slice(0, 500)).toBe(200);
  return res.body;
};

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants({}, { capabilities: [FORECASTING] }));
  c = await createTenant(server.app.prisma, { capabilities: [FORECASTING] });
  p1 = await createProduct(server, a.key, 'LB-1');
  const db = server.app.prisma;
  // One record in 1970, one 519 weeks before the last (the window's first week), then the last 30 weeks up to 2199.
  await insertWeeklyDemand(db, { organizationId: a.org.id, productMasterId: p1, locationId: a.warehouse.id, firstWeek: FIRST_WEEK, values: [50] });
  await insertWeeklyDemand(db, { organizationId: a.org.id, productMasterId: p1, locationId: a.warehouse.id, firstWeek: weekAfter(LAST_WEEK, 1 - WINDOW_WEEKS), values: [60] });
  await insertWeeklyDemand(db, {
    organizationId: a.org.id,
    productMasterId: p1,
    locationId: a.warehouse.id,
    firstWeek: weekAfter(LAST_WEEK, 1 - RECENT_WEEKS),
    values: Array.from({ length: RECENT_WEEKS }, (_, i) => 100 + (i % 5)),
  });
  // A second channel: the channel projection sums both.
  await insertWeeklyDemand(db, { organizationId: a.org.id, productMasterId: p1, locationId: a.warehouse.id, channel: 'WEB', firstWeek: FIRST_WEEK, values: [10] });
  // Ten promotions without a stated lift spanning every year of the history. The API refuses an event longer
  // than 1096 days now; these stand for rows stored before that bound, which the computation must bound too.
  const endsAt = `${dayAfter(LAST_WEEK, 30)}T00:00:00.000Z`;
  const refused = await server.call('POST', '/api/forecast/events', { token: a.key, body: { name: 'Forever', type: 'PROMOTION', startsAt: '1970-01-02T00:00:00.000Z', endsAt } });
  expect(refused.status).toBe(400);
  await db.externalEvent.createMany({
    data: Array.from({ length: 10 }, (_, i) => ({ organizationId: a.org.id, name: `Forever ${i}`, type: 'PROMOTION' as const, startsAt: new Date('1970-01-02T00:00:00.000Z'), endsAt: new Date(endsAt) })),
  });
}, 60_000);
afterAll(() => server?.close());

describe('a history whose records are centuries apart (defect 1)', () => {
  it('GET /api/forecast fits the last 260 weeks of the series, not every week since the first record', async () => {
    const { data } = await ok('/api/forecast?limit=5&horizon=4');
    expect(data.map((s: any) => [s.channel, s.historyWeeks, s.lastHistoryWeek])).toEqual([
      ['ALL', WINDOW_WEEKS, LAST_WEEK],
      // WEB has its one 1970 record only: a series of one week.
      ['WEB', 1, FIRST_WEEK],
    ]);
    expect(data[0].points).toHaveLength(4);
    expect(data[0].points[0].periodStart).toBe(weekAfter(LAST_WEEK, 1));
  });

  it('the long-term forecast buckets those 260 weeks into about 60 months', async () => {
    const { data } = await ok('/api/forecast/long-term?limit=5&months=12');
    const all = data.find((s: any) => s.channel === 'ALL');
    expect(all.historyMonths).toBeGreaterThanOrEqual(59);
    expect(all.historyMonths).toBeLessThanOrEqual(61);
    expect(all.firstHistoryMonth).toBe(weekAfter(LAST_WEEK, 1 - WINDOW_WEEKS).slice(0, 7));
    expect(all.lastHistoryMonth).toBe(dayAfter(LAST_WEEK, 6).slice(0, 7));
  });

  it('the channel projection sums the channels over the pair\'s last 260 weeks', async () => {
    const { data } = await ok('/api/forecast/channel-projection?limit=5&horizon=2');
    expect(data).toHaveLength(1);
    expect([data[0].historyWeeks, data[0].lastHistoryWeek]).toEqual([WINDOW_WEEKS, LAST_WEEK]);
    // WEB's only record is outside the window: it has no share of the recent weeks.
    expect(data[0].shares.map((s: any) => s.channel)).toEqual(['ALL']);
  });

  it('the ENGINE accuracy replays the forecast over the same window', async () => {
    const from = weekAfter(LAST_WEEK, -3);
    const body = await ok(`/api/forecast/accuracy?source=ENGINE&from=${from}&horizon=4&groupBy=total&channel=ALL`);
    expect(body.data).toHaveLength(1);
    expect(body.data[0].points).toBe(4);
  });
});

describe('events spanning centuries without a stated lift (defect 2)', () => {
  it('learned lifts look at the last 260 history weeks; events longer than 52 weeks are no occurrences', async () => {
    const body = await ok('/api/forecast/events/learned-lifts');
    expect(body.meta).toMatchObject({ before: null, learnedFrom: weekAfter(LAST_WEEK, 1 - WINDOW_WEEKS), maxEvents: 500 });
    expect(body.occurrences).toEqual([]);
    expect(body.data).toEqual([]);
  });

  it('GET /api/forecast answers with them overlapping every forecast week: no learned lift, so no lift', async () => {
    const { data } = await ok('/api/forecast?limit=100&horizon=13');
    const all = data.find((s: any) => s.channel === 'ALL');
    expect(all.events).toEqual([]);
    expect(all.points.every((p: any) => p.liftFactor === 1 && p.liftSource === 'NONE')).toBe(true);
  });

  it('learns from the 500 most recent events only: an older occurrence drops out when 500 newer events exist', async () => {
    const product = await createProduct(server, c.key, 'LB-C');
    const db = server.app.prisma;
    const start = '2024-01-01';
    const week = (i: number) => weekAfter(start, i);
    // Flat 100 a week over 60 weeks; a holiday in week 10 sells 150.
    await insertWeeklyDemand(db, { organizationId: c.org.id, productMasterId: product, locationId: c.warehouse.id, firstWeek: start, values: Array.from({ length: 60 }, (_, i) => (i === 10 ? 150 : 100)) });
    const inWeek = (i: number) => ({ startsAt: new Date(`${week(i)}T00:00:00Z`), endsAt: new Date(`${dayAfter(week(i), 6)}T12:00:00Z`) });
    await db.externalEvent.create({ data: { organizationId: c.org.id, name: 'Holiday', type: 'HOLIDAY', ...inWeek(10) } });
    const holidays = async () => (await ok('/api/forecast/events/learned-lifts?type=HOLIDAY', c.key)).occurrences.map((o: any) => [o.name, o.liftPct]);
    expect(await holidays()).toEqual([['Holiday', 0.5]]);
    // 500 later promotions, all in week 40.
    await db.externalEvent.createMany({ data: Array.from({ length: 500 }, (_, i) => ({ organizationId: c.org.id, name: `Promo ${i}`, type: 'PROMOTION' as const, ...inWeek(40) })) });
    expect(await holidays()).toEqual([]);
    await db.externalEvent.deleteMany({ where: { organizationId: c.org.id, name: 'Promo 0' } });
    expect(await holidays()).toEqual([['Holiday', 0.5]]);
  });

  it('keeps tenants apart: b has no history, so nothing is learned and no window', async () => {
    const body = await ok('/api/forecast/events/learned-lifts', b.key);
    expect(body.meta.learnedFrom).toBeNull();
    expect(body.occurrences).toEqual([]);
  });
});

describe('GraphQL counts forecasting work in its cost limit (defect 7)', () => {
  const aliased = (count: number, field: string) => `{ ${Array.from({ length: count }, (_, i) => `f${i}: ${field}`).join(' ')} }`;
  const expectOverCost = async (query: string) => {
    const res = await server.graphql(query, {}, a.key);
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(400);
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'MAX_COST_EXCEEDED', maxCost: 20_000 });
    expect(res.body.errors[0].extensions.cost).toBeGreaterThan(20_000);
  };

  it('refuses 30 aliased copies of each forecasting field before fitting anything', async () => {
    const from = weekAfter(LAST_WEEK, -3);
    await expectOverCost(aliased(30, 'demandForecast { totalCount }'));
    await expectOverCost(aliased(30, `forecastAccuracy(source: ENGINE, from: "${from}", channel: "ALL") { totalCount }`));
    await expectOverCost(aliased(30, 'channelProjection { totalCount }'));
    await expectOverCost(aliased(30, 'longTermForecast { totalCount }'));
    await expectOverCost(aliased(30, 'learnedEventLifts { minOccurrences }'));
    await expectOverCost(aliased(3, 'compareForecastScenarios(scenarioIds: ["x", "y"]) { series }'));
    // Each field costs its reads and its series: even 30 copies of one series each are over; 5 are not.
    await expectOverCost(aliased(30, 'demandForecast(first: 1, horizon: 1) { totalCount }'));
    const small = await server.graphql(aliased(5, 'demandForecast(first: 1, horizon: 1) { totalCount }'), {}, a.key);
    expect(small.body.errors, JSON.stringify(small.body.errors)).toBeUndefined();
  });

  it('lets the largest REST page through: one operation of 100 series is within the same budget', async () => {
    const one = await server.graphql('{ demandForecast(first: 100, horizon: 104) { totalCount edges { node { points { forecast } } } } }', {}, a.key);
    expect(one.body.errors, JSON.stringify(one.body.errors)).toBeUndefined();
    expect((await ok('/api/forecast?limit=100&horizon=104')).data).toHaveLength(2);
    // IMPORTED accuracy is SQL: no engine cost.
    const imported = await server.graphql(aliased(30, 'forecastAccuracy { totalCount }'), {}, a.key);
    expect(imported.body.errors, JSON.stringify(imported.body.errors)).toBeUndefined();
  });
});

describe('one organization cannot fill the engine (FORECAST_REQUESTS_PER_ORGANIZATION)', () => {
  it("refuses a request over the organization's running forecasting requests with 429 ENGINE_BUSY, REST and GraphQL alike; other organizations go on", async () => {
    // Four requests of a (the default limit) still running: held open here until `open` resolves.
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const running = Array.from({ length: 4 }, () =>
      asForecastRequest(systemContext(server.app, { organization: a.org as never, actor: { type: 'apiKey', id: 'test' }, origin: 'test-setup' }), () => gate),
    );
    const rest = await server.call('GET', '/api/forecast?limit=1&horizon=1', { token: a.key });
    expect(rest.status).toBe(429);
    expect(rest.body).toMatchObject({ code: 'ENGINE_BUSY', retryAfter: 1, limit: 4 });
    expect(rest.headers.get('retry-after')).toBe('1');
    expect((await graphqlError(server, a.key, '{ longTermForecast { totalCount } }')).code).toBe('ENGINE_BUSY');
    expect((await server.call('GET', '/api/forecast/events/learned-lifts', { token: a.key })).status).toBe(429);
    // Another organization is not held up, and a's plain reads are not forecasting work.
    expect((await server.call('GET', '/api/forecast/events/learned-lifts', { token: c.key })).status).toBe(200);
    expect((await server.call('GET', '/api/forecast/events', { token: a.key })).status).toBe(200);
    open();
    await Promise.all(running);
    expect((await server.call('GET', '/api/forecast?limit=1&horizon=1', { token: a.key })).status).toBe(200);
  });
});
