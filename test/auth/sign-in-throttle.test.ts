import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

// Three attempts per account, six per address, then a one-minute lock. TRUST_PROXY lets each test
// speak from its own address (X-Forwarded-For), so the address counters of the tests stay apart.
const ENV = { SIGN_IN_MAX_FAILURES: '3', SIGN_IN_MAX_FAILURES_PER_ADDRESS: '6', SIGN_IN_LOCK_SECONDS: '60', TRUST_PROXY: 'true' };

let server: TestServer;
let tenant: Tenant;
let address = 0;
const nextAddress = () => `198.51.100.${++address}`;

beforeAll(async () => {
  server = await startTestServer(ENV);
  tenant = await createTenant(server.app.prisma);
});
afterAll(() => server?.close());

const signIn = (email: string, password: string, from: string) =>
  server.call('POST', '/api/auth/sign-in', { body: { email, password }, headers: { 'x-forwarded-for': from } });

async function expectHealthy() {
  const health = await fetch(`${server.url}/health`, { signal: AbortSignal.timeout(2000) });
  expect(health.status).toBe(200);
}

function expectLocked(res: Awaited<ReturnType<typeof signIn>>) {
  expect(res.status).toBe(429);
  expect(res.body).toEqual({ error: expect.stringMatching(/^Too many sign-in attempts/), code: 'RATE_LIMITED', retryAfter: expect.any(Number) });
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBe(res.body.retryAfter);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(60);
}

describe('sign-in throttling', () => {
  it('locks an account after 3 wrong passwords: the right one is refused with 429 and Retry-After', async () => {
    const user = await tenant.userWith('VIEWER');
    const from = nextAddress();
    for (let i = 0; i < 3; i++) expect((await signIn(user.email, 'wrong password', from)).status).toBe(401);
    expectLocked(await signIn(user.email, user.password, from));
    // From another address too: the lock is the account's.
    expectLocked(await signIn(user.email, user.password, nextAddress()));
    // Another account from the first address is not locked.
    const other = await tenant.userWith('VIEWER');
    expect((await signIn(other.email, other.password, from)).status).toBe(200);
    await expectHealthy();
  });

  it('answers an unknown email exactly like a known one, lock included', async () => {
    const user = await tenant.userWith('VIEWER');
    const ghost = `nobody-${user.email}`;
    const known: unknown[] = [];
    const unknown: unknown[] = [];
    for (let i = 0; i < 4; i++) {
      const a = await signIn(user.email, 'wrong password', nextAddress());
      const b = await signIn(ghost, 'wrong password', nextAddress());
      known.push([a.status, a.body.code, a.headers.get('retry-after') !== null]);
      unknown.push([b.status, b.body.code, b.headers.get('retry-after') !== null]);
    }
    expect(known).toEqual([[401, 'INVALID_CREDENTIALS', false], [401, 'INVALID_CREDENTIALS', false], [401, 'INVALID_CREDENTIALS', false], [429, 'RATE_LIMITED', true]]);
    expect(unknown).toEqual(known);
  });

  it('starts the count over after a successful sign-in', async () => {
    const user = await tenant.userWith('VIEWER');
    const from = nextAddress();
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 2; i++) expect((await signIn(user.email, 'wrong password', from)).status).toBe(401);
      expect((await signIn(user.email, user.password, from)).status).toBe(200);
    }
  });

  it('locks an address after 6 attempts across accounts; other addresses are not affected', async () => {
    const from = nextAddress();
    for (let i = 0; i < 6; i++) expect((await signIn(`spray-${i}@example.com`, 'wrong password', from)).status).toBe(401);
    const user = await tenant.userWith('VIEWER');
    expectLocked(await signIn(user.email, user.password, from));
    expect((await signIn(user.email, user.password, nextAddress())).status).toBe(200);
    await expectHealthy();
  });

  it('counts concurrent guesses before checking them: of 20 at once (from 20 addresses) only 3 are tried', async () => {
    const user = await tenant.userWith('VIEWER');
    const answers = await Promise.all(Array.from({ length: 20 }, () => signIn(user.email, 'wrong password', nextAddress())));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 401)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(17);
    expectLocked(await signIn(user.email, user.password, nextAddress()));
    await expectHealthy();
  });

  it('GraphQL signIn shares the counters and answers HTTP 429 with Retry-After', async () => {
    const user = await tenant.userWith('VIEWER');
    const from = nextAddress();
    const mutation = 'mutation ($email: String!, $password: String!) { signIn(email: $email, password: $password) { ... on SignInPayload { token } } }';
    const graphql = (password: string) =>
      server.call('POST', '/graphql', { body: { query: mutation, variables: { email: user.email, password } }, headers: { 'x-forwarded-for': from } });
    expect((await signIn(user.email, 'wrong password', from)).status).toBe(401);
    for (let i = 0; i < 2; i++) expect((await graphql('wrong password')).body.errors[0].extensions.code).toBe('INVALID_CREDENTIALS');
    const locked = await graphql(user.password);
    expect(locked.status).toBe(429);
    expect(locked.body.errors[0]).toMatchObject({ extensions: { code: 'RATE_LIMITED', retryAfter: expect.any(Number) } });
    expect(Number(locked.headers.get('retry-after'))).toBe(locked.body.errors[0].extensions.retryAfter);
    expect(locked.body.errors[0].extensions.http).toBeUndefined();
    await expectHealthy();
  });
});
