import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlData, graphqlRefusal } from '../support/api.js';
import type { Tenant } from '../support/fixtures.js';
import { REFUSAL } from '../support/graphql.js';
import type { TestServer } from '../support/server.js';
import { startServerWithTwoTenants } from '../support/two-tenants.js';

// Endpoints of an organization: administrators only, secret shown once, event types checked, the SSRF guard at
// registration, and another tenant's endpoints out of reach. No delivery here (WEBHOOK_POLL_MS is 0).
let server: TestServer;
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants({ WEBHOOK_ALLOW_HOSTS: '127.0.0.1' }));
});
afterAll(() => server?.close());

const PUBLIC = 'https://93.184.215.14/hooks/scm';
const call = (method: string, path: string, body?: unknown, token = a.key) => server.call(method, path, { token, body });

describe('webhook endpoints', () => {
  it('creates with the secret once, lists, reads, changes, rotates and deletes', async () => {
    const created = await call('POST', '/api/webhooks/endpoints', { url: PUBLIC, eventTypes: ['stock.changed', 'stock.changed', 'transfer.shipped'], description: 'ERP' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ url: PUBLIC, eventTypes: ['stock.changed', 'transfer.shipped'], description: 'ERP', active: true, consecutiveFailures: 0, disabledAt: null });
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const id = created.body.id as string;

    const got = await call('GET', `/api/webhooks/endpoints/${id}`);
    expect(got.status).toBe(200);
    expect(got.body.secret).toBeUndefined();
    const list = await call('GET', '/api/webhooks/endpoints');
    expect(list.body.data.map((e: { id: string }) => e.id)).toContain(id);
    expect(JSON.stringify(list.body)).not.toContain(created.body.secret);

    const changed = await call('PATCH', `/api/webhooks/endpoints/${id}`, { eventTypes: ['*'], active: false, description: null });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ eventTypes: ['*'], active: false, description: null, url: PUBLIC });

    const rotated = await call('POST', `/api/webhooks/endpoints/${id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(created.body.secret);

    // GraphQL: the same endpoint as a Node, in the connection.
    const data = await graphqlData(server, a.key, `query ($id: ID!) { node(id: $id) { ... on WebhookEndpoint { id url active } } webhookEndpoints(first: 5) { totalCount edges { node { id } } } }`, { id });
    expect(data.node).toEqual({ id, url: PUBLIC, active: false });
    expect(data.webhookEndpoints.edges.map((e: { node: { id: string } }) => e.node.id)).toContain(id);

    const deleted = await call('DELETE', `/api/webhooks/endpoints/${id}`);
    expect(deleted.status).toBe(200);
    expect((await call('GET', `/api/webhooks/endpoints/${id}`)).status).toBe(404);
  });

  it('refuses unknown event types and fields, and bad input, with 400 naming the field', async () => {
    const unknownType = await call('POST', '/api/webhooks/endpoints', { url: PUBLIC, eventTypes: ['stock.exploded'] });
    expect(unknownType.status).toBe(400);
    expect(unknownType.body.details.eventTypes).toBeDefined();
    expect((await call('POST', '/api/webhooks/endpoints', { url: PUBLIC, eventTypes: [] })).body.details.eventTypes).toBeDefined();
    expect((await call('POST', '/api/webhooks/endpoints', { url: PUBLIC, eventTypes: ['*'], secret: 'mine' })).status).toBe(400);
    expect((await call('POST', '/api/webhooks/endpoints', { url: 'not a url', eventTypes: ['*'] })).body.details.url).toBeDefined();
    expect((await call('POST', '/api/webhooks/endpoints', { url: `https://x.example/${'a'.repeat(2000)}`, eventTypes: ['*'] })).body.details.url).toBeDefined();
    expect((await call('GET', '/api/webhooks/endpoints/x/deliveries?status=LOST')).status).toBe(400);
  });

  it.each([
    ['http://93.184.215.14/hook', 'https'],
    ['https://localhost/hook', '127.0.0.1'],
    ['https://127.0.0.2/hook', 'not a public address'],
    ['https://10.1.2.3/hook', 'not a public address'],
    ['https://172.16.0.1/hook', 'not a public address'],
    ['https://192.168.1.1/hook', 'not a public address'],
    ['https://169.254.169.254/latest/meta-data', '169.254.169.254'],
    ['https://100.64.0.1/hook', 'not a public address'],
    ['https://0.0.0.0/hook', 'not a public address'],
    ['https://224.0.0.1/hook', 'not a public address'],
    ['https://[::1]/hook', 'not a public address'],
    ['https://[fd00::1]/hook', 'not a public address'],
    ['https://[fe80::1]/hook', 'not a public address'],
    ['https://[::ffff:127.0.0.1]/hook', 'not a public address'],
    ['https://[::ffff:a9fe:a9fe]/hook', 'not a public address'],
    ['https://167772161/hook', '10.0.0.1'],
    ['https://user:pw@93.184.215.14/hook', 'user name'],
  ])('the SSRF guard refuses %s (400 on url), at creation and on change', async (url, why) => {
    const refused = await call('POST', '/api/webhooks/endpoints', { url, eventTypes: ['*'] });
    expect(refused.status, JSON.stringify(refused.body)).toBe(400);
    expect(refused.body.code).toBe('VALIDATION_ERROR');
    expect(refused.body.details.url.join(' ')).toContain(why);
    const ok = await call('POST', '/api/webhooks/endpoints', { url: PUBLIC, eventTypes: ['*'] });
    const changed = await call('PATCH', `/api/webhooks/endpoints/${ok.body.id}`, { url });
    expect(changed.status).toBe(400);
    expect((await call('GET', `/api/webhooks/endpoints/${ok.body.id}`)).body.url).toBe(PUBLIC);
    await call('DELETE', `/api/webhooks/endpoints/${ok.body.id}`);
  });

  it('lets the operator exempt a host (WEBHOOK_ALLOW_HOSTS=127.0.0.1: http and loopback for it only)', async () => {
    const allowed = await call('POST', '/api/webhooks/endpoints', { url: 'http://127.0.0.1:9/hook', eventTypes: ['*'] });
    expect(allowed.status).toBe(201);
    await call('DELETE', `/api/webhooks/endpoints/${allowed.body.id}`);
  });

  it('answers GraphQL refusals typed', async () => {
    const refusal = await graphqlRefusal(
      server,
      a.key,
      `mutation ($input: WebhookEndpointCreateInput!) { createWebhookEndpoint(input: $input) { __typename ${REFUSAL} } }`,
      { input: { url: 'https://10.0.0.1/x', eventTypes: ['*'] } },
    );
    expect(refusal).toMatchObject({ type: 'ValidationError', code: 'VALIDATION_ERROR' });
    const missing = await graphqlRefusal(
      server,
      a.key,
      `mutation { rotateWebhookEndpointSecret(input: { id: "nope" }) { __typename ${REFUSAL} } }`,
    );
    expect(missing).toMatchObject({ type: 'NotFoundError', code: 'NOT_FOUND' });
  });

  it('needs admin.read to read and admin.write to change; another tenant gets 404', async () => {
    const created = await call('POST', '/api/webhooks/endpoints', { url: PUBLIC, eventTypes: ['*'] });
    const id = created.body.id as string;
    const manager = await a.userWith('MANAGER');
    const managerToken = (await server.call('POST', '/api/auth/sign-in', { body: { email: manager.email, password: manager.password } })).body.token as string;
    const adminReader = await a.keyWith(['admin:read']);
    const inventoryKey = await a.keyWith(['inventory:*']);
    for (const token of [managerToken, inventoryKey]) {
      expect((await call('GET', '/api/webhooks/endpoints', undefined, token)).status).toBe(403);
      expect((await call('GET', `/api/webhooks/endpoints/${id}`, undefined, token)).status).toBe(403);
    }
    expect((await call('GET', `/api/webhooks/endpoints/${id}`, undefined, adminReader)).status).toBe(200);
    expect((await call('GET', `/api/webhooks/endpoints/${id}/deliveries`, undefined, adminReader)).status).toBe(200);
    for (const token of [managerToken, inventoryKey, adminReader]) {
      expect((await call('POST', '/api/webhooks/endpoints', { url: PUBLIC, eventTypes: ['*'] }, token)).status).toBe(403);
      expect((await call('PATCH', `/api/webhooks/endpoints/${id}`, { active: false }, token)).status).toBe(403);
      expect((await call('POST', `/api/webhooks/endpoints/${id}/rotate-secret`, undefined, token)).status).toBe(403);
      expect((await call('DELETE', `/api/webhooks/endpoints/${id}`, undefined, token)).status).toBe(403);
    }
    const adminWriter = await a.keyWith(['admin:write']);
    expect((await call('PATCH', `/api/webhooks/endpoints/${id}`, { description: 'by admin:write' }, adminWriter)).status).toBe(200);
    expect((await server.call('GET', '/api/webhooks/endpoints')).status).toBe(401);

    // Tenant b: a's endpoint is 404 on every path and absent from b's list.
    for (const [method, path, body] of [
      ['GET', `/api/webhooks/endpoints/${id}`],
      ['PATCH', `/api/webhooks/endpoints/${id}`, { active: false }],
      ['POST', `/api/webhooks/endpoints/${id}/rotate-secret`],
      ['DELETE', `/api/webhooks/endpoints/${id}`],
      ['GET', `/api/webhooks/endpoints/${id}/deliveries`],
      ['GET', `/api/webhooks/endpoints/${id}/deliveries/${id}`],
      ['POST', `/api/webhooks/endpoints/${id}/deliveries/${id}/replay`],
    ] as [string, string, unknown?][]) {
      expect((await call(method, path, body, b.key)).status, `${method} ${path}`).toBe(404);
    }
    expect((await call('GET', '/api/webhooks/endpoints', undefined, b.key)).body.data).toEqual([]);
    const node = await graphqlData(server, b.key, `query ($id: ID!) { node(id: $id) { id } webhookEndpoint(id: $id) { id } }`, { id });
    expect(node).toEqual({ node: null, webhookEndpoint: null });
    expect((await call('GET', `/api/webhooks/endpoints/${id}`)).body).toMatchObject({ active: true, description: 'by admin:write' });
  });

  it('caps an organization at 20 endpoints (409)', async () => {
    const token = await b.keyWith(['*']);
    for (let i = 0; i < 20; i++) expect((await call('POST', '/api/webhooks/endpoints', { url: `${PUBLIC}/${i}`, eventTypes: ['*'] }, token)).status).toBe(201);
    const over = await call('POST', '/api/webhooks/endpoints', { url: PUBLIC, eventTypes: ['*'] }, token);
    expect(over.status).toBe(409);
    expect(over.body.code).toBe('INVALID_STATE');
  });
});
