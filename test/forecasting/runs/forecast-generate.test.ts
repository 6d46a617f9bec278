import { createClient, type Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startForecastRunWorkers } from '../../../src/services/forecasting/runs/run-worker.js';
import { processNextBatch } from '../../../src/services/forecasting/runs/run-worker.js';
import { REFUSAL, refusalOf } from '../../support/graphql.js';
import { createProduct, graphqlData, graphqlError } from '../../support/api.js';
import { insertWeeklyDemand, weekAfter } from '../../support/demand-history.js';
import { createTenant, type Tenant } from '../../support/fixtures.js';
import { FORECASTING } from '../../support/forecasting.js';
import type { TestServer } from '../../support/server.js';
import { startServerWithTwoTenants } from '../../support/two-tenants.js';

// POST /api/forecast/scenarios/{id}/generate and what hangs off it (runs, stored series, the GraphQL
// mutation, queries and progress subscription), on a real database. Worker loops are off: most tests
// fit the batches one at a time (processNextBatch) so that each checkpoint is seen; one runs real loops.

const FIRST_WEEK = '2024-01-01'; // a Monday
const WEEKS = 60;
const FROM = weekAfter(FIRST_WEEK, 56); // inside the history: the engine sees 56 weeks
const LEASE = { leaseMs: 60_000 };

let server: TestServer;
let a: Tenant;
let b: Tenant;
let plain: Tenant;
let p1: string;
let p2: string;
let p3: string;
let draft: string;
let theirScenario: string;
const clients: Client[] = [];

const call = async (method: string, path: string, options: { token?: string; body?: unknown } = {}) => server.call(method, path, { token: a.key, ...options });
const ok = async (method: string, path: string, status: number, options: { token?: string; body?: unknown } = {}) => {
  const res = await call(method, path, options);
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(status);
  return res.body;
};
const newScenario = async (assumptions: Record<string, unknown> | null, tenant = a) =>
  (await ok('POST', '/api/forecast/scenarios', 201, { token: tenant.key, body: { name: 'Run me', type: 'CUSTOM', assumptions } })).id as string;
const generate = (scenarioId: string, body?: unknown, token = a.key) => call('POST', `/api/forecast/scenarios/${scenarioId}/generate`, { token, body });
/** What the worker loops would do: every open batch, one at a time. */
const runAll = async () => {
  while (await processNextBatch(server.app, LEASE));
};

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants({ FORECAST_RUN_BATCH_SIZE: '2', EVENT_PUBLISH_POLL_MS: '20' }, { capabilities: [FORECASTING] }));
  const db = server.app.prisma;
  plain = await createTenant(db, { capabilities: [] });
  const category = (await db.category.create({ data: { organizationId: a.org.id, name: 'Umbrellas' } })).id;
  p1 = await createProduct(server, a.key, 'GEN-1');
  p2 = await createProduct(server, a.key, 'GEN-2');
  p3 = await createProduct(server, a.key, 'GEN-3');
  await db.productMaster.update({ where: { id: p1 }, data: { categoryId: category } });
  const at = a.warehouse.id;
  const org = a.org.id;
  const seasonal = Array.from({ length: WEEKS }, (_, i) => 100 + 30 * Math.sin((2 * Math.PI * i) / 13) + (i % 5));
  await insertWeeklyDemand(db, { organizationId: org, productMasterId: p1, locationId: at, firstWeek: FIRST_WEEK, values: seasonal });
  await insertWeeklyDemand(db, { organizationId: org, productMasterId: p1, locationId: at, channel: 'web', firstWeek: FIRST_WEEK, values: seasonal.map((v) => v / 2) });
  await insertWeeklyDemand(db, { organizationId: org, productMasterId: p2, locationId: at, firstWeek: FIRST_WEEK, values: Array(WEEKS).fill(100) });
  await insertWeeklyDemand(db, { organizationId: org, productMasterId: p3, locationId: at, firstWeek: FIRST_WEEK, values: Array.from({ length: WEEKS }, (_, i) => (i % 4 === 0 ? 12 : 0)) });
  // An event on p2 in the second forecast week, an override of p2's first week for the scenario.
  const event = await ok('POST', '/api/forecast/events', 201, {
    body: { name: 'Sale', type: 'PROMOTION', productMasterId: p2, startsAt: `${weekAfter(FROM, 1)}T00:00:00Z`, endsAt: `${weekAfter(FROM, 1)}T12:00:00Z`, value: { liftPct: 0.5 } },
  });
  expect(event.id).toBeTruthy();
  draft = await newScenario({ globalLiftPct: 0.1, categoryAdjustments: [{ categoryId: category, liftPct: 0.2 }] });
  await ok('PUT', '/api/forecast/overrides', 200, { body: { productMasterId: p2, locationId: at, periodStart: FROM, quantity: 77, scenarioId: draft } });
  const theirs = await createProduct(server, b.key, 'GEN-B');
  await insertWeeklyDemand(db, { organizationId: b.org.id, productMasterId: theirs, locationId: b.warehouse.id, firstWeek: FIRST_WEEK, values: Array(WEEKS).fill(1000) });
  theirScenario = await newScenario({ globalLiftPct: 0.5 }, b);
}, 60_000);
afterAll(async () => {
  await Promise.all(clients.map((client) => client.dispose()));
  await server?.close();
});

const RUN_FIELDS = ['id', 'scenarioId', 'status', 'totalSeries', 'processedSeries', 'progress', 'statusUrl', 'createdAt', 'startedAt', 'completedAt', 'totalForecast', 'failureReason'];

describe('POST /api/forecast/scenarios/{id}/generate', () => {
  it('answers 202 with the PENDING run (top level and under `run`); the worker loops complete it and GET statusUrl follows', async () => {
    const res = await generate(draft, { from: FROM, horizon: 4 });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const run = res.body;
    for (const field of RUN_FIELDS) expect(run, field).toHaveProperty(field);
    expect(run).toMatchObject({
      scenarioId: draft,
      status: 'PENDING',
      totalSeries: 4,
      processedSeries: 0,
      totalBatches: 2,
      progress: 0,
      horizon: 4,
      levels: [80, 95],
      from: FROM,
      totalForecast: null,
      failureReason: null,
      startedAt: null,
      completedAt: null,
      statusUrl: `/api/forecast/runs/${run.id}`,
    });
    expect(run.run).toEqual(Object.fromEntries(Object.entries(run).filter(([key]) => key !== 'run')));
    // Real loops, two of them, polling often.
    const workers = startForecastRunWorkers(server.app, { count: 2, pollMs: 20, leaseMs: 60_000 });
    try {
      let status: any;
      for (let i = 0; i < 400; i++) {
        status = await ok('GET', run.statusUrl, 200);
        if (status.status === 'COMPLETED' || status.status === 'FAILED') break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(status).toMatchObject({ id: run.id, status: 'COMPLETED', totalSeries: 4, processedSeries: 4, processedBatches: 2, progress: 1, failureReason: null });
      expect(status.totalForecast).toBeGreaterThan(0);
      expect(status.startedAt).toEqual(expect.any(String));
      expect(status.completedAt).toEqual(expect.any(String));
      expect(status.run).toMatchObject({ id: run.id, status: 'COMPLETED' });
    } finally {
      await workers.stop();
    }
  });

  it('stores for each series exactly what GET /api/forecast?scenarioId=&from=&horizon= answers (events, adjustments, overrides)', async () => {
    const run = (await generate(draft, { from: FROM, horizon: 4, levels: '90,80' })).body;
    await runAll();
    const stored = await ok('GET', `/api/forecast/runs/${run.id}/series?limit=100`, 200);
    const live = await ok('GET', `/api/forecast?scenarioId=${draft}&from=${FROM}&horizon=4&levels=90,80&limit=100`, 200);
    expect(stored.meta).toMatchObject({ runId: run.id, status: 'COMPLETED', total: 4, page: 1 });
    expect(stored.data).toHaveLength(live.data.length);
    live.data.forEach((series: any, i: number) => {
      const { events, ...rest } = series;
      expect(stored.data[i]).toEqual({ ...rest, eventIds: events.map((e: any) => e.id), totalForecast: expect.any(Number) });
      expect(stored.data[i].totalForecast).toBeCloseTo(series.points.reduce((sum: number, p: any) => sum + p.forecast, 0), 3);
    });
    // What the fixtures put in: the override, the event, the category and global lifts.
    const p2Series = stored.data.find((s: any) => s.productMasterId === p2);
    expect(p2Series.points[0]).toMatchObject({ forecast: 77, overridden: true });
    expect(p2Series.points[1]).toMatchObject({ liftFactor: 1.5, adjustmentFactor: 1.1 });
    expect(p2Series.eventIds).toHaveLength(1);
    expect(stored.data.find((s: any) => s.productMasterId === p1).adjustments).toMatchObject({ categoryLiftPct: 0.2, globalLiftPct: 0.1 });
    // The run's total is the sum of its series'.
    const done = await ok('GET', `/api/forecast/runs/${run.id}`, 200);
    expect(done.totalForecast).toBeCloseTo(stored.data.reduce((sum: number, s: any) => sum + s.totalForecast, 0), 3);
    // Filters and paging of the stored series.
    const web = await ok('GET', `/api/forecast/runs/${run.id}/series?channel=web`, 200);
    expect(web.data.map((s: any) => [s.productMasterId, s.channel])).toEqual([[p1, 'web']]);
    const second = await ok('GET', `/api/forecast/runs/${run.id}/series?productMasterId=${p1}&limit=1&page=2`, 200);
    expect(second.meta).toMatchObject({ page: 2, limit: 1, total: 2, totalPages: 2 });
    expect(second.data).toHaveLength(1);
  });

  it('writes a GENERATE change when a run completes: totalBefore the previous completed run of the scenario (null for the first), totalAfter its own', async () => {
    const scenario = await newScenario({ globalLiftPct: 0 });
    const first = (await generate(scenario, { from: FROM, horizon: 2 })).body;
    await runAll();
    await ok('PATCH', `/api/forecast/scenarios/${scenario}`, 200, { body: { assumptions: { globalLiftPct: 1 } } });
    const second = (await generate(scenario, { from: FROM, horizon: 2 })).body;
    await runAll();
    const totals = await Promise.all([first, second].map(async (r) => (await ok('GET', `/api/forecast/runs/${r.id}`, 200)).totalForecast));
    expect(totals[1]).toBeCloseTo(totals[0] * 2, 2);
    const history = await ok('GET', `/api/forecast/change-history?scenarioId=${scenario}&kind=GENERATE`, 200);
    expect(history.changes.map((c: any) => [c.totalBefore, c.totalAfter])).toEqual([
      [totals[0], totals[1]],
      [null, totals[0]],
    ]);
    expect(history.changes[0]).toMatchObject({ kind: 'GENERATE', scenarioId: scenario, actor: { type: 'API_KEY' } });
    // The scenario's runs, newest first, paged.
    const runs = await ok('GET', `/api/forecast/scenarios/${scenario}/runs?limit=1`, 200);
    expect(runs.meta).toMatchObject({ page: 1, limit: 1, total: 2, totalPages: 2 });
    expect(runs.runs.map((r: any) => r.id)).toEqual([second.id]);
    expect(runs.data).toEqual(runs.runs);
    expect(runs.runs[0].statusUrl).toBe(`/api/forecast/runs/${second.id}`);
  });

  it('keeps the assumptions the run was asked with, whatever edits follow', async () => {
    const scenario = await newScenario({ globalLiftPct: 0 });
    const run = (await generate(scenario, { productMasterId: p2, from: FROM, horizon: 3 })).body;
    await ok('PATCH', `/api/forecast/scenarios/${scenario}`, 200, { body: { assumptions: { globalLiftPct: 4 } } });
    await runAll();
    const stored = await ok('GET', `/api/forecast/runs/${run.id}/series`, 200);
    expect(stored.data[0].points.every((p: any) => p.adjustmentFactor === 1)).toBe(true);
  });

  it('completes at once with 0 series when no history is in scope', async () => {
    const res = await generate(draft, { channel: 'NO-SUCH-CHANNEL' });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ status: 'COMPLETED', totalSeries: 0, processedSeries: 0, progress: 1, totalForecast: 0 });
    expect((await ok('GET', `/api/forecast/runs/${res.body.id}/series`, 200)).data).toEqual([]);
  });

  it('refuses a PUBLISHED or ARCHIVED scenario (409 INVALID_STATE) and bad options (400 with details)', async () => {
    const published = await newScenario(null);
    await ok('POST', `/api/forecast/scenarios/${published}/publish`, 200);
    const archived = await newScenario(null);
    await ok('DELETE', `/api/forecast/scenarios/${archived}`, 200);
    for (const id of [published, archived]) {
      const res = await generate(id);
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ code: 'INVALID_STATE', error: expect.stringMatching(/read-only/) });
    }
    const bad = await generate(draft, { horizon: 105, levels: '80,101', from: '2024-02-30', colour: 'red' });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toHaveProperty('horizon');
    expect(bad.body.details).toHaveProperty('levels');
    expect(bad.body.details).toHaveProperty('from');
    // A `from` more than 104 weeks after a series' history.
    const far = await generate(draft, { from: weekAfter(FIRST_WEEK, WEEKS + 110) });
    expect(far.status).toBe(400);
    expect(far.body.details).toHaveProperty('from');
    const runs = await ok('GET', `/api/forecast/scenarios/${published}/runs`, 200);
    expect(runs.runs).toEqual([]);
  });
});

describe('tenant isolation and permissions', () => {
  it("answers 404 for another organization's scenario, run, product or location, on every path and field", async () => {
    expect((await generate(theirScenario)).status).toBe(404);
    expect((await generate(draft, { productMasterId: (await ok('GET', '/api/products', 200, { token: b.key })).data[0].id })).status).toBe(404);
    expect((await generate(draft, { locationId: b.warehouse.id })).status).toBe(404);
    expect((await call('GET', `/api/forecast/scenarios/${theirScenario}/runs`)).status).toBe(404);
    const theirRun = (await generate(theirScenario, {}, b.key)).body;
    expect(theirRun.status).toBe('PENDING');
    await runAll();
    for (const path of [`/api/forecast/runs/${theirRun.id}`, `/api/forecast/runs/${theirRun.id}/series`, '/api/forecast/runs/no-such-run']) {
      const res = await call('GET', path);
      expect(res.status, path).toBe(404);
      expect(res.body).toEqual({ error: expect.any(String), code: 'NOT_FOUND' });
    }
    expect(await graphqlData(server, a.key, 'query ($id: ID!) { forecastRun(id: $id) { id } }', { id: theirRun.id })).toEqual({ forecastRun: null });
    expect((await graphqlError(server, a.key, 'query ($id: ID!) { forecastRunSeries(id: $id) { totalCount } }', { id: theirRun.id })).code).toBe('NOT_FOUND');
    expect((await graphqlError(server, a.key, 'query ($id: ID!) { forecastRuns(scenarioId: $id) { totalCount } }', { id: theirScenario })).code).toBe('NOT_FOUND');
    const refused = await graphqlData(server, a.key, `mutation ($id: ID!) { generateForecast(scenarioId: $id) { ... on ForecastRun { id } ${REFUSAL} } }`, { id: theirScenario });
    expect(refusalOf(refused.generateForecast)).toMatchObject({ type: 'NotFoundError', code: 'NOT_FOUND' });
    // Their run is theirs: they read it, its series are their single series, and nothing of a's.
    const mine = await server.call('GET', `/api/forecast/runs/${theirRun.id}/series`, { token: b.key });
    expect(mine.body.data).toHaveLength(1);
    expect(mine.body.data[0].productMasterId).not.toBe(p1);
    const accuracy = await call('GET', `/api/forecast/accuracy?source=STORED&runId=${theirRun.id}`);
    expect(accuracy.status).toBe(404);
    expect((await call('GET', `/api/forecast/accuracy?source=STORED&scenarioId=${theirScenario}`)).status).toBe(404);
    expect((await graphqlError(server, a.key, 'query ($id: ID!) { forecastAccuracy(source: STORED, runId: $id) { totalCount } }', { id: theirRun.id })).code).toBe('NOT_FOUND');
  });

  it('needs the plan capability, then forecast.write to generate and forecast.read to read', async () => {
    const noPlan = await generate(draft, undefined, plain.key);
    expect(noPlan.status).toBe(403);
    expect(noPlan.body).toMatchObject({ code: 'FEATURE_NOT_ENABLED', feature: FORECASTING });
    const reader = await a.keyWith(['forecast:read']);
    const readOnly = await generate(draft, undefined, reader);
    expect(readOnly.status).toBe(403);
    expect(readOnly.body.code).toBe('INSUFFICIENT_SCOPE');
    const run = (await ok('GET', `/api/forecast/scenarios/${draft}/runs`, 200, { token: reader })).runs[0];
    expect((await call('GET', `/api/forecast/runs/${run.id}`, { token: reader })).status).toBe(200);
    const stranger = await a.keyWith(['inventory:read']);
    for (const path of [`/api/forecast/runs/${run.id}`, `/api/forecast/runs/${run.id}/series`, `/api/forecast/scenarios/${draft}/runs`]) {
      const res = await call('GET', path, { token: stranger });
      expect(res.status, path).toBe(403);
      expect(res.body.code).toBe('INSUFFICIENT_SCOPE');
      expect((await call('GET', path, { token: plain.key })).body.code).toBe('FEATURE_NOT_ENABLED');
    }
    expect((await graphqlError(server, reader, 'mutation ($id: ID!) { generateForecast(scenarioId: $id) { ... on ForecastRun { id } } }', { id: draft })).code).toBe('INSUFFICIENT_SCOPE');
  });
});

function client(connectionParams: Record<string, unknown>) {
  const created = createClient({ url: `${server.url.replace(/^http/, 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams, retryAttempts: 0, lazy: true });
  clients.push(created);
  return created;
}

/** A subscription whose results are taken one at a time. */
function open(c: Client, query: string, variables: Record<string, unknown>) {
  const queue: any[] = [];
  let waiting: ((r: any) => void) | null = null;
  let ended!: () => void;
  const done = new Promise<void>((resolve) => (ended = resolve));
  const push = (r: any) => (waiting ? (waiting(r), (waiting = null)) : queue.push(r));
  c.subscribe({ query, variables }, { next: push, error: (error) => (push({ error }), ended()), complete: () => ended() });
  return { next: (): Promise<any> => (queue.length ? Promise.resolve(queue.shift()) : new Promise((resolve) => (waiting = resolve))), done };
}

const PROGRESS = 'subscription ($id: ID!) { forecastRunProgress(id: $id) { id status totalSeries processedSeries processedBatches progress totalForecast } }';

describe('GraphQL: generateForecast, forecastRun(s), forecastRunSeries and the forecastRunProgress subscription', () => {
  it('follows a run started by the mutation through each batch until COMPLETED', async () => {
    const data = await graphqlData(
      server,
      a.key,
      `mutation ($id: ID!, $input: ForecastGenerateInput) { generateForecast(scenarioId: $id, input: $input) { ... on ForecastRun { id status totalSeries progress } ${REFUSAL} } }`,
      { id: draft, input: { from: FROM, horizon: 2, levels: [80] } },
    );
    const run = data.generateForecast;
    expect(run).toMatchObject({ status: 'PENDING', totalSeries: 4, progress: 0 });
    const stream = open(client({ authorization: `Bearer ${a.key}` }), PROGRESS, { id: run.id });
    const next = async () => {
      const result = await stream.next();
      expect(result.errors).toBeUndefined();
      return result.data.forecastRunProgress;
    };
    expect(await next()).toMatchObject({ id: run.id, status: 'PENDING', processedSeries: 0, progress: 0 });
    // The first claim marks the run RUNNING; the checkpoint of that batch moves processedSeries on. The stream shows
    // the row as it is when each event arrives: the claim's event may come while the batch is still computing
    // (RUNNING, 0), so the second batch waits until the first one's checkpoint has been sent.
    await processNextBatch(server.app, LEASE);
    const seen = [await next()];
    while (seen.at(-1).processedSeries < 2 && seen.at(-1).status !== 'COMPLETED') seen.push(await next());
    while (seen.at(-1).status !== 'COMPLETED') {
      await processNextBatch(server.app, LEASE);
      seen.push(await next());
    }
    expect(seen.some((s) => s.status === 'RUNNING' && s.processedSeries === 2 && s.progress === 0.5)).toBe(true);
    expect(seen.at(-1)).toMatchObject({ status: 'COMPLETED', processedSeries: 4, processedBatches: 2, progress: 1, totalForecast: expect.any(Number) });
    await stream.done;
    // The events that fed it: the start, the first batch, then the finish (the claims' stamps are not news).
    const events = await server.app.prisma.domainEvent.findMany({ where: { subjectId: run.id }, orderBy: { id: 'asc' } });
    expect(events.map((e) => [e.type, (e.payload as { status: string }).status, (e.payload as { processedSeries?: number }).processedSeries ?? null])).toEqual([
      ['forecast_run.progressed', 'RUNNING', 0],
      ['forecast_run.progressed', 'RUNNING', 2],
      ['forecast_run.finished', 'COMPLETED', null],
    ]);

    const read = await graphqlData(
      server,
      a.key,
      `query ($id: ID!, $scenarioId: ID!) {
        forecastRun(id: $id) { id status levels from horizon createdBy { type } }
        forecastRuns(scenarioId: $scenarioId, first: 1) { edges { node { id } } totalCount }
        forecastRunSeries(id: $id, channel: "web") { totalCount edges { node { productMasterId channel method points { periodStart forecast lower upper intervals { level } } } } }
      }`,
      { id: run.id, scenarioId: draft },
    );
    expect(read.forecastRun).toMatchObject({ id: run.id, status: 'COMPLETED', levels: [80], from: FROM, horizon: 2, createdBy: { type: 'API_KEY' } });
    expect(read.forecastRuns.edges.map((e: any) => e.node)).toEqual([{ id: run.id }]);
    expect(read.forecastRunSeries.totalCount).toBe(1);
    expect(read.forecastRunSeries.edges[0].node.points.map((p: any) => p.intervals.map((i: any) => i.level))).toEqual([[80], [80]]);
  });

  it('answers refusals as typed errors: ValidationError with fields, ConflictError for a read-only scenario', async () => {
    const MUTATION = `mutation ($id: ID!, $input: ForecastGenerateInput) { generateForecast(scenarioId: $id, input: $input) { ... on ForecastRun { id } ${REFUSAL} } }`;
    const invalid = await graphqlData(server, a.key, MUTATION, { id: draft, input: { horizon: 0, levels: [100] } });
    expect(refusalOf(invalid.generateForecast)).toMatchObject({ type: 'ValidationError', code: 'VALIDATION_ERROR', details: { horizon: expect.any(Array), levels: expect.any(Array) } });
    const published = await newScenario(null);
    await ok('POST', `/api/forecast/scenarios/${published}/publish`, 200);
    const conflict = await graphqlData(server, a.key, MUTATION, { id: published });
    expect(refusalOf(conflict.generateForecast)).toMatchObject({ type: 'ConflictError', code: 'INVALID_STATE' });
    // No input at all: every default (13 weeks from each series' history, 80 and 95 %).
    const defaults = await graphqlData(server, a.key, `mutation ($id: ID!) { generateForecast(scenarioId: $id) { ... on ForecastRun { horizon levels from totalSeries } } }`, { id: draft });
    expect(defaults.generateForecast).toEqual({ horizon: 13, levels: [80, 95], from: null, totalSeries: 4 });
    await runAll();
  });

  it("gives NOT_FOUND for another organization's run over the subscription", async () => {
    const theirRun = (await generate(theirScenario, {}, b.key)).body;
    const stream = open(client({ authorization: `Bearer ${a.key}` }), PROGRESS, { id: theirRun.id });
    const result = await stream.next();
    const errors = result.errors ?? result.error;
    expect(JSON.stringify(errors)).toMatch(/NOT_FOUND/);
    await runAll();
  });
});

describe('GET /api/forecast/accuracy?source=STORED', () => {
  it("measures a stored run's points against the recorded actuals, by hand on a tiny series", async () => {
    const c = await createTenant(server.app.prisma, { capabilities: [FORECASTING] });
    const product = await createProduct(server, c.key, 'ACC-1');
    // 8 weeks alternating 10/12 (naive-1 MAE 2, too short for a season), then two actuals: 12 and 8.
    const history = [10, 12, 10, 12, 10, 12, 10, 12, 12, 8];
    await insertWeeklyDemand(server.app.prisma, { organizationId: c.org.id, productMasterId: product, locationId: c.warehouse.id, firstWeek: FIRST_WEEK, values: history });
    const scenario = await newScenario(null, c);
    const get = (query: string) => server.call('GET', `/api/forecast/accuracy${query}`, { token: c.key });
    expect((await get(`?source=STORED&scenarioId=${scenario}`)).status).toBe(404);
    const from = weekAfter(FIRST_WEEK, 8);
    const run = (await generate(scenario, { from, horizon: 3 }, c.key)).body;
    await runAll();
    const [series] = (await server.call('GET', `/api/forecast/runs/${run.id}/series`, { token: c.key })).body.data;
    const [f8, f9] = series.points.map((p: any) => p.forecast);
    // Week 10 has no actual: not measured.
    const e8 = Math.abs(f8 - 12);
    const e9 = Math.abs(f9 - 8);
    const expected = {
      points: 2,
      zeroActualPoints: 0,
      scaledPoints: 2,
      actualTotal: 20,
      forecastTotal: f8 + f9,
      wape: (e8 + e9) / 20,
      bias: (f8 + f9 - 20) / 20,
      mape: (e8 / 12 + e9 / 8) / 2,
      mase: (e8 / 2 + e9 / 2) / 2,
    };
    const byRun = await get(`?source=STORED&runId=${run.id}&groupBy=total`);
    expect(byRun.status, JSON.stringify(byRun.body)).toBe(200);
    expect(byRun.body.meta).toMatchObject({ source: 'STORED', runId: run.id, groupBy: 'total', total: 1 });
    const [row] = byRun.body.data;
    for (const [key, value] of Object.entries(expected)) expect(row[key], key).toBeCloseTo(value, 3);
    // The scenario's latest completed run is the same one; by method names the series' method.
    const byScenario = await get(`?source=stored&scenarioId=${scenario}&groupBy=method`);
    expect(byScenario.body.meta.runId).toBe(run.id);
    expect(byScenario.body.data).toEqual([{ ...row, method: series.method }]);
    // A period filter narrows the measured weeks to the first.
    const first = (await get(`?source=STORED&runId=${run.id}&groupBy=total&to=${from}&from=${from}`)).body.data[0];
    expect(first).toMatchObject({ points: 1, actualTotal: 12 });
    expect(first.wape).toBeCloseTo(e8 / 12, 3);
  });
});
