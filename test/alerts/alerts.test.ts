import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlData, graphqlError } from '../support/api.js';
import type { Tenant } from '../support/fixtures.js';
import { wsConnection } from '../support/graphql-ws.js';
import type { TestServer } from '../support/server.js';
import { addStock } from '../support/stock.js';
import { startServerWithTwoTenants } from '../support/two-tenants.js';
import { alertCalls } from './alert-support.js';

// Alerts on crafted stock (docs/alerts.md): the evaluator raises one alert per rule and product at a location,
// counts it seen again, resolves it (SYSTEM) when available is back at the minimum, and raises a new one when it
// drops again; users acknowledge and resolve; rules are an administrator's; another tenant sees and raises nothing.
let server: TestServer;
let a: Tenant;
let b: Tenant;
let s: ReturnType<typeof alertCalls>;
let t: ReturnType<typeof alertCalls>;

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants({ EVENT_PUBLISH_POLL_MS: '20', ALERT_POLL_MS: '20' }));
  s = alertCalls(server, a);
  t = alertCalls(server, b);
});
afterAll(() => server?.close());

let productId: string;
let lineId: string;
let ruleId: string;

describe('AVAILABLE_BELOW_MIN', () => {
  it('raises one alert, counts it seen again, resolves it by SYSTEM when the condition clears, and raises a new one when it returns', async () => {
    productId = await s.product('ALERT-1');
    await s.level(productId, 10);
    ruleId = (await s.rule({ kind: 'AVAILABLE_BELOW_MIN', severity: 'CRITICAL' })).id;
    // b has a rule of the same kind: a's stock must never raise it.
    await t.rule({ kind: 'AVAILABLE_BELOW_MIN' });
    lineId = (await addStock(server.app, a.org.id, { productMasterId: productId, locationId: a.warehouse.id }, { ON_HAND: 20 })).id;

    await s.adjust(lineId, -15);
    const [raised] = await s.until(`productId=${productId}&status=OPEN`, (alerts) => alerts.length === 1, 'raised');
    expect(raised).toMatchObject({
      ruleId,
      kind: 'AVAILABLE_BELOW_MIN',
      severity: 'CRITICAL',
      status: 'OPEN',
      productId,
      locationId: a.warehouse.id,
      subjectType: 'STOCK_LINE',
      subjectId: lineId,
      details: { available: 5, minQuantity: 10 },
      occurrences: 1,
      resolvedAt: null,
    });
    expect(raised.message).toContain('ALERT-1');

    await s.adjust(lineId, -1);
    const again = await s.until(`productId=${productId}`, (alerts) => alerts[0]?.occurrences === 2, 'seen again');
    expect(again).toHaveLength(1);
    expect(again[0]).toMatchObject({ id: raised.id, status: 'OPEN', details: { available: 4, minQuantity: 10 } });

    await s.adjust(lineId, 6);
    const [resolved] = await s.until(`productId=${productId}`, (alerts) => alerts[0]?.status === 'RESOLVED', 'resolved');
    expect(resolved).toMatchObject({ id: raised.id, resolvedByType: 'SYSTEM', resolvedBy: null });

    await s.adjust(lineId, -1);
    const both = await s.until(`productId=${productId}`, (alerts) => alerts.length === 2, 'raised again');
    expect(both.map((x) => x.status)).toEqual(['OPEN', 'RESOLVED']);
    expect(both[0].id).not.toBe(raised.id);

    // The database allows one open alert per rule and key, whoever writes.
    const open = await server.app.prisma.alert.findFirstOrThrow({ where: { id: both[0].id } });
    await expect(server.app.prisma.alert.create({ data: { ...open, id: undefined, details: {} } as never })).rejects.toThrow();

    // Every change of state told the outbox in its transaction.
    const events = await server.app.prisma.domainEvent.findMany({ where: { type: { startsWith: 'alert.' }, organizationId: a.org.id }, orderBy: { id: 'asc' } });
    expect(events.map((e) => [e.type, (e.payload as any).to])).toEqual([
      ['alert.raised', 'OPEN'],
      ['alert.resolved', 'RESOLVED'],
      ['alert.raised', 'OPEN'],
    ]);
  });

  it('is acknowledged and resolved by users through REST and GraphQL, recording who; a second resolve is 409', async () => {
    const [open] = await s.until(`productId=${productId}&status=open`, (alerts) => alerts.length === 1, 'open');
    const reader = await a.keyWith(['reports:read']);
    const acknowledged = await s.call('POST', `/api/alerts/${open.id}/acknowledge`, undefined, reader);
    expect(acknowledged.status, JSON.stringify(acknowledged.body)).toBe(200);
    expect(acknowledged.body).toMatchObject({ status: 'ACKNOWLEDGED', acknowledgedByType: 'API_KEY' });
    expect((await s.call('POST', `/api/alerts/${open.id}/acknowledge`)).status).toBe(409);

    const data = await graphqlData(
      server,
      a.key,
      `mutation ($id: ID!) { resolveAlert(input: { id: $id, note: "restocked" }) { ... on Alert { id status resolvedByType resolutionNote product { sku } location { id } rule { id kind } } } }`,
      { id: open.id },
    );
    expect(data.resolveAlert).toEqual({ id: open.id, status: 'RESOLVED', resolvedByType: 'API_KEY', resolutionNote: 'restocked', product: { sku: 'ALERT-1' }, location: { id: a.warehouse.id }, rule: { id: ruleId, kind: 'AVAILABLE_BELOW_MIN' } });
    const again = await s.call('POST', `/api/alerts/${open.id}/resolve`, { note: 'twice' });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('INVALID_STATE');
    expect((await s.call('POST', `/api/alerts/${open.id}/resolve`, { extra: 1 })).status).toBe(400);

    const node = await graphqlData(server, a.key, `query ($id: ID!) { node(id: $id) { ... on Alert { id status } } alerts(first: 10, productId: "${productId}") { totalCount } }`, { id: open.id });
    expect(node.node).toEqual({ id: open.id, status: 'RESOLVED' });
    expect(node.alerts.totalCount).toBe(2);
  });

  it('filters the list and refuses bad filters with 400', async () => {
    expect((await s.call('GET', `/api/alerts?kind=import_failed&productId=${productId}`)).body.data).toEqual([]);
    expect((await s.call('GET', `/api/alerts?severity=CRITICAL&productId=${productId}`)).body.total).toBe(2);
    expect((await s.call('GET', `/api/alerts?since=${new Date(Date.now() + 86_400_000).toISOString()}`)).body.data).toEqual([]);
    expect((await s.call('GET', '/api/alerts?status=LOST')).status).toBe(400);
    expect((await s.call('GET', '/api/alerts?limit=101')).status).toBe(400);
    expect((await s.call('GET', '/api/alerts?colour=red')).status).toBe(400);
  });
});

describe('rules', () => {
  it('are created, read, changed and deleted by an administrator; a reports-only key reads them and is refused changes (403)', async () => {
    const created = await s.rule({ kind: 'STOCK_REQUESTS_WAITING', threshold: 24, locationId: a.warehouse.id, severity: 'INFO' });
    expect(created).toMatchObject({ kind: 'STOCK_REQUESTS_WAITING', threshold: 24, locationId: a.warehouse.id, severity: 'INFO', enabled: true });
    const changed = await s.call('PATCH', `/api/alerts/rules/${created.id}`, { threshold: 48, enabled: false, locationId: null });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body).toMatchObject({ threshold: 48, enabled: false, locationId: null });
    expect((await s.call('GET', `/api/alerts/rules/${created.id}`)).body.threshold).toBe(48);

    const reader = await a.keyWith(['reports:read']);
    expect((await s.call('GET', '/api/alerts/rules', undefined, reader)).body.data.map((r: { id: string }) => r.id)).toContain(created.id);
    expect((await s.call('POST', '/api/alerts/rules', { kind: 'IMPORT_FAILED' }, reader)).status).toBe(403);
    expect((await s.call('PATCH', `/api/alerts/rules/${created.id}`, { enabled: true }, reader)).status).toBe(403);
    expect((await s.call('DELETE', `/api/alerts/rules/${created.id}`, undefined, reader)).status).toBe(403);
    const refusal = await graphqlError(server, reader, `mutation { createAlertRule(input: { kind: IMPORT_FAILED }) { ... on AlertRule { id } } }`);
    expect(JSON.stringify(refusal)).toContain('INSUFFICIENT_SCOPE');
    const inventoryOnly = await a.keyWith(['inventory:read']);
    expect((await s.call('GET', '/api/alerts', undefined, inventoryOnly)).status).toBe(403);

    expect((await s.call('DELETE', `/api/alerts/rules/${created.id}`)).status).toBe(200);
    expect((await s.call('GET', `/api/alerts/rules/${created.id}`)).status).toBe(404);
  });

  it('refuses a threshold or scope that does not fit the kind, and unknown fields, with 400 naming the field', async () => {
    const details = async (body: unknown) => (await s.call('POST', '/api/alerts/rules', body)).body.details;
    expect(await details({ kind: 'STOCK_REQUESTS_WAITING' })).toHaveProperty('threshold');
    expect(await details({ kind: 'LOTS_EXPIRING', threshold: 366 })).toHaveProperty('threshold');
    expect(await details({ kind: 'AVAILABLE_BELOW_MIN', threshold: 3 })).toHaveProperty('threshold');
    expect(await details({ kind: 'IMPORT_FAILED', locationId: a.warehouse.id })).toHaveProperty('locationId');
    expect(await details({ kind: 'NOT_A_KIND' })).toHaveProperty('kind');
    expect(await details({ kind: 'IMPORT_FAILED', colour: 'red' })).toBeDefined();
    expect((await s.call('POST', '/api/alerts/rules', { kind: 'AVAILABLE_BELOW_MIN', productId: 'nope' })).status).toBe(404);
  });
});

describe('isolation', () => {
  it("b never sees a's alerts or rules, gets 404 on their ids, and a's stock never raised b's rule", async () => {
    const [alert] = (await s.call('GET', `/api/alerts?productId=${productId}`)).body.data;
    expect((await t.call('GET', `/api/alerts/${alert.id}`)).status).toBe(404);
    expect((await t.call('POST', `/api/alerts/${alert.id}/acknowledge`)).status).toBe(404);
    expect((await t.call('POST', `/api/alerts/${alert.id}/resolve`)).status).toBe(404);
    expect((await t.call('GET', `/api/alerts/rules/${ruleId}`)).status).toBe(404);
    expect((await t.call('PATCH', `/api/alerts/rules/${ruleId}`, { enabled: false })).status).toBe(404);
    expect((await t.call('DELETE', `/api/alerts/rules/${ruleId}`)).status).toBe(404);
    expect((await t.call('GET', `/api/alerts?productId=${productId}`)).status).toBe(404);
    expect((await t.call('GET', '/api/alerts')).body.data).toEqual([]);
    expect((await t.call('GET', '/api/alerts/rules')).body.data.map((r: { id: string }) => r.id)).not.toContain(ruleId);
    const gql = await graphqlData(server, b.key, `query ($id: ID!) { alert(id: $id) { id } alertRule(id: $id) { id } node(id: $id) { id } alerts(first: 5) { totalCount } }`, { id: alert.id });
    expect(gql).toEqual({ alert: null, alertRule: null, node: null, alerts: { totalCount: 0 } });
  });
});

describe('IMPORT_FAILED', () => {
  it('raises an alert for a failed import job, with the job as its cause', async () => {
    const rule = await s.rule({ kind: 'IMPORT_FAILED', severity: 'WARNING' });
    const job = await s.call('POST', '/api/import/catalog', [{ externalId: 'X-1', name: 'x' }]);
    expect(job.status, JSON.stringify(job.body)).toBe(202);
    // No import worker runs here: fail the job as the worker does when an applier fails (its import.failed event is the trigger's).
    await server.app.prisma.importJob.update({ where: { id: job.body.jobId }, data: { state: 'FAILED', failureReason: 'Rows 1-1: broken', completedAt: new Date() } });
    const [alert] = await s.until('kind=IMPORT_FAILED', (alerts) => alerts.length === 1, 'import alert');
    expect(alert).toMatchObject({ ruleId: rule.id, status: 'OPEN', subjectType: 'IMPORT_JOB', subjectId: job.body.jobId, productId: null, locationId: null, details: { importKind: 'CATALOG', failureReason: 'Rows 1-1: broken' } });
    expect((await t.call('GET', '/api/alerts?kind=IMPORT_FAILED')).body.data).toEqual([]);
  });
});

describe('alertChanged', () => {
  /**
   * A new product's stock dropped below its minimum (an alert). The stream listens once the subscription answered its
   * start: the change comes only after a round trip.
   */
  async function productBelowMinimum(sku: string) {
    await graphqlData(server, a.key, '{ alerts(first: 1) { totalCount } }');
    const product = await s.product(sku);
    await s.level(product, 5);
    const line = await addStock(server.app, a.org.id, { productMasterId: product, locationId: a.warehouse.id }, { ON_HAND: 6 });
    await s.adjust(line.id, -2);
    return product;
  }

  it('sends a raised alert of the organization to a subscriber, and none of another organization', async () => {
    const ws = wsConnection(server.url);
    await ws.init({ authorization: `Bearer ${a.key}` });
    const id = await ws.subscribe(`subscription { alertChanged(severity: CRITICAL) { eventId from to alert { id kind status product { sku } } } }`);
    const other = wsConnection(server.url);
    await other.init({ authorization: `Bearer ${b.key}` });
    const otherId = await other.subscribe(`subscription { alertChanged { eventId to } }`);
    await productBelowMinimum('ALERT-SUB');
    const message = await ws.message((m) => m.id === id && m.type === 'next' && m.payload.data?.alertChanged.alert.product?.sku === 'ALERT-SUB');
    expect(message.payload.data.alertChanged).toMatchObject({ from: null, to: 'OPEN', alert: { kind: 'AVAILABLE_BELOW_MIN', status: 'OPEN' } });
    ws.close();
    expect(other.messages.filter((m) => m.id === otherId && m.type === 'next')).toEqual([]);
    other.close();
  });

  it('reads the records of each event as they are then: a product renamed between two events shows its new name', async () => {
    const ws = wsConnection(server.url);
    await ws.init({ authorization: `Bearer ${a.key}` });
    const id = await ws.subscribe(`subscription { alertChanged { eventId to alert { id product { sku name } } } }`);
    const product = await productBelowMinimum('ALERT-RENAMED');
    const raised = await ws.message((m) => m.id === id && m.type === 'next' && m.payload.data?.alertChanged.alert.product?.sku === 'ALERT-RENAMED');
    expect(raised.payload.data.alertChanged).toMatchObject({ to: 'OPEN', alert: { product: { name: 'ALERT-RENAMED' } } });
    const renamed = await s.call('PATCH', `/api/products/${product}`, { name: 'Renamed while subscribed' });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    const alertId = raised.payload.data.alertChanged.alert.id;
    const acknowledged = await s.call('POST', `/api/alerts/${alertId}/acknowledge`);
    expect(acknowledged.status, JSON.stringify(acknowledged.body)).toBe(200);
    const next = await ws.message((m) => m.id === id && (m.type !== 'next' || (m.payload.data?.alertChanged.to === 'ACKNOWLEDGED' && m.payload.data.alertChanged.alert.id === alertId)));
    expect(next.type, JSON.stringify(next)).toBe('next');
    expect(next.payload.data.alertChanged.alert.product).toEqual({ sku: 'ALERT-RENAMED', name: 'Renamed while subscribed' });
    ws.close();
  });
});
