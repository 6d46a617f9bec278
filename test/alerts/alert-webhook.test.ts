import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tenant } from '../support/fixtures.js';
import type { TestServer } from '../support/server.js';
import { addStock } from '../support/stock.js';
import { startServerWithTwoTenants } from '../support/two-tenants.js';
import { startReceiver } from '../webhooks/webhook-receiver.js';
import { alertCalls } from './alert-support.js';

// alert.raised reaches an endpoint that asks for it (docs/alerts.md, docs/webhooks.md): the evaluator's event is
// an outbox row like any other, so the webhooks worker delivers it with no extra work.
let server: TestServer;
let a: Tenant;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  receiver = await startReceiver();
  ({ server, a } = await startServerWithTwoTenants({ EVENT_PUBLISH_POLL_MS: '20', ALERT_POLL_MS: '20', WEBHOOK_POLL_MS: '20', WEBHOOK_ALLOW_HOSTS: '127.0.0.1' }));
});
afterAll(async () => {
  await server?.close();
  await receiver?.close();
});

describe('alert.raised by webhook', () => {
  it('is POSTed to an endpoint of the organization that takes it', async () => {
    const s = alertCalls(server, a);
    const endpoint = await s.call('POST', '/api/webhooks/endpoints', { url: receiver.url('/alerts'), eventTypes: ['alert.raised'] });
    expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
    const rule = await s.rule({ kind: 'AVAILABLE_BELOW_MIN', severity: 'CRITICAL' });
    const productId = await s.product('HOOK-1');
    await s.level(productId, 5);
    const line = await addStock(server.app, a.org.id, { productMasterId: productId, locationId: a.warehouse.id }, { ON_HAND: 9 });
    await s.adjust(line.id, -6);
    const [alert] = await s.until(`productId=${productId}`, (alerts) => alerts.length === 1, 'raised');
    const got = await receiver.until((all) => all.some((r) => r.json.type === 'alert.raised'));
    const hook = got.find((r) => r.json.type === 'alert.raised')!;
    expect(hook.path).toBe('/alerts');
    expect(hook.json).toMatchObject({ organizationId: a.org.id, data: { alertId: alert.id, ruleId: rule.id, kind: 'AVAILABLE_BELOW_MIN', severity: 'CRITICAL', from: null, to: 'OPEN', subjectType: 'STOCK_LINE', subjectId: line.id } });
  });
});
