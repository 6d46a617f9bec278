import net from 'node:net';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createApiKey, revokeApiKeyById, setOrganizationStatus } from '../../src/services/admin/admin.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { expectHealthy, wsConnection } from '../support/graphql-ws.js';
import { startTestServer, type TestServer } from '../support/server.js';

const PROGRESS = `subscription ($id: ID!) { importJobProgress(id: $id) { id state } }`;

/** A job no worker applies (the test servers run none), so its progress subscription stays open. */
async function pendingJob(server: TestServer, token: string) {
  const response = await server.call('POST', '/api/import/catalog', { token, body: [{ externalId: `WS-${randomBytes(4).toString('hex')}` }] });
  expect(response.status).toBe(202);
  return response.body.jobId as string;
}

/** A socket with one open importJobProgress subscription that has sent its first (PENDING) result. */
async function listening(server: TestServer, params: Record<string, unknown>, jobId: string) {
  const ws = wsConnection(server.url);
  await ws.init(params);
  const id = await ws.subscribe(PROGRESS, { id: jobId });
  expect((await ws.result(id)).payload.data.importJobProgress.state).toBe('PENDING');
  return ws;
}

async function signIn(server: TestServer, tenant: Tenant) {
  const response = await server.call('POST', '/api/auth/sign-in', { body: { email: tenant.admin.email, password: tenant.admin.password } });
  expect(response.status).toBe(200);
  return response.body.token as string;
}

describe('graphql-ws operations, checked when they start', () => {
  let server: TestServer;
  let a: Tenant;

  beforeAll(async () => {
    // The periodic check is far off and sessions are short, so each test sees the per-operation check
    // or a session's own end, not the periodic one.
    server = await startTestServer({ WS_CREDENTIAL_CHECK_SECONDS: '600', WS_MAX_SUBSCRIPTIONS: '2', WS_MAX_CONNECTIONS_PER_CALLER: '3', SESSION_TTL_SECONDS: '3' });
    a = await createTenant(server.app.prisma);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('refuses the next operation of a key revoked over the API, closing the socket 4401 REVOKED_API_KEY', async () => {
    const { apiKey, key } = await createApiKey(server.operator, { organizationId: a.org.id, name: 'ws', scopes: ['*'] });
    const jobId = await pendingJob(server, a.key);
    const ws = await listening(server, { authorization: `Bearer ${key}` }, jobId);
    // Keys are managed by signed-in admins only.
    const revoke = await server.call('POST', `/api/admin/api-keys/${apiKey.id}/revoke`, { token: await signIn(server, a) });
    expect(revoke.status).toBe(200);
    const refused = await ws.subscribe(PROGRESS, { id: jobId });
    expect(await ws.closed).toEqual({ code: 4401, reason: expect.stringMatching(/^REVOKED_API_KEY/) });
    expect(ws.messages.filter((m) => m.id === refused && m.type === 'next')).toEqual([]);
    await expectHealthy(server.url);
  });

  it('answers queries and mutations over the socket with OPERATION_NOT_ALLOWED and runs none of them', async () => {
    const ws = wsConnection(server.url);
    await ws.init({ authorization: `Bearer ${a.key}` });
    const query = await ws.result(await ws.subscribe('{ productsPage { total } }'));
    expect(query.type).toBe('error');
    expect(query.payload[0].extensions.code).toBe('OPERATION_NOT_ALLOWED');
    const mutation = await ws.result(await ws.subscribe('mutation { createProduct(input: {sku: "WS-MUTATION", name: "No"}) { ... on Product { id } } }'));
    expect(mutation.type).toBe('error');
    expect(mutation.payload[0].extensions.code).toBe('OPERATION_NOT_ALLOWED');
    expect(mutation.payload[0].message).toMatch(/POST \/graphql/);
    const products = await server.call('GET', '/api/products?search=WS-MUTATION', { token: a.key });
    expect(products.body.meta.total).toBe(0);
    // The socket stays open for subscriptions.
    const jobId = await pendingJob(server, a.key);
    const id = await ws.subscribe(PROGRESS, { id: jobId });
    expect((await ws.result(id)).payload.data.importJobProgress.state).toBe('PENDING');
    ws.close();
    await expectHealthy(server.url);
  });

  it('refuses an operation beyond WS_MAX_SUBSCRIPTIONS running on one socket with TOO_MANY_SUBSCRIPTIONS', async () => {
    const jobId = await pendingJob(server, a.key);
    const ws = await listening(server, { authorization: `Bearer ${a.key}` }, jobId);
    const second = await ws.subscribe(PROGRESS, { id: jobId });
    expect((await ws.result(second)).type).toBe('next');
    const third = await ws.result(await ws.subscribe(PROGRESS, { id: jobId }));
    expect(third.type).toBe('error');
    expect(third.payload[0].extensions.code).toBe('TOO_MANY_SUBSCRIPTIONS');
    ws.close();
    await expectHealthy(server.url);
  });

  it('closes a connection beyond WS_MAX_CONNECTIONS_PER_CALLER open for one key with 4429 TOO_MANY_CONNECTIONS', async () => {
    const { key } = await createApiKey(server.operator, { organizationId: a.org.id, name: 'ws', scopes: ['*'] });
    const open = [wsConnection(server.url), wsConnection(server.url), wsConnection(server.url)];
    for (const ws of open) await ws.init({ apiKey: key });
    const extra = wsConnection(server.url);
    await extra.send({ type: 'connection_init', payload: { apiKey: key } });
    expect(await extra.closed).toEqual({ code: 4429, reason: expect.stringMatching(/^TOO_MANY_CONNECTIONS/) });
    expect(open.map((ws) => ws.socket.readyState)).toEqual([WebSocket.OPEN, WebSocket.OPEN, WebSocket.OPEN]);
    // Another key is counted on its own.
    const other = wsConnection(server.url);
    await other.init({ apiKey: a.key });
    [...open, other].forEach((ws) => ws.close());
    await expectHealthy(server.url);
  });

  it("closes a session's socket when the session reaches its expiresAt, 4401 INVALID_TOKEN", async () => {
    const token = await signIn(server, a);
    const ws = await listening(server, { authorization: `Bearer ${token}` }, await pendingJob(server, a.key));
    expect(await ws.closed).toEqual({ code: 4401, reason: expect.stringMatching(/^INVALID_TOKEN/) });
    await expectHealthy(server.url);
  });

  it('closes an anonymous connection_init over WS_MAX_MESSAGE_BYTES with 1009', async () => {
    const ws = wsConnection(server.url);
    await ws.send({ type: 'connection_init', payload: { padding: 'x'.repeat(1024 * 1024) } });
    expect((await ws.closed).code).toBe(1009);
    expect(ws.messages).toEqual([]);
    await expectHealthy(server.url);
  });

  it('refuses a 90 MB message from its frame header, without waiting for the payload', async () => {
    const port = Number(new URL(server.url).port);
    const socket = net.connect(port, '127.0.0.1');
    let received = Buffer.alloc(0);
    socket.on('data', (chunk) => (received = Buffer.concat([received, chunk])));
    const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.on('error', () => {});
    socket.write(
      [
        'GET /graphql HTTP/1.1',
        `Host: 127.0.0.1:${port}`,
        'Upgrade: websocket',
        'Connection: Upgrade',
        `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
        'Sec-WebSocket-Version: 13',
        'Sec-WebSocket-Protocol: graphql-transport-ws',
        '',
        '',
      ].join('\r\n'),
    );
    await new Promise<void>((resolve) => socket.once('data', () => resolve()));
    expect(received.toString('latin1')).toMatch(/^HTTP\/1\.1 101/);
    // A masked text frame announcing 90 MB, followed by a few bytes of it only.
    const header = Buffer.alloc(14);
    header[0] = 0x81;
    header[1] = 0x80 | 127;
    header.writeBigUInt64BE(90n * 1024n * 1024n, 2);
    randomBytes(4).copy(header, 10);
    socket.write(Buffer.concat([header, Buffer.from('{"type":"connection_init"')]));
    const closeFrame = Buffer.from([0x88, 0x02, 0x03, 0xf1]); // close, 1009
    await new Promise<void>((resolve) => {
      const seen = () => received.includes(closeFrame) && (socket.off('data', seen), resolve());
      socket.on('data', seen);
      seen();
    });
    socket.destroy();
    await ended;
    await expectHealthy(server.url);
  });

  it('closes a socket that does not send connection_init within 3 seconds (4408)', async () => {
    const ws = wsConnection(server.url);
    await ws.opened;
    expect((await ws.closed).code).toBe(4408);
    await expectHealthy(server.url);
  });
});

describe('graphql-ws sockets that only listen, checked every WS_CREDENTIAL_CHECK_SECONDS', () => {
  let server: TestServer;
  let a: Tenant;

  beforeAll(async () => {
    server = await startTestServer({ API_KEY_CACHE_SECONDS: '0.5', WS_CREDENTIAL_CHECK_SECONDS: '0.2' });
    a = await createTenant(server.app.prisma);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('closes a socket whose key the admin CLI revoked (no cache cleared), 4401 REVOKED_API_KEY', async () => {
    const { apiKey, key } = await createApiKey(server.operator, { organizationId: a.org.id, name: 'ws', scopes: ['*'] });
    const ws = await listening(server, { apiKey: key }, await pendingJob(server, a.key));
    await revokeApiKeyById(server.operator, apiKey.id);
    expect(await ws.closed).toEqual({ code: 4401, reason: expect.stringMatching(/^REVOKED_API_KEY/) });
    await expectHealthy(server.url);
  });

  it('closes the socket of a session that signed out, 4401 INVALID_TOKEN', async () => {
    const token = await signIn(server, a);
    const ws = await listening(server, { authorization: `Bearer ${token}` }, await pendingJob(server, a.key));
    const signOut = await server.call('POST', '/api/auth/sign-out', { token });
    expect(signOut.status).toBeLessThan(300);
    expect(await ws.closed).toEqual({ code: 4401, reason: expect.stringMatching(/^INVALID_TOKEN/) });
    await expectHealthy(server.url);
  });

  it("closes key and session sockets of a deactivated organization, 4403 INACTIVE_ORGANIZATION", async () => {
    const c = await createTenant(server.app.prisma);
    const jobId = await pendingJob(server, c.key);
    const byKey = await listening(server, { authorization: `Bearer ${c.key}` }, jobId);
    const bySession = await listening(server, { authorization: `Bearer ${await signIn(server, c)}` }, jobId);
    await setOrganizationStatus(server.operator, c.org.id, 'INACTIVE');
    expect(await byKey.closed).toEqual({ code: 4403, reason: expect.stringMatching(/^INACTIVE_ORGANIZATION/) });
    expect(await bySession.closed).toEqual({ code: 4403, reason: expect.stringMatching(/^INACTIVE_ORGANIZATION/) });
    // Another organization's socket is left alone.
    const other = await listening(server, { authorization: `Bearer ${a.key}` }, await pendingJob(server, a.key));
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(other.socket.readyState).toBe(WebSocket.OPEN);
    other.close();
    await expectHealthy(server.url);
  });
});
