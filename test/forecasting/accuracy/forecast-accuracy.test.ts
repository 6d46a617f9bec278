import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocationFor } from '../../../src/services/admin/admin.js';
import { createProduct, graphqlData, graphqlError } from '../../support/api.js';
import { dayAfter, weekAfter } from '../../support/demand-history.js';
import { createTenant, type Tenant } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';
import { startServerWithTwoTenants } from '../../support/two-tenants.js';
import { expectForecastReadGates, expectValidationDetails, FORECASTING } from '../../support/forecasting.js';

// GET /api/forecast/accuracy and the forecastAccuracy query on a real database, on tiny series whose
// metrics are worked out by hand below.

const FIRST_WEEK = '2024-01-01'; // a Monday
const week = (i: number) => weekAfter(FIRST_WEEK, i);
/** The measured period starts at week 4: weeks 0–3 are the history that scales MASE. */
const FROM = week(4);

let server: TestServer;
let a: Tenant;
let b: Tenant;
let plain: Tenant;
let dc: { id: string };
let p1: string;
let p2: string;
let theirs: string;

/** Rows straight into the demand history: weeks from `first`, with both actual and forecast units (null actual: no record that week). */
async function insertSeries(
  org: string,
  keys: { productMasterId: string; locationId: string; channel?: string },
  first: string,
  actual: (number | null)[],
  forecast: number[],
) {
  await server.app.prisma.demandHistory.createMany({
    data: actual.flatMap((actualUnits, i) =>
      actualUnits === null
        ? []
        : [{ organizationId: org, ...keys, channel: keys.channel ?? 'ALL', weekStart: new Date(`${weekAfter(first, i)}T00:00:00Z`), actualUnits, forecastUnits: forecast[i]! }],
    ),
  });
}

const get = (query: string, token = a.key) => server.call('GET', `/api/forecast/accuracy${query}`, { token });
const accuracyOf = async (query: string, token = a.key) => {
  const res = await get(query, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { data: any[]; meta: any };
};
const NO_GROUP = { productMasterId: null, locationId: null, channel: null, method: null };

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants({}, { capabilities: [FORECASTING] }));
  plain = await createTenant(server.app.prisma, { capabilities: [] });
  dc = await createLocationFor(server.operator, { organizationId: a.org.id, code: 'DC2', name: 'Second DC' });
  p1 = await createProduct(server, a.key, 'ACC-1');
  p2 = await createProduct(server, a.key, 'ACC-2');
  theirs = await createProduct(server, b.key, 'ACC-B');
  // S1 (p1, warehouse, ALL): history 10 12 8 10 (forecast = actual), then weeks 4–6 actual 10 20 0, forecast 12 15 5.
  await insertSeries(a.org.id, { productMasterId: p1, locationId: a.warehouse.id }, FIRST_WEEK, [10, 12, 8, 10, 10, 20, 0], [10, 12, 8, 10, 12, 15, 5]);
  // S2 (p1, DC, ALL): a constant history 5 5 5 5 (no MASE scale), then weeks 4–5 actual 5 5, forecast 4 7.
  await insertSeries(a.org.id, { productMasterId: p1, locationId: dc.id }, FIRST_WEEK, [5, 5, 5, 5, 5, 5], [5, 5, 5, 5, 4, 7]);
  // S3 (p2, warehouse, WEB): no history before week 4; weeks 4–5 actual 0 0, forecast 3 1.
  await insertSeries(a.org.id, { productMasterId: p2, locationId: a.warehouse.id, channel: 'WEB' }, FROM, [0, 0], [3, 1]);
  // S4, the other organization's: 54 weeks of history (10 each, week 1 not recorded, week 52 14, week 53 16), then
  // week 54 actual 20, forecast 25.
  const history = Array.from({ length: 54 }, (_, i) => (i === 1 ? null : i === 52 ? 14 : i === 53 ? 16 : 10));
  await insertSeries(b.org.id, { productMasterId: theirs, locationId: b.warehouse.id }, FIRST_WEEK, [...history, 20], [...history.map((v) => v ?? 0), 25]);
}, 60_000);
afterAll(() => server?.close());

// Hand-computed (F forecast, A actual, e = |F − A|), measured from week 4:
// S1: scale = naive-1 MAE of 10 12 8 10 (a year or less) = (2 + 4 + 2) / 3 = 8/3; e = 2, 5, 5.
// S2: scale: seasonal undefined, naive-1 MAE 0 → none; e = 1, 2.
// S3: no history → no scale; e = 3, 1; every actual 0.
const S1_S2 = {
  points: 5,
  zeroActualPoints: 1, // S1 week 6
  scaledPoints: 3, // S1's
  actualTotal: 40, // 10 + 20 + 0 + 5 + 5
  forecastTotal: 43, // 12 + 15 + 5 + 4 + 7
  mase: 1.5, // (2 + 5 + 5) / (8/3) / 3
  wape: 0.375, // (2 + 5 + 5 + 1 + 2) / 40 = 15 / 40
  bias: 0.075, // (43 − 40) / 40
  mape: 0.2625, // (2/10 + 5/20 + 1/5 + 2/5) / 4, S1 week 6 skipped
};
const S3 = { points: 2, zeroActualPoints: 2, scaledPoints: 0, actualTotal: 0, forecastTotal: 4, mase: null, wape: null, bias: null, mape: null };

describe('GET /api/forecast/accuracy, source IMPORTED (the history\'s own forecastUnits)', () => {
  it('groups by product by default, with hand-computed MASE, WAPE, bias and MAPE; zero actuals are skipped by MAPE and leave WAPE and bias null', async () => {
    const { data, meta } = await accuracyOf(`?from=${FROM}`);
    expect(meta).toEqual({ page: 1, limit: 50, total: 2, totalPages: 1, source: 'IMPORTED', groupBy: 'product', from: FROM, to: null, horizon: null, includeAdjustments: null, runId: null });
    expect(data).toEqual([
      { ...NO_GROUP, productMasterId: p1, ...S1_S2 },
      { ...NO_GROUP, productMasterId: p2, ...S3 },
    ].sort((x, y) => (x.productMasterId < y.productMasterId ? -1 : 1)));
  });

  it('groups by location, channel and in total', async () => {
    const byLocation = await accuracyOf(`?from=${FROM}&groupBy=location`);
    const expected = [
      // S1 + S3: e = 2 5 5 3 1 = 16; A = 30; F = 32 + 4 = 36; MAPE (2/10 + 5/20) / 2; MASE over S1's 3 points only.
      { ...NO_GROUP, locationId: a.warehouse.id, points: 5, zeroActualPoints: 3, scaledPoints: 3, actualTotal: 30, forecastTotal: 36, mase: 1.5, wape: 0.533333, bias: 0.2, mape: 0.225 },
      // S2: e = 1 2; A = 10; F = 11; MAPE (1/5 + 2/5) / 2.
      { ...NO_GROUP, locationId: dc.id, points: 2, zeroActualPoints: 0, scaledPoints: 0, actualTotal: 10, forecastTotal: 11, mase: null, wape: 0.3, bias: 0.1, mape: 0.3 },
    ].sort((x, y) => (x.locationId < y.locationId ? -1 : 1));
    expect(byLocation.data).toEqual(expected);

    const byChannel = await accuracyOf(`?from=${FROM}&groupBy=channel`);
    expect(byChannel.data).toEqual([
      { ...NO_GROUP, channel: 'ALL', ...S1_S2 },
      { ...NO_GROUP, channel: 'WEB', ...S3 },
    ]);

    const total = await accuracyOf(`?from=${FROM}&groupBy=total`);
    // e = 15 + 4 = 19; A = 40; F = 47; MAPE as S1 + S2 (S3 has only zero actuals).
    expect(total.data).toEqual([{ ...NO_GROUP, points: 7, zeroActualPoints: 3, scaledPoints: 3, actualTotal: 40, forecastTotal: 47, mase: 1.5, wape: 0.475, bias: 0.175, mape: 0.2625 }]);
    expect(total.meta).toMatchObject({ total: 1, groupBy: 'total' });
  });

  it('without from measures every recorded week and has no history to scale MASE by', async () => {
    const { data } = await accuracyOf('?groupBy=total');
    // S1: A 70, F 72, e 12; S2: A 30, F 31, e 3; S3: A 0, F 4, e 4. MAPE over the 12 non-zero weeks: (0.2 + 0.25 + 0.2 + 0.4) / 12.
    expect(data).toEqual([{ ...NO_GROUP, points: 15, zeroActualPoints: 3, scaledPoints: 0, actualTotal: 100, forecastTotal: 107, mase: null, wape: 0.19, bias: 0.07, mape: 0.0875 }]);
  });

  it('takes to (the ISO week holding the day, inclusive) and the product, location and channel filters', async () => {
    // Week 4 only: S1 (A 10, F 12), S2 (5, 4), S3 (0, 3). MASE: S1's 2 / (8/3) = 0.75; MAPE (2/10 + 1/5) / 2.
    const { data, meta } = await accuracyOf(`?from=${dayAfter(FROM, 2)}&to=${dayAfter(FROM, 6)}&groupBy=total`);
    expect(meta).toMatchObject({ from: FROM, to: FROM });
    expect(data).toEqual([{ ...NO_GROUP, points: 3, zeroActualPoints: 1, scaledPoints: 1, actualTotal: 15, forecastTotal: 19, mase: 0.75, wape: 0.4, bias: 0.266667, mape: 0.2 }]);

    expect((await accuracyOf(`?from=${FROM}&channel=WEB`)).data).toEqual([{ ...NO_GROUP, productMasterId: p2, ...S3 }]);
    expect((await accuracyOf(`?from=${FROM}&productMasterId=${p2}`)).data).toEqual([{ ...NO_GROUP, productMasterId: p2, ...S3 }]);
    const atDc = await accuracyOf(`?from=${FROM}&locationId=${dc.id}&groupBy=total`);
    expect(atDc.data).toEqual([{ ...NO_GROUP, points: 2, zeroActualPoints: 0, scaledPoints: 0, actualTotal: 10, forecastTotal: 11, mase: null, wape: 0.3, bias: 0.1, mape: 0.3 }]);
    expect((await accuracyOf(`?channel=NONE&groupBy=total`)).data).toEqual([]);
  });

  it('pages over groups', async () => {
    const first = await accuracyOf(`?from=${FROM}&groupBy=channel&limit=1`);
    expect(first.meta).toMatchObject({ page: 1, limit: 1, total: 2, totalPages: 2 });
    expect(first.data.map((r) => r.channel)).toEqual(['ALL']);
    const second = await accuracyOf(`?from=${FROM}&groupBy=channel&limit=1&page=2`);
    expect(second.data.map((r) => r.channel)).toEqual(['WEB']);
    const past = await accuracyOf(`?from=${FROM}&groupBy=channel&limit=1&page=3`);
    expect(past).toEqual({ data: [], meta: expect.objectContaining({ total: 2, totalPages: 2 }) });
  });

  it('scales by the seasonal-naive MAE past a year of history, a week without a record counting 0; each organization sees only its own', async () => {
    // S4: seasonal errors at weeks 52 and 53: |14 − 10| = 4, |16 − 0| = 16 (week 1 unrecorded) → scale 10.
    // Week 54: e = 5 → MASE 0.5, WAPE 5/20, bias 5/20, MAPE 5/20.
    const { data, meta } = await accuracyOf(`?from=${week(54)}&groupBy=total`, b.key);
    expect(meta.total).toBe(1);
    expect(data).toEqual([{ ...NO_GROUP, points: 1, zeroActualPoints: 0, scaledPoints: 1, actualTotal: 20, forecastTotal: 25, mase: 0.5, wape: 0.25, bias: 0.25, mape: 0.25 }]);
    expect((await accuracyOf(`?from=${FROM}`, b.key)).data.map((r) => r.productMasterId)).toEqual([theirs]);
    // Theirs never reach ours: from week 54 the caller has nothing.
    expect((await accuracyOf(`?from=${week(54)}`)).data).toEqual([]);
  });

  it('counts an unrecorded week inside the history as 0 on either side of a lag', async () => {
    const gaps = await createTenant(server.app.prisma, { capabilities: [FORECASTING] });
    const product = await createProduct(server, gaps.key, 'ACC-GAPS');
    const keys = (channel: string) => ({ productMasterId: product, locationId: gaps.warehouse.id, channel });
    // SEASON: weeks 0–54 of 10 (week 2: 30), week 53 not recorded; week 55 A 10, F 30.
    // Seasonal pairs (52, 0), (53, 1), (54, 2): |10 − 10| + |0 − 10| + |10 − 30| = 30 over 55 − 52 = 3 weeks → scale 10; e 20 → MASE 2.
    const season = Array.from({ length: 56 }, (_, i) => (i === 53 ? null : i === 2 ? 30 : 10));
    await insertSeries(gaps.org.id, keys('SEASON'), FIRST_WEEK, season, season.map((v, i) => (i === 55 ? 30 : v ?? 0)));
    // SHORT: weeks 52 and 54 recorded (4, 10), 53 not; week 55 A 10, F 17.
    // Naive-1 pairs (53, 52), (54, 53): |0 − 4| + |10 − 0| = 14 over 2 → scale 7; e 7 → MASE 1.
    await insertSeries(gaps.org.id, keys('SHORT'), week(52), [4, null, 10, 10], [4, 0, 10, 17]);
    const { data } = await accuracyOf(`?from=${week(55)}&groupBy=channel`, gaps.key);
    const one = { ...NO_GROUP, points: 1, zeroActualPoints: 0, scaledPoints: 1, actualTotal: 10 };
    expect(data).toEqual([
      { ...one, channel: 'SEASON', forecastTotal: 30, mase: 2, wape: 2, bias: 2, mape: 2 },
      { ...one, channel: 'SHORT', forecastTotal: 17, mase: 1, wape: 0.7, bias: 0.7, mape: 0.7 },
    ]);
  });
});

describe('GET /api/forecast/accuracy, source ENGINE (GET /api/forecast replayed from `from`)', () => {
  it('measures what GET /api/forecast?from= answers against the actuals after it, by product, method and total', async () => {
    // The engine sees 4 weeks per series: too short to backtest, so SIMPLE_LEVEL, the mean of the last 4 weeks.
    const forecast = (await server.call('GET', `/api/forecast?from=${FROM}&horizon=3`, { token: a.key })).body;
    expect(forecast.data.map((s: any) => [s.locationId, s.method, s.points.map((p: any) => p.forecast)])).toEqual(
      [
        [a.warehouse.id, 'SIMPLE_LEVEL', [10, 10, 10]], // (10 + 12 + 8 + 10) / 4
        [dc.id, 'SIMPLE_LEVEL', [5, 5, 5]],
      ].sort((x, y) => (x[0]! < y[0]! ? -1 : 1)),
    );
    // S1: A 10 20 0, F 10 10 10, e 0 10 10; S2: A 5 5, F 5 5, e 0 0 (week 6 has no S2 record). S3 has no history before from: not forecast.
    const expected = {
      points: 5,
      zeroActualPoints: 1,
      scaledPoints: 3,
      actualTotal: 40,
      forecastTotal: 40,
      mase: 2.5, // (0 + 10 + 10) / (8/3) / 3
      wape: 0.5, // 20 / 40
      bias: 0, // (40 − 40) / 40
      mape: 0.125, // (0/10 + 10/20 + 0/5 + 0/5) / 4
    };
    const byProduct = await accuracyOf(`?source=ENGINE&from=${FROM}&horizon=3`);
    expect(byProduct.meta).toEqual({ page: 1, limit: 50, total: 1, totalPages: 1, source: 'ENGINE', groupBy: 'product', from: FROM, to: null, horizon: 3, includeAdjustments: true, runId: null });
    expect(byProduct.data).toEqual([{ ...NO_GROUP, productMasterId: p1, ...expected }]);
    expect((await accuracyOf(`?source=engine&from=${FROM}&horizon=3&groupBy=method`)).data).toEqual([{ ...NO_GROUP, method: 'SIMPLE_LEVEL', ...expected }]);
    expect((await accuracyOf(`?source=ENGINE&from=${FROM}&horizon=3&groupBy=total`)).data).toEqual([{ ...NO_GROUP, ...expected }]);
  });

  it('measures horizon weeks (default 13) up to `to`, and takes the filters', async () => {
    // horizon 2: S1 e 0 10 (A 10 20), S2 e 0 0 (A 5 5): A 40, F 30, MASE (0 + 10) / (8/3) / 2 = 1.875, MAPE (0 + 0.5 + 0 + 0) / 4.
    const two = { ...NO_GROUP, points: 4, zeroActualPoints: 0, scaledPoints: 2, actualTotal: 40, forecastTotal: 30, mase: 1.875, wape: 0.25, bias: -0.25, mape: 0.125 };
    expect((await accuracyOf(`?source=ENGINE&from=${FROM}&horizon=2&groupBy=total`)).data).toEqual([two]);
    expect((await accuracyOf(`?source=ENGINE&from=${FROM}&to=${week(5)}&groupBy=total`)).data).toEqual([two]);
    const { meta } = await accuracyOf(`?source=ENGINE&from=${FROM}&groupBy=total`);
    expect(meta.horizon).toBe(13);
    // S2 only: no error; no MASE scale.
    const atDc = await accuracyOf(`?source=ENGINE&from=${FROM}&locationId=${dc.id}&groupBy=location`);
    expect(atDc.data).toEqual([{ ...NO_GROUP, locationId: dc.id, points: 2, zeroActualPoints: 0, scaledPoints: 0, actualTotal: 10, forecastTotal: 10, mase: null, wape: 0, bias: 0, mape: 0 }]);
    expect((await accuracyOf(`?source=ENGINE&from=${FROM}&channel=WEB`)).data).toEqual([]);
  });

  it("measures the forecast as answered, events and planners' overrides included, or with includeAdjustments=false the statistical one alone", async () => {
    // S1 forecasts 10 a week (see above): a stated +100 % in week 5 makes it 20, a base override of week 6 makes it 0, so S1 is exact.
    const event = await server.call('POST', '/api/forecast/events', {
      token: a.key,
      body: { name: 'Double', type: 'PROMOTION', startsAt: `${week(5)}T00:00:00Z`, endsAt: `${week(5)}T12:00:00Z`, productMasterId: p1, locationId: a.warehouse.id, value: { liftPct: 1 } },
    });
    const override = await server.call('PUT', '/api/forecast/overrides', { token: a.key, body: { productMasterId: p1, locationId: a.warehouse.id, periodStart: week(6), quantity: 0 } });
    expect([event.status, override.status]).toEqual([201, 200]);
    try {
      const adjusted = await accuracyOf(`?source=ENGINE&from=${FROM}&horizon=3&groupBy=total`);
      expect(adjusted.meta.includeAdjustments).toBe(true);
      // S1: A 10 20 0, F 10 20 0; S2: A 5 5, F 5 5.
      expect(adjusted.data).toEqual([{ ...NO_GROUP, points: 5, zeroActualPoints: 1, scaledPoints: 3, actualTotal: 40, forecastTotal: 40, mase: 0, wape: 0, bias: 0, mape: 0 }]);
      const statistical = await accuracyOf(`?source=ENGINE&from=${FROM}&horizon=3&groupBy=total&includeAdjustments=false`);
      expect(statistical.meta.includeAdjustments).toBe(false);
      expect(statistical.data).toEqual([{ ...NO_GROUP, points: 5, zeroActualPoints: 1, scaledPoints: 3, actualTotal: 40, forecastTotal: 40, mase: 2.5, wape: 0.5, bias: 0, mape: 0.125 }]);
      // IMPORTED ignores it.
      expect((await accuracyOf(`?from=${FROM}&includeAdjustments=false`)).meta.includeAdjustments).toBeNull();
      const gql = await graphqlData(server, a.key, `{ forecastAccuracy(source: ENGINE, from: "${FROM}", horizon: 3, groupBy: TOTAL, includeAdjustments: false) { includeAdjustments edges { node { mase } } } }`);
      expect(gql.forecastAccuracy).toEqual({ includeAdjustments: false, edges: [{ node: { mase: 2.5 } }] });
      await expectValidationDetails(get, [[`?source=ENGINE&from=${FROM}&includeAdjustments=maybe`, { includeAdjustments: ['Must be true or false'] }]]);
    } finally {
      await server.call('DELETE', `/api/forecast/events/${event.body.id}`, { token: a.key });
      await server.call('DELETE', `/api/forecast/overrides/${override.body.id ?? override.body.override?.id}`, { token: a.key });
    }
  });

  it('replays at most 100 series: more is a 400 on source before anything is fitted, and a filter narrows it', async () => {
    const many = await createTenant(server.app.prisma, { capabilities: [FORECASTING] });
    const product = await createProduct(server, many.key, 'ACC-MANY');
    // 101 one-week series: channels C0 … C100.
    await server.app.prisma.demandHistory.createMany({
      data: Array.from({ length: 101 }, (_, i) => ({
        organizationId: many.org.id, productMasterId: product, locationId: many.warehouse.id, channel: `C${i}`, weekStart: new Date(`${FIRST_WEEK}T00:00:00Z`), actualUnits: 1, forecastUnits: 1,
      })),
    });
    const res = await get(`?source=ENGINE&from=${week(1)}`, many.key);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: expect.any(String),
      code: 'VALIDATION_ERROR',
      details: { source: ['ENGINE replays at most 100 series per request and 101 match: narrow with productMasterId, locationId or channel'] },
    });
    // One series, nothing recorded after from: no rows.
    expect((await accuracyOf(`?source=ENGINE&from=${week(1)}&channel=C7`, many.key)).data).toEqual([]);
    // IMPORTED has no such cap: 101 channels, paged.
    expect((await accuracyOf('?groupBy=channel&limit=500', many.key)).meta).toMatchObject({ total: 101, totalPages: 1 });
  });
});

describe('refusals', () => {
  it('answers 400 VALIDATION_ERROR with details per field for bad values', async () => {
    const cases: [string, Record<string, string[]>][] = [
      ['?source=MODEL', { source: ['One of IMPORTED, ENGINE, STORED (any case)'] }],
      ['?source=STORED', { runId: ['runId or scenarioId is required with source=STORED'] }],
      ['?source=STORED&runId=r&scenarioId=s', { scenarioId: ['Not together with runId'] }],
      ['?runId=r', { runId: ['Only with source=STORED'] }],
      ['?groupBy=week', { groupBy: ['One of product, location, channel, method, total (any case)'] }],
      ['?groupBy=method', { groupBy: ['method needs source=ENGINE or STORED'] }],
      ['?source=ENGINE', { from: ['Required with source=ENGINE'] }],
      [`?from=${week(5)}&to=${week(4)}`, { to: ['Must not be before from'] }],
      ['?from=2024-13-01', { from: ['Must be an ISO 8601 date (YYYY-MM-DD)'] }],
      [`?source=ENGINE&from=${FROM}&horizon=0`, { horizon: ['Must be an integer from 1 to 104'] }],
      ['?limit=501', { limit: ['Must be an integer from 1 to 500'] }],
      ['?page=0', { page: ['Must be an integer of at least 1'] }],
    ];
    await expectValidationDetails(get, cases);
  });

  it('answers 404 for unknown or foreign products and locations', async () => {
    for (const query of [`?productMasterId=${theirs}`, `?locationId=${b.warehouse.id}`, '?productMasterId=nope', `?source=ENGINE&from=${FROM}&locationId=${b.warehouse.id}`]) {
      const res = await get(query);
      expect(res.status, query).toBe(404);
      expect(res.body.code, query).toBe('NOT_FOUND');
    }
  });

  it('answers 403 FEATURE_NOT_ENABLED without the plan capability, INSUFFICIENT_SCOPE without forecast.read', async () => {
    await expectForecastReadGates(get, plain, a, '');
  });
});

describe('GraphQL forecastAccuracy', () => {
  const QUERY = `query ($source: ForecastAccuracySource, $groupBy: ForecastAccuracyGroupBy, $productMasterId: ID, $locationId: ID, $channel: String,
    $from: Date, $to: Date, $horizon: Int) {
    forecastAccuracy(source: $source, groupBy: $groupBy, productMasterId: $productMasterId, locationId: $locationId, channel: $channel,
      from: $from, to: $to, horizon: $horizon) {
      edges { node { productMasterId locationId channel method points zeroActualPoints scaledPoints actualTotal forecastTotal mase wape bias mape } }
      totalCount source groupBy from to horizon includeAdjustments runId } }`;

  it('answers what GET /api/forecast/accuracy answers', async () => {
    for (const [query, variables] of [
      [`?from=${FROM}&groupBy=location`, { from: FROM, groupBy: 'LOCATION' }],
      [`?source=ENGINE&from=${FROM}&horizon=3&groupBy=method`, { source: 'ENGINE', from: FROM, horizon: 3, groupBy: 'METHOD' }],
    ] as const) {
      const rest = await accuracyOf(query);
      const { forecastAccuracy } = await graphqlData(server, a.key, QUERY, variables);
      const { edges, totalCount, ...meta } = forecastAccuracy;
      const { page: _page, limit: _limit, total, totalPages: _pages, ...restMeta } = rest.meta;
      expect(edges.map((e: any) => e.node)).toEqual(rest.data);
      expect(totalCount).toBe(total);
      expect({ ...meta, groupBy: meta.groupBy.toLowerCase() }).toEqual(restMeta);
    }
  });

  it('refuses as REST does: bad values, foreign ids, no capability or permission; each organization sees its own', async () => {
    expect(await graphqlError(server, a.key, QUERY, { source: 'ENGINE', horizon: 105 })).toEqual({
      code: 'VALIDATION_ERROR',
      details: { from: ['Required with source=ENGINE'], horizon: ['Must be an integer from 1 to 104'] },
    });
    expect(await graphqlError(server, a.key, QUERY, { groupBy: 'METHOD' })).toEqual({ code: 'VALIDATION_ERROR', details: { groupBy: ['method needs source=ENGINE or STORED'] } });
    expect((await graphqlError(server, a.key, QUERY, { productMasterId: theirs })).code).toBe('NOT_FOUND');
    expect((await graphqlError(server, a.key, QUERY, { locationId: b.warehouse.id })).code).toBe('NOT_FOUND');
    expect(await graphqlError(server, plain.key, QUERY)).toEqual({ code: 'FEATURE_NOT_ENABLED', feature: FORECASTING, planCapability: FORECASTING, entitlement: FORECASTING });
    expect((await graphqlError(server, await a.keyWith(['inventory:read']), QUERY)).code).toBe('INSUFFICIENT_SCOPE');
    const theirsOnly = (await graphqlData(server, b.key, QUERY, { from: FROM })).forecastAccuracy;
    expect(theirsOnly.edges.map((e: any) => e.node.productMasterId)).toEqual([theirs]);
  });
});
