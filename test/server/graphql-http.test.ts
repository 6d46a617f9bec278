import { serverAudits } from 'graphql-http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

let server: TestServer;
let key: string;
let tenant: Awaited<ReturnType<typeof createTenant>>;
let admin: { email: string; password: string };
beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.app.prisma);
  ({ key, admin } = tenant);
});
afterAll(() => server?.close());

// The audits of the GraphQL-over-HTTP specification, as published in the graphql-http package, made by
// a caller with an API key (some audits introspect, which callers without credentials may not).
const withKey: typeof fetch = (input, init) => {
  const headers = new Headers(init?.headers);
  headers.set('authorization', `Bearer ${key}`);
  return fetch(input, { ...init, headers });
};

describe('GraphQL over HTTP audits', () => {
  for (const audit of serverAudits({ url: () => `${server.url}/graphql`, fetchFn: withKey })) {
    it(audit.name, async () => {
      const result = await audit.fn();
      expect(result.status === 'ok' ? 'ok' : `${result.status}: ${result.reason}`).toBe('ok');
    });
  }
});

describe('authentication failures over HTTP', () => {
  const viewer = '{ viewer { organizationId } }';

  it('answers 401 as REST does: no credentials, an unknown key, a wrong password at sign-in', async () => {
    const missing = await server.graphql(viewer);
    expect(missing.status).toBe(401);
    expect(missing.body.errors[0].extensions).toEqual({ code: 'MISSING_AUTHORIZATION' });
    expect((await server.call('GET', '/api/products')).status).toBe(401);

    const unknown = await server.graphql(viewer, {}, 'scm_bogus');
    expect(unknown.status).toBe(401);
    expect(unknown.body.errors[0].extensions.code).toBe('INVALID_API_KEY');

    const signIn = 'mutation ($email: String!, $password: String!) { signIn(email: $email, password: $password) { ... on SignInPayload { token } } }';
    const wrong = await server.graphql(signIn, { email: admin.email, password: 'not the password' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.errors[0].extensions.code).toBe('INVALID_CREDENTIALS');
    const right = await server.graphql(signIn, { email: admin.email, password: admin.password });
    expect(right.status).toBe(200);
    expect(right.body.data.signIn.token).toEqual(expect.any(String));
  });

  it('answers 401 with the GraphQL response media type too', async () => {
    const res = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
      body: JSON.stringify({ query: viewer }),
    });
    expect(res.status).toBe(401);
    expect((await res.json()).errors[0].extensions.code).toBe('MISSING_AUTHORIZATION');
  });

  it('leaves a permission refusal of an authenticated caller at 200, the code in errors', async () => {
    const res = await server.graphql('{ productsPage { total } }', {}, await tenant.keyWith(['reports:read']));
    expect(res.status).toBe(200);
    expect(res.body.errors[0].extensions.code).toBe('INSUFFICIENT_SCOPE');
  });
});

describe('GraphiQL', () => {
  it('serves GraphiQL to browsers at /graphql', async () => {
    const res = await fetch(`${server.url}/graphql`, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/graphiql/i);
  });
});
