import { createConnection } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { startServer, type RunningServer } from '../../src/server/start.js';
import type { TestDatabase } from '../support/database.js';
import { createTenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

// Counters shared by several instances: in PostgreSQL (two servers on one database) and in Redis
// (two servers, each on its own database, one Redis at 127.0.0.1:6379).
const LIMITS = { RATE_LIMIT_PER_API_KEY: '5', RATE_LIMIT_ANONYMOUS_PER_ADDRESS: '3', SIGN_IN_MAX_FAILURES: '3', SIGN_IN_LOCK_SECONDS: '60' };
const REDIS_URL = 'redis://127.0.0.1:6379';

function redisAnswers(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port: 6379 });
    socket.setTimeout(1000);
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString().startsWith('+PONG'));
    });
    for (const event of ['error', 'timeout']) socket.once(event, () => (socket.destroy(), resolve(false)));
  });
}

const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

async function call(server: RunningServer, method: string, path: string, options: { token?: string; body?: unknown } = {}) {
  const response = await fetch(server.url + path, {
    method,
    headers: { ...(options.token ? { authorization: `Bearer ${options.token}` } : {}), ...(options.body ? { 'content-type': 'application/json' } : {}) },
    body: options.body ? JSON.stringify(options.body) : undefined,
  });
  return { status: response.status, body: await response.json(), retryAfter: response.headers.get('retry-after') };
}

async function expectHealthy(server: RunningServer) {
  expect((await fetch(`${server.url}/health`, { signal: AbortSignal.timeout(2000) })).status).toBe(200);
}

/** Sign-in attempts for one unknown account alternate between the servers: the fourth is locked. */
async function expectSharedSignInLock(servers: RunningServer[]) {
  const email = `ghost-${randomUUID()}@example.com`;
  for (let i = 0; i < 3; i++) expect((await call(servers[i % 2]!, 'POST', '/api/auth/sign-in', { body: { email, password: 'guess' } })).status).toBe(401);
  for (const server of servers) {
    const locked = await call(server, 'POST', '/api/auth/sign-in', { body: { email, password: 'guess' } });
    expect(locked.status).toBe(429);
    expect(locked.body.code).toBe('RATE_LIMITED');
  }
}

describe.skipIf(!process.env.TEST_DATABASE_URL)('two instances on one PostgreSQL database', () => {
  let a: TestServer;
  let b: RunningServer;

  it('share the request counter of an API key and the sign-in lock', async () => {
    a = await startTestServer(LIMITS);
    closers.push(() => a.close());
    const url = (a.database as TestDatabase).url!;
    b = await startServer({ ...a.app.config, port: 0 }, { database: await openDatabase({ databaseUrl: url, migrate: false }) });
    closers.push(() => b.close());
    const tenant = await createTenant(a.app.prisma);

    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await call(i % 2 ? b : a, 'GET', '/api/products', { token: tenant.key })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    for (const server of [a, b]) {
      const refused = await call(server, 'GET', '/api/products', { token: tenant.key });
      expect(refused.status).toBe(429);
      expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    }
    await expectSharedSignInLock([a, b]);
    await expectHealthy(a);
    await expectHealthy(b);
  });
});

describe.skipIf(!(await redisAnswers()))('two instances sharing Redis (REDIS_URL)', () => {
  it('share the anonymous request counter of an address and the sign-in lock', async () => {
    // Eight anonymous requests a minute: the five sign-in attempts, then three more.
    const env = { ...LIMITS, RATE_LIMIT_ANONYMOUS_PER_ADDRESS: '8', REDIS_URL, REDIS_KEY_PREFIX: `scm-test-${randomUUID()}:` };
    const a = await startTestServer(env);
    closers.push(() => a.close());
    const b = await startTestServer(env);
    closers.push(() => b.close());

    await expectSharedSignInLock([a, b]);
    for (let i = 0; i < 3; i++) expect((await call(i % 2 ? b : a, 'GET', '/api/products')).status).toBe(401);
    for (const server of [a, b]) expect((await call(server, 'GET', '/api/products')).status).toBe(429);
    await expectHealthy(a);
    await expectHealthy(b);
  });
});

describe('a Redis that does not answer', () => {
  it('leaves the limits to each instance\'s memory instead of failing requests', async () => {
    const server = await startTestServer({ ...LIMITS, REDIS_URL: 'redis://127.0.0.1:1' });
    closers.push(() => server.close());
    for (let i = 0; i < 3; i++) expect((await call(server, 'GET', '/api/products')).status).toBe(401);
    expect((await call(server, 'GET', '/api/products')).status).toBe(429);
    await expectHealthy(server);
  });
});

describe('limits set to 0', () => {
  it('turn request limiting off', async () => {
    const off = { RATE_LIMIT_PER_API_KEY: '0', RATE_LIMIT_PER_USER: '0', RATE_LIMIT_PER_ADDRESS: '0', RATE_LIMIT_ANONYMOUS_PER_ADDRESS: '0' };
    const server = await startTestServer(off);
    closers.push(() => server.close());
    const tenant = await createTenant(server.app.prisma);
    for (let i = 0; i < 10; i++) {
      const res = await server.call('GET', '/api/products', { token: tenant.key });
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBeNull();
    }
  });
});
