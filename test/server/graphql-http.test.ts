import { serverAudits } from 'graphql-http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

let server: TestServer;
let key: string;
beforeAll(async () => {
  server = await startTestServer();
  ({ key } = await createTenant(server.app.prisma));
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

describe('GraphiQL', () => {
  it('serves GraphiQL to browsers at /graphql', async () => {
    const res = await fetch(`${server.url}/graphql`, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/graphiql/i);
  });
});
