import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct, graphqlData } from '../support/api.js';
import type { Tenant } from '../support/fixtures.js';
import type { TestServer } from '../support/server.js';
import { addStock } from '../support/stock.js';
import { startServerWithTwoTenants } from '../support/two-tenants.js';
import { startReceiver, verifySignature } from './webhook-receiver.js';

// Delivery from the outbox to a local receiver (docs/webhooks.md): signed, retried after failures, FAILED after
// the last attempt, the endpoint disabled after a run of failures (with a webhook_endpoint.disabled event),
// replayed on demand; one organization's events never reach another's endpoint. On both databases.
let server: TestServer;
let a: Tenant;
let b: Tenant;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let productA: string;
let productB: string;

beforeAll(async () => {
  receiver = await startReceiver();
  ({ server, a, b } = await startServerWithTwoTenants({
    WEBHOOK_POLL_MS: '20',
    WEBHOOK_ALLOW_HOSTS: '127.0.0.1,localhost',
    WEBHOOK_RETRY_BASE_MS: '20',
    WEBHOOK_RETRY_MAX_MS: '100',
    WEBHOOK_MAX_ATTEMPTS: '3',
    WEBHOOK_DISABLE_AFTER: '4',
    WEBHOOK_TIMEOUT_MS: '5000',
  }));
  productA = await createProduct(server, a.key, 'WH-A');
  productB = await createProduct(server, b.key, 'WH-B');
});
afterAll(async () => {
  await server?.close();
  await receiver?.close();
});

async function endpoint(tenant: Tenant, path: string, eventTypes = ['stock.changed']) {
  const res = await server.call('POST', '/api/webhooks/endpoints', { token: tenant.key, body: { url: receiver.url(path), eventTypes } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; secret: string };
}

const receive = (tenant: Tenant, lotCode: string, product = tenant === a ? productA : productB) =>
  addStock(server.app, tenant.org.id, { productMasterId: product, locationId: tenant.warehouse.id, lotCode }, { ON_HAND: 5 });

const deliveriesOf = async (tenant: Tenant, endpointId: string, query = '') => {
  const res = await server.call('GET', `/api/webhooks/endpoints/${endpointId}/deliveries${query}`, { token: tenant.key });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { id: string; status: string; eventType: string; attemptCount: number; attempts: { number: number; statusCode: number | null; error: string | null }[] }[];
};

/** Reads the endpoint's deliveries until `done` holds of them (the test's timeout bounds it). */
async function deliveriesUntil(tenant: Tenant, endpointId: string, done: (list: Awaited<ReturnType<typeof deliveriesOf>>) => boolean) {
  for (;;) {
    const list = await deliveriesOf(tenant, endpointId);
    if (done(list)) return list;
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('webhook delivery', { timeout: 60_000 }, () => {
  it("POSTs a signed event to its organization's endpoint only, with Webhook-Id", async () => {
    const mine = await endpoint(a, '/a');
    const theirs = await endpoint(b, '/b');
    const line = await receive(a, 'A1');
    await receive(b, 'B1');
    const got = await receiver.until((all) => all.some((r) => r.path === '/a' && r.json.data?.stockLineId === line.id) && all.some((r) => r.path === '/b'));
    const request = got.find((r) => r.path === '/a' && r.json.data?.stockLineId === line.id)!;
    expect(verifySignature(mine.secret, request.signature, request.body)).toBe(true);
    expect(verifySignature(theirs.secret, request.signature, request.body)).toBe(false);
    expect(request.signature).toMatch(/^t=\d{10},v1=[0-9a-f]{64}$/);
    expect(Math.abs(Number(/t=(\d+)/.exec(request.signature)![1]) - Date.now() / 1000)).toBeLessThan(600);
    expect(request.json).toMatchObject({ type: 'stock.changed', organizationId: a.org.id, data: { stockLineId: line.id, changes: [{ bucket: 'ON_HAND', deltaQty: 5 }] } });
    expect(request.json.id).toMatch(/^\d+$/);
    expect(Date.parse(request.json.createdAt)).not.toBeNaN();
    // Isolation: each endpoint got its own organization's events only.
    expect(got.filter((r) => r.path === '/a').every((r) => r.json.organizationId === a.org.id)).toBe(true);
    expect(got.filter((r) => r.path === '/b').every((r) => r.json.organizationId === b.org.id)).toBe(true);

    const [delivery] = await deliveriesUntil(a, mine.id, (list) => list.some((d) => d.status === 'DELIVERED'));
    expect(delivery).toMatchObject({ id: request.id, status: 'DELIVERED', eventType: 'stock.changed', attemptCount: 1, attempts: [{ number: 1, statusCode: 200, error: null }] });
    const one = await server.call('GET', `/api/webhooks/endpoints/${mine.id}/deliveries/${request.id}`, { token: a.key });
    expect(one.body).toMatchObject({ id: request.id, attempts: [{ statusCode: 200, responseExcerpt: 'ok' }] });
    expect((await server.call('GET', `/api/webhooks/endpoints/${theirs.id}/deliveries/${request.id}`, { token: b.key })).status).toBe(404);
    // GraphQL: the same delivery.
    const data = await graphqlData(server, a.key, `query ($e: ID!) { webhookDeliveries(endpointId: $e, status: DELIVERED, first: 5) { totalCount edges { node { id status attempts { statusCode } } } } }`, { e: mine.id });
    expect(data.webhookDeliveries.edges.map((e: { node: { id: string } }) => e.node.id)).toContain(request.id);
    for (const id of [mine.id, theirs.id]) await server.call('DELETE', `/api/webhooks/endpoints/${id}`, { token: id === mine.id ? a.key : b.key });
  });

  it('connects by host name to the addresses it resolved and checked (the custom lookup)', async () => {
    const res = await server.call('POST', '/api/webhooks/endpoints', { token: a.key, body: { url: `http://localhost:${receiver.port()}/by-name`, eventTypes: ['stock.changed'] } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const line = await receive(a, 'N1');
    const got = await receiver.until((all) => all.some((r) => r.path === '/by-name' && r.json.data?.stockLineId === line.id));
    expect(verifySignature(res.body.secret, got.find((r) => r.path === '/by-name')!.signature, got.find((r) => r.path === '/by-name')!.body)).toBe(true);
    await server.call('DELETE', `/api/webhooks/endpoints/${res.body.id}`, { token: a.key });
  });

  it('checks the URL again before each attempt, cuts a long answer at 64 KB and a silent receiver at the timeout', async () => {
    // An endpoint whose URL now points inside (as if its DNS had changed since registration).
    const moved = await endpoint(a, '/moved');
    await server.app.prisma.webhookEndpoint.update({ where: { id: moved.id }, data: { url: 'https://169.254.169.254/latest/meta-data' } });
    const big = await endpoint(a, '/big');
    receiver.script('/hang', [0]);
    const hang = await endpoint(a, '/hang');
    await receive(a, 'G1');
    // At least one attempt: the retries come soon after (a loaded machine may read the list after the second).
    const [refused] = await deliveriesUntil(a, moved.id, (list) => (list[0]?.attempts.length ?? 0) >= 1);
    expect(refused!.attempts[0]).toMatchObject({ statusCode: null });
    expect(refused!.attempts[0]!.error).toContain('URL not allowed');
    const [bigDelivery] = await deliveriesUntil(a, big.id, (list) => list[0]?.status === 'DELIVERED');
    const bigAttempt = (await server.call('GET', `/api/webhooks/endpoints/${big.id}/deliveries/${bigDelivery!.id}`, { token: a.key })).body.attempts[0];
    expect(bigAttempt).toMatchObject({ statusCode: 200, error: null });
    expect(bigAttempt.responseExcerpt).toBe('x'.repeat(1000));
    const [silent] = await deliveriesUntil(a, hang.id, (list) => (list[0]?.attempts.length ?? 0) >= 1);
    expect(silent!.attempts[0]).toMatchObject({ statusCode: null, error: 'No answer within 5000 ms' });
    expect(receiver.received.some((r) => r.path === '/moved')).toBe(false);
    for (const id of [moved.id, big.id, hang.id]) await server.call('DELETE', `/api/webhooks/endpoints/${id}`, { token: a.key });
  });

  it('takes only the event types asked for', async () => {
    const transfers = await endpoint(a, '/transfers-only', ['transfer.shipped']);
    const all = await endpoint(a, '/everything', ['*']);
    const line = await receive(a, 'T1');
    await receiver.until((got) => got.some((r) => r.path === '/everything' && r.json.data?.stockLineId === line.id));
    // The fan-out wrote the event's deliveries in one transaction: none is for the transfers-only endpoint.
    expect(await deliveriesOf(a, transfers.id)).toEqual([]);
    expect(receiver.received.some((r) => r.path === '/transfers-only')).toBe(false);
    for (const id of [transfers.id, all.id]) await server.call('DELETE', `/api/webhooks/endpoints/${id}`, { token: a.key });
  });

  it('retries after 500s with backoff and delivers on the first 2xx; each attempt is listed', async () => {
    receiver.script('/flaky', [500, 503, 200]);
    const flaky = await endpoint(a, '/flaky');
    const line = await receive(a, 'F1');
    const [delivery] = await deliveriesUntil(a, flaky.id, (list) => list.some((d) => d.status === 'DELIVERED'));
    expect(delivery!.attempts.map((t) => t.statusCode)).toEqual([500, 503, 200]);
    expect(delivery!.attempts[0]!.error).toBe('Answered 500');
    const requests = receiver.received.filter((r) => r.path === '/flaky');
    expect(requests).toHaveLength(3);
    expect(new Set(requests.map((r) => r.id))).toEqual(new Set([delivery!.id]));
    expect(requests.every((r) => r.json.data.stockLineId === line.id && verifySignature(flaky.secret, r.signature, r.body))).toBe(true);
    // The success reset the endpoint's run of failures.
    expect((await server.call('GET', `/api/webhooks/endpoints/${flaky.id}`, { token: a.key })).body.consecutiveFailures).toBe(0);
    await server.call('DELETE', `/api/webhooks/endpoints/${flaky.id}`, { token: a.key });
  });

  it('fails a delivery after the last attempt, disables the endpoint after a run of failures with a notice, and replays once re-activated', async () => {
    receiver.script('/down', [500]);
    const notices = await endpoint(a, '/notices', ['webhook_endpoint.disabled']);
    const down = await endpoint(a, '/down');
    await receive(a, 'D1');
    const [failed] = await deliveriesUntil(a, down.id, (list) => list.some((d) => d.status === 'FAILED'));
    expect(failed!.attempts.map((t) => t.statusCode)).toEqual([500, 500, 500]);
    // 3 failures so far; the next event's first failure is the 4th in a row: the endpoint is disabled.
    await receive(a, 'D2');
    const notice = (await receiver.until((got) => got.some((r) => r.path === '/notices'))).find((r) => r.path === '/notices')!;
    expect(notice.json).toMatchObject({ type: 'webhook_endpoint.disabled', organizationId: a.org.id, data: { endpointId: down.id, url: receiver.url('/down'), consecutiveFailures: 4 } });
    expect(verifySignature(notices.secret, notice.signature, notice.body)).toBe(true);
    const disabled = (await server.call('GET', `/api/webhooks/endpoints/${down.id}`, { token: a.key })).body;
    expect(disabled).toMatchObject({ active: false, consecutiveFailures: 4 });
    expect(disabled.disabledReason).toContain('4 consecutive failed attempts');
    expect(disabled.disabledAt).not.toBeNull();
    const pending = (await deliveriesOf(a, down.id, '?status=pending'))[0]!;
    expect(pending.attemptCount).toBe(1);

    // While disabled nothing is sent and nothing can be replayed.
    const refused = await server.call('POST', `/api/webhooks/endpoints/${down.id}/deliveries/${failed!.id}/replay`, { token: a.key });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('INVALID_STATE');

    // The receiver is fixed; re-activating sends the waiting delivery, and replay sends the FAILED one again.
    receiver.script('/down', [200]);
    const active = await server.call('PATCH', `/api/webhooks/endpoints/${down.id}`, { token: a.key, body: { active: true } });
    expect(active.body).toMatchObject({ active: true, consecutiveFailures: 0, disabledAt: null, disabledReason: null });
    const replayed = await server.call('POST', `/api/webhooks/endpoints/${down.id}/deliveries/${failed!.id}/replay`, { token: a.key });
    expect(replayed.status, JSON.stringify(replayed.body)).toBe(200);
    expect(replayed.body).toMatchObject({ id: failed!.id, status: 'PENDING' });
    const done = await deliveriesUntil(a, down.id, (list) => list.length === 2 && list.every((d) => d.status === 'DELIVERED'));
    expect(done.find((d) => d.id === failed!.id)!.attempts.map((t) => t.statusCode)).toEqual([500, 500, 500, 200]);
    expect(done.find((d) => d.id === pending.id)!.attempts.map((t) => t.statusCode)).toEqual([500, 200]);

    // A DELIVERED delivery replays too: sent again with the same Webhook-Id (receivers de-duplicate on it).
    const before = receiver.received.filter((r) => r.id === pending.id).length;
    expect((await server.call('POST', `/api/webhooks/endpoints/${down.id}/deliveries/${pending.id}/replay`, { token: a.key })).status).toBe(200);
    await receiver.until((got) => got.filter((r) => r.id === pending.id).length === before + 1);
    for (const id of [notices.id, down.id]) await server.call('DELETE', `/api/webhooks/endpoints/${id}`, { token: a.key });
  });

  it("sends another organization's deliveries nowhere near this one's receiver, and refuses its ids", async () => {
    const mine = await endpoint(a, '/iso-a', ['*']);
    const theirs = await endpoint(b, '/iso-b', ['*']);
    const lines = [await receive(a, 'I1'), await receive(b, 'I2'), await receive(a, 'I3')];
    await receiver.until((got) => lines.every((line) => got.some((r) => r.json.data?.stockLineId === line.id)));
    const forA = receiver.received.filter((r) => r.path === '/iso-a');
    const forB = receiver.received.filter((r) => r.path === '/iso-b');
    expect(forA.map((r) => r.json.data.stockLineId)).toEqual(expect.arrayContaining([lines[0]!.id, lines[2]!.id]));
    expect(forA.some((r) => r.json.data.stockLineId === lines[1]!.id)).toBe(false);
    expect(forB.map((r) => r.json.data.stockLineId)).toEqual([lines[1]!.id]);
    const [bDelivery] = await deliveriesUntil(b, theirs.id, (list) => list.length === 1);
    expect((await server.call('POST', `/api/webhooks/endpoints/${mine.id}/deliveries/${bDelivery!.id}/replay`, { token: a.key })).status).toBe(404);
    expect((await server.call('GET', `/api/webhooks/endpoints/${theirs.id}/deliveries/${bDelivery!.id}`, { token: a.key })).status).toBe(404);
  });
});
