import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRoutes } from '../../rest-adapter/all-routes.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

let server: TestServer;
let a: Tenant;

beforeAll(async () => {
  // Every path of the route table, some twice, from one address without credentials: not a rate-limit test.
  server = await startTestServer({ CORS_ORIGINS: 'https://planner.example.com', RATE_LIMIT_ANONYMOUS_PER_ADDRESS: '0' });
  a = await createTenant(server.app.prisma);
}, 60_000);
afterAll(() => server?.close());

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** The methods the route table declares for a path, with `:param` filled in. */
function methodsByPath() {
  const byPath = new Map<string, Set<string>>();
  for (const route of allRoutes) {
    const path = route.path.replace(/:(\w+)/g, 'x1');
    if (!byPath.has(path)) byPath.set(path, new Set());
    byPath.get(path)!.add(route.method);
  }
  return byPath;
}

describe('a method a known path does not have', () => {
  it('answers 405 METHOD_NOT_ALLOWED with Allow listing the path’s methods', async () => {
    const res = await server.call('PUT', '/api/inventory-levels/some-id', { token: a.key, body: {} });
    expect(res.status).toBe(405);
    expect(res.body).toEqual({ error: 'PUT is not allowed on /api/inventory-levels/some-id (allowed: PATCH, DELETE)', code: 'METHOD_NOT_ALLOWED' });
    expect(res.headers.get('allow')).toBe('PATCH, DELETE');
  });

  it('answers 405 on a fixed sub-path a parameter route would otherwise take as an id', async () => {
    for (const [method, path, allow] of [
      ['GET', '/api/forecast/scenarios/compare', 'POST'],
      ['GET', '/api/inventory/availability/check', 'POST'],
      ['DELETE', '/api/forecast/events/learned-lifts', 'GET'],
      ['PATCH', '/api/inventory/transfers/bins', 'GET, POST'],
    ] as const) {
      const res = await server.call(method, path, { token: a.key, body: method === 'GET' || method === 'DELETE' ? undefined : {} });
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.get('allow'), `${method} ${path}`).toBe(allow);
      expect(res.body).toEqual({ error: `${method} is not allowed on ${path} (allowed: ${allow})`, code: 'METHOD_NOT_ALLOWED' });
    }
    // The parameter routes still serve ids.
    expect((await server.call('GET', '/api/forecast/scenarios/01a219cb-0000-7000-8000-000000000000', { token: a.key })).status).not.toBe(405);
  });

  it('does so on every path of the route table, without credentials too (the body is never read)', async () => {
    let refused = 0;
    for (const [path, declared] of methodsByPath()) {
      // A path such as /api/products/x1 is also matched by /api/products/:id and so on: Allow is every
      // method the router would serve at that URL.
      for (const method of METHODS.filter((m) => !declared.has(m))) {
        const res = await server.call(method, path, { body: method === 'GET' || method === 'DELETE' ? undefined : '{not json' });
        if (res.status === 405) {
          const allow = res.headers.get('allow')!.split(', ');
          expect(allow, `${method} ${path}`).not.toContain(method);
          for (const m of declared) expect(allow, `${method} ${path}`).toContain(m);
          expect(res.body.code).toBe('METHOD_NOT_ALLOWED');
          refused++;
        } else {
          // Another route's pattern takes this method at this URL (e.g. GET /api/import/status/x1 beside
          // POST /api/import/:kind): it is served, and answers as that route does.
          expect([401, 404], `${method} ${path}: ${res.status}`).toContain(res.status);
        }
      }
    }
    expect(refused).toBeGreaterThan(methodsByPath().size);
  });

  it('the OpenAPI document answers 405 with Allow: GET to other methods', async () => {
    const res = await server.call('POST', '/api/openapi.json', { body: {} });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
    expect(res.body.code).toBe('METHOD_NOT_ALLOWED');
  });

  it('an unknown path stays 404 NOT_FOUND, whatever the method', async () => {
    for (const method of ['GET', 'POST', 'DELETE']) {
      const res = await server.call(method, '/api/no-such-thing/at-all', { token: a.key });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('NOT_FOUND');
      expect(res.headers.get('allow')).toBeNull();
    }
  });

  it('a CORS preflight on a known path is still answered 204 before routing', async () => {
    const res = await fetch(`${server.url}/api/inventory-levels/some-id`, {
      method: 'OPTIONS',
      headers: { origin: 'https://planner.example.com', 'access-control-request-method': 'PATCH' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://planner.example.com');
    expect(res.headers.get('access-control-allow-methods')).toContain('PATCH');
  });

  it('the documented methods still work, and the server answers /health afterwards', async () => {
    expect((await server.call('GET', '/api/products', { token: a.key })).status).toBe(200);
    const health = await fetch(`${server.url}/health`, { signal: AbortSignal.timeout(5_000) });
    expect(health.status).toBe(200);
  });
});
