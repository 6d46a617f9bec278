import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChannelFor, createLocationFor } from '../../src/services/admin/admin.js';
import { operatorContext } from '../../src/context.js';
import { processNextBatch } from '../../src/services/forecasting/runs/run-worker.js';
import { graphqlData } from '../support/api.js';
import { insertWeeklyDemand, weekAfter } from '../support/demand-history.js';
import type { Tenant } from '../support/fixtures.js';
import { FORECASTING } from '../support/forecasting.js';
import type { TestServer } from '../support/server.js';
import { addStock } from '../support/stock.js';
import { startServerWithTwoTenants } from '../support/two-tenants.js';
import { generate, RECS, stockedProduct } from '../transfers/recommendations/recommendation-setup.js';
import { alertCalls } from './alert-support.js';

// The kinds beyond the first four (docs/alerts.md): CHANNEL_ATP_CRITICAL on stock changes, RECOMMENDATIONS_WAITING
// and CYCLE_COUNT_OVERDUE by the sweep, FORECAST_ACCURACY_DEGRADED when a run completes; and STOCK_REQUESTS_WAITING
// raised by the sweep and resolved at once when the request is decided. Each raised on crafted data, resolved by
// SYSTEM when the condition clears; b has a rule of every kind and never sees a's alerts.
let server: TestServer;
let a: Tenant;
let b: Tenant;
let s: ReturnType<typeof alertCalls>;
let t: ReturnType<typeof alertCalls>;

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants(
    { EVENT_PUBLISH_POLL_MS: '20', ALERT_POLL_MS: '20', ALERT_SWEEP_SECONDS: '1', FORECAST_RUN_BATCH_SIZE: '10' },
    { capabilities: [FORECASTING] },
  ));
  s = alertCalls(server, a);
  t = alertCalls(server, b);
  for (const kind of ['CHANNEL_ATP_CRITICAL', 'STOCK_REQUESTS_WAITING', 'RECOMMENDATIONS_WAITING', 'CYCLE_COUNT_OVERDUE', 'FORECAST_ACCURACY_DEGRADED']) {
    await t.rule({ kind, threshold: kind === 'CHANNEL_ATP_CRITICAL' ? undefined : kind === 'CYCLE_COUNT_OVERDUE' ? 0 : 1 });
  }
}, 60_000);
afterAll(() => server?.close());

const setup = () => operatorContext(server.app.prisma, 'test-setup');

describe('rules of the new kinds', () => {
  it('take their thresholds and scopes, and refuse what does not fit', async () => {
    expect((await s.call('POST', '/api/alerts/rules', { kind: 'CHANNEL_ATP_CRITICAL', threshold: 3 })).body.details).toEqual({ threshold: ['CHANNEL_ATP_CRITICAL takes no threshold'] });
    expect((await s.call('POST', '/api/alerts/rules', { kind: 'RECOMMENDATIONS_WAITING' })).body.details.threshold[0]).toContain('Required for RECOMMENDATIONS_WAITING: hours, 1 to 720');
    expect((await s.call('POST', '/api/alerts/rules', { kind: 'FORECAST_ACCURACY_DEGRADED', threshold: 1001 })).status).toBe(400);
    expect((await s.call('POST', '/api/alerts/rules', { kind: 'CYCLE_COUNT_OVERDUE', threshold: 366 })).status).toBe(400);
    expect((await s.call('POST', '/api/alerts/rules', { kind: 'AVAILABLE_BELOW_MIN', threshold: 0 })).status).toBe(400);
    expect((await s.call('POST', '/api/alerts/rules', { kind: 'IMPORT_FAILED', productId: 'x' })).status).toBe(400);
    const theirProduct = await t.product('THEIRS-K');
    expect((await s.call('POST', '/api/alerts/rules', { kind: 'CYCLE_COUNT_OVERDUE', threshold: 0, productId: theirProduct })).status).toBe(404);
  });
});

describe('CHANNEL_ATP_CRITICAL', () => {
  it('lists the channels with nothing to promise, follows stock changes, and resolves when none is critical', async () => {
    const web = (await createChannelFor(setup(), { organizationId: a.org.id, name: 'Web', type: 'ONLINE' })).id;
    const shop = (await createChannelFor(setup(), { organizationId: a.org.id, name: 'Shop', type: 'RETAIL' })).id;
    // Web may promise half of available at the warehouse; Shop has no policy there: all of available.
    await graphqlData(server, a.key, 'mutation ($input: SetAllocationPolicyInput!) { setAllocationPolicy(input: $input) { ... on AllocationPolicy { id } } }', {
      input: { channelId: web, locationId: a.warehouse.id, mode: 'SHARE', sharePct: 0.5 },
    });
    const productId = await s.product('ATP-1');
    const rule = await s.rule({ kind: 'CHANNEL_ATP_CRITICAL', productId, severity: 'CRITICAL' });
    const line = await addStock(server.app, a.org.id, { productMasterId: productId, locationId: a.warehouse.id }, { ON_HAND: 3 });

    // 1 left: Web's half rounds down to 0 (critical), Shop's 1 is not.
    await s.adjust(line.id, -2);
    const [raised] = await s.until(`kind=CHANNEL_ATP_CRITICAL&productId=${productId}`, (alerts) => alerts.length === 1, 'raised');
    expect(raised).toMatchObject({ ruleId: rule.id, status: 'OPEN', severity: 'CRITICAL', locationId: a.warehouse.id, subjectType: 'STOCK_LINE', subjectId: line.id });
    expect(raised.details).toEqual({ available: 1, channels: [{ channelId: web, channelName: 'Web', atp: 0, policy: true }] });

    // 0 left: both channels critical, the same alert seen again with the new measure.
    await s.adjust(line.id, -1);
    const [both] = await s.until(`kind=CHANNEL_ATP_CRITICAL&productId=${productId}`, (alerts) => alerts[0]?.details.channels.length === 2, 'both channels');
    expect(both).toMatchObject({ id: raised.id, occurrences: 2, details: { available: 0 } });
    expect(both.details.channels.map((c: { channelId: string; channelName: string }) => [c.channelId, c.channelName])).toEqual([[shop, 'Shop'], [web, 'Web']]);
    expect(both.message).toContain('ATP-1');

    await s.adjust(line.id, 10);
    const [resolved] = await s.until(`kind=CHANNEL_ATP_CRITICAL&productId=${productId}`, (alerts) => alerts[0]?.status === 'RESOLVED', 'resolved');
    expect(resolved).toMatchObject({ id: raised.id, resolvedByType: 'SYSTEM' });
    expect((await t.call('GET', '/api/alerts')).body.total).toBe(0);
  });
});

describe('STOCK_REQUESTS_WAITING', () => {
  it('is raised by the sweep for a request waiting past the threshold and resolved at once when it is decided', async () => {
    const ward = await createLocationFor(setup(), { organizationId: a.org.id, code: 'WARD-K', name: 'Ward' });
    const productId = await s.product('SR-K');
    const rule = await s.rule({ kind: 'STOCK_REQUESTS_WAITING', threshold: 2, locationId: ward.id });
    const draft = async () => {
      const res = await s.call('POST', '/api/stock-requests', { requestingLocationId: ward.id, supplyingLocationId: a.warehouse.id, neededBy: '2031-05-01', lines: [{ productMasterId: productId, quantityRequested: 4 }] });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect((await s.call('POST', `/api/stock-requests/${res.body.id}/submit`, {})).status).toBe(200);
      return res.body as { id: string; number: number };
    };
    const old = await draft();
    const recent = await draft();
    // Submitted three hours ago (the sweep's threshold is two): only the old one waits too long.
    await server.app.prisma.$executeRaw`UPDATE stock_requests SET "submittedAt" = now() - interval '3 hours' WHERE id = ${old.id}`;

    const [raised] = await s.until(`kind=STOCK_REQUESTS_WAITING&locationId=${a.warehouse.id}`, (alerts) => alerts.length > 0, 'raised');
    expect(raised).toMatchObject({ ruleId: rule.id, subjectType: 'STOCK_REQUEST', subjectId: old.id, details: { waitingHours: 3, thresholdHours: 2 } });
    expect(raised.message).toContain(`Stock request ${old.number}`);
    expect((await s.call('GET', `/api/alerts?kind=STOCK_REQUESTS_WAITING`)).body.data.map((x: { subjectId: string }) => x.subjectId)).not.toContain(recent.id);

    expect((await s.call('POST', `/api/stock-requests/${old.id}/reject`, { reason: 'not this week' })).status).toBe(200);
    const [resolved] = await s.until(`kind=STOCK_REQUESTS_WAITING&locationId=${a.warehouse.id}`, (alerts) => alerts[0]?.status === 'RESOLVED', 'resolved');
    expect(resolved).toMatchObject({ id: raised.id, resolvedByType: 'SYSTEM' });
  });
});

describe('RECOMMENDATIONS_WAITING', () => {
  it('counts the PENDING recommendations into a location older than the threshold, one alert per location, resolved when none waits', async () => {
    const { productMasterId, locations } = await stockedProduct(server, a, [
      { min: 10, reorder: 20, max: 100, stock: 300 },
      { min: 10, reorder: 20, max: 50, stock: 0 },
    ]);
    const [rec] = (await generate(server, a.key, { productMasterId, unitMargin: 2 })).recommendations;
    const rule = await s.rule({ kind: 'RECOMMENDATIONS_WAITING', threshold: 24, productId: productMasterId });
    // Nothing yet: it was proposed just now. Let the sweep look, then make it 30 hours old.
    await new Promise((r) => setTimeout(r, 1500));
    expect((await s.call('GET', `/api/alerts?kind=RECOMMENDATIONS_WAITING`)).body.total).toBe(0);
    await server.app.prisma.$executeRaw`UPDATE transfer_recommendations SET "createdAt" = now() - interval '30 hours' WHERE id = ${rec.id}`;

    const [raised] = await s.until('kind=RECOMMENDATIONS_WAITING', (alerts) => alerts.length === 1, 'raised');
    expect(raised).toMatchObject({
      ruleId: rule.id,
      locationId: locations[1],
      productId: null,
      subjectType: 'TRANSFER_RECOMMENDATION',
      subjectId: rec.id,
      details: { waiting: 1, urgent: rec.priority === 'URGENT' ? 1 : 0, oldestWaitingHours: 30, thresholdHours: 24 },
    });

    expect((await s.call('POST', `${RECS}/${rec.id}/reject`, { comment: 'no' })).status).toBe(200);
    const [resolved] = await s.until('kind=RECOMMENDATIONS_WAITING', (alerts) => alerts[0]?.status === 'RESOLVED', 'resolved');
    expect(resolved).toMatchObject({ id: raised.id, resolvedByType: 'SYSTEM' });
    expect((await t.call('GET', '/api/alerts')).body.total).toBe(0);
  });
});

describe('CYCLE_COUNT_OVERDUE', () => {
  it('counts the products at a location past their count date by the threshold (and never counted), resolved once they are counted', async () => {
    const store = await createLocationFor(setup(), { organizationId: a.org.id, code: 'CC-K', name: 'Counted store' });
    const [late, recent, never] = [await s.product('CC-LATE'), await s.product('CC-RECENT'), await s.product('CC-NEVER')];
    const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000);
    // Class A is counted every 30 days: LATE is 10 days past due, RECENT 5 days before it, NEVER never counted.
    await server.app.prisma.inventoryLevel.createMany({
      data: [
        { organizationId: a.org.id, locationId: store.id, productMasterId: late, abcClass: 'A', lastCountedAt: daysAgo(40) },
        { organizationId: a.org.id, locationId: store.id, productMasterId: recent, abcClass: 'A', lastCountedAt: daysAgo(25) },
        { organizationId: a.org.id, locationId: store.id, productMasterId: never, abcClass: 'A', lastCountedAt: null },
      ],
    });
    const rule = await s.rule({ kind: 'CYCLE_COUNT_OVERDUE', threshold: 7, locationId: store.id });
    const [raised] = await s.until(`kind=CYCLE_COUNT_OVERDUE&locationId=${store.id}`, (alerts) => alerts.length === 1, 'raised');
    expect(raised).toMatchObject({ ruleId: rule.id, subjectType: 'LOCATION', subjectId: store.id, details: { overdueProducts: 2, neverCounted: 1, daysLate: 10, thresholdDays: 7 } });
    expect(raised.message).toContain('CC-K');

    // Counted today (a completed count sets lastCountedAt on the level, which the schedule follows).
    await server.app.prisma.inventoryLevel.updateMany({ where: { locationId: store.id }, data: { lastCountedAt: new Date() } });
    const [resolved] = await s.until(`kind=CYCLE_COUNT_OVERDUE&locationId=${store.id}`, (alerts) => alerts[0]?.status === 'RESOLVED', 'resolved');
    expect(resolved).toMatchObject({ id: raised.id, resolvedByType: 'SYSTEM' });
  });
});

describe('FORECAST_ACCURACY_DEGRADED', () => {
  const FIRST_WEEK = '2024-01-01';
  const FROM = weekAfter(FIRST_WEEK, 50);

  async function completedRun(scenarioId: string) {
    const res = await s.call('POST', `/api/forecast/scenarios/${scenarioId}/generate`, { from: FROM, horizon: 4 });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    while (await processNextBatch(server.app, { leaseMs: 60_000 }));
    const run = await s.call('GET', `/api/forecast/runs/${res.body.id}`);
    expect(run.body.status).toBe('COMPLETED');
    return res.body.id as string;
  }

  it("raises when a completed run's weeks with actuals are off by more than the threshold, and resolves when a later run is within it", async () => {
    const productId = await s.product('FC-K');
    await insertWeeklyDemand(server.app.prisma, { organizationId: a.org.id, productMasterId: productId, locationId: a.warehouse.id, firstWeek: FIRST_WEEK, values: Array(54).fill(100) });
    // The scenario doubles the forecast: about 200 against actuals of 100 in the four measured weeks.
    const scenario = await s.call('POST', '/api/forecast/scenarios', { name: 'Doubled', type: 'CUSTOM', assumptions: { globalLiftPct: 1 } });
    expect(scenario.status).toBe(201);
    const rule = await s.rule({ kind: 'FORECAST_ACCURACY_DEGRADED', threshold: 30, productId });
    const first = await completedRun(scenario.body.id);

    const [raised] = await s.until('kind=FORECAST_ACCURACY_DEGRADED', (alerts) => alerts.length === 1, 'raised');
    expect(raised).toMatchObject({ ruleId: rule.id, productId, subjectType: 'FORECAST_RUN', subjectId: first, details: { points: 4, actualTotal: 400, thresholdPercent: 30, scenarioId: scenario.body.id, runId: first } });
    expect(raised.details.wapePercent).toBeGreaterThan(80);
    expect(raised.message).toContain('Doubled');

    // The actuals of those weeks turn out doubled too: the next run is within the threshold.
    await server.app.prisma.$executeRaw`UPDATE demand_history SET "actualUnits" = 200 WHERE "productMasterId" = ${productId} AND "weekStart" >= ${FROM}::date`;
    await completedRun(scenario.body.id);
    const [resolved] = await s.until('kind=FORECAST_ACCURACY_DEGRADED', (alerts) => alerts[0]?.status === 'RESOLVED', 'resolved');
    expect(resolved).toMatchObject({ id: raised.id, resolvedByType: 'SYSTEM' });
    expect((await t.call('GET', '/api/alerts')).body.total).toBe(0);
  });
});
