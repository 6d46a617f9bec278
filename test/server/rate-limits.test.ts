import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { wsConnection } from '../support/graphql-ws.js';
import { startTestServer, type TestServer } from '../support/server.js';

// Small limits; TRUST_PROXY lets each test speak from its own address (X-Forwarded-For).
const ENV = {
  RATE_LIMIT_PER_API_KEY: '5',
  RATE_LIMIT_PER_USER: '4',
  RATE_LIMIT_PER_ADDRESS: '8',
  RATE_LIMIT_ANONYMOUS_PER_ADDRESS: '3',
  TRUST_PROXY: 'true',
};

let server: TestServer;
let tenant: Tenant;
let address = 0;
const nextAddress = () => `203.0.113.${++address}`;

beforeAll(async () => {
  server = await startTestServer(ENV);
  tenant = await createTenant(server.app.prisma);
});
afterAll(() => server?.close());

const get = (path: string, from: string, token?: string) => server.call('GET', path, { token, headers: { 'x-forwarded-for': from } });

async function expectHealthy() {
  const health = await fetch(`${server.url}/health`, { signal: AbortSignal.timeout(2000) });
  expect(health.status).toBe(200);
}

function expectRefused(res: { status: number; body: any; headers: Headers }) {
  expect(res.status).toBe(429);
  expect(res.body).toEqual({ error: expect.stringMatching(/^Too many requests/), code: 'RATE_LIMITED', retryAfter: expect.any(Number) });
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBe(res.body.retryAfter);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(res.headers.get('ratelimit-remaining')).toBe('0');
}

describe('request rate limits', () => {
  it('limits an API key to 5 requests a minute, with RateLimit headers on every answer', async () => {
    const key = await tenant.keyWith(['*']);
    const from = nextAddress();
    for (let i = 0; i < 5; i++) {
      const res = await get('/api/products', from, key);
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBe('5');
      expect(res.headers.get('ratelimit-remaining')).toBe(String(4 - i));
      expect(Number(res.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
      expect(res.headers.get('ratelimit-policy')).toBe('5;w=60');
    }
    expectRefused(await get('/api/products', from, key));
    // The same key from another address is still refused; another key from the first address is not.
    expectRefused(await get('/api/products', nextAddress(), key));
    expect((await get('/api/products', from, await tenant.keyWith(['*']))).status).toBe(200);
    await expectHealthy();
  });

  it('limits a signed-in user across sessions to 4 requests a minute', async () => {
    const user = await tenant.userWith('VIEWER');
    const session = async () =>
      (await server.call('POST', '/api/auth/sign-in', { body: { email: user.email, password: user.password }, headers: { 'x-forwarded-for': nextAddress() } })).body.token as string;
    const first = await session();
    for (let i = 0; i < 4; i++) expect((await get('/api/products', nextAddress(), first)).status).toBe(200);
    expectRefused(await get('/api/products', nextAddress(), first));
    // A new session of the same user shares the user's count.
    expectRefused(await get('/api/products', nextAddress(), await session()));
    await expectHealthy();
  });

  it('limits an address to 8 credentialed requests a minute, however many keys it sprays', async () => {
    const from = nextAddress();
    const keys = [await tenant.keyWith(['*']), await tenant.keyWith(['*']), await tenant.keyWith(['*'])];
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await get('/api/products', from, keys[i % 3])).status);
    expect(statuses).toEqual(Array(8).fill(200));
    expectRefused(await get('/api/products', from, keys[0]));
    // Made-up keys are counted by the address too, before any database lookup.
    expectRefused(await get('/api/products', from, `scm_guess_${Date.now()}`));
    expect((await get('/api/products', nextAddress(), keys[0])).status).toBe(200);
    await expectHealthy();
  });

  it('limits requests without credentials to 3 a minute per address, GraphQL included', async () => {
    const from = nextAddress();
    for (let i = 0; i < 3; i++) expect((await get('/api/products', from)).status).toBe(401);
    expectRefused(await get('/api/products', from));
    const graphql = await server.call('POST', '/graphql', { body: { query: '{ viewer { organizationId } }' }, headers: { 'x-forwarded-for': from } });
    expect(graphql.status).toBe(429);
    expect(graphql.body).toEqual({ errors: [{ message: expect.stringMatching(/^Too many requests/), extensions: { code: 'RATE_LIMITED', retryAfter: expect.any(Number) } }] });
    expect(graphql.headers.get('retry-after')).toBe(String(graphql.body.errors[0].extensions.retryAfter));
    // A token that is not a valid session counts as no credentials.
    expectRefused(await get('/api/products', from, 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.forged'));
    expect((await get('/api/products', nextAddress())).status).toBe(401);
  });

  it('counts graphql-ws connections and subscribe messages against the same limits', async () => {
    const key = await tenant.keyWith(['*']);
    const follow = 'subscription($id: ID!) { importJobProgress(id: $id) { id } }';
    const socket = wsConnection(server.url);
    // The connection is the key's first request; four subscribes use up the other four.
    await socket.init({ authorization: `Bearer ${key}` });
    for (let i = 0; i < 4; i++) {
      const answer = await socket.result(await socket.subscribe(follow, { id: crypto.randomUUID() }));
      expect(answer.payload.errors[0].extensions.code).toBe('NOT_FOUND');
    }
    const refused = await socket.result(await socket.subscribe(follow, { id: crypto.randomUUID() }));
    expect(refused.type).toBe('error');
    expect(refused.payload[0]).toMatchObject({ message: expect.stringMatching(/^Too many requests/), extensions: { code: 'RATE_LIMITED', retryAfter: expect.any(Number) } });
    socket.close();
    // A new connection with the spent key is closed before it is acknowledged; HTTP refuses the key too.
    const again = wsConnection(server.url);
    await again.send({ type: 'connection_init', payload: { authorization: `Bearer ${key}` } });
    const closed = await again.closed;
    expect(closed.code).toBe(4429);
    expect(closed.reason).toMatch(/^RATE_LIMITED: Too many requests/);
    expect(again.messages.some((m) => m.type === 'connection_ack')).toBe(false);
    expectRefused(await get('/api/products', nextAddress(), key));
  });

  it('never limits /health or CORS preflights', async () => {
    const from = nextAddress();
    for (let i = 0; i < 4; i++) await get('/api/products', from);
    expectRefused(await get('/api/products', from));
    for (let i = 0; i < 10; i++) {
      const res = await get('/health', from);
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBeNull();
      const preflight = await server.call('OPTIONS', '/graphql', { headers: { 'x-forwarded-for': from, origin: 'http://example.test', 'access-control-request-method': 'POST' } });
      expect(preflight.status).not.toBe(429);
    }
  });

  it('are documented as a 429 response of every operation in the OpenAPI description', async () => {
    const doc = (await get('/api/openapi.json', nextAddress())).body;
    for (const methods of Object.values(doc.paths as Record<string, Record<string, any>>)) {
      for (const operation of Object.values(methods)) {
        expect(operation.responses[429].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/RateLimitedError' });
        expect(operation.responses[429].headers['Retry-After']).toBeDefined();
      }
    }
  });
});
