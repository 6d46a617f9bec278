import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

const APP_ORIGIN = 'https://planner.example';
const EVIL_ORIGIN = 'https://evil.example';

let server: TestServer;
let tenant: Tenant;
let cookie: string;

beforeAll(async () => {
  server = await startTestServer({ CORS_ORIGINS: APP_ORIGIN });
  tenant = await createTenant(server.app.prisma);
  const session = await server.call('POST', '/api/auth/sign-in', { body: { email: tenant.admin.email, password: tenant.admin.password } });
  cookie = session.headers.get('set-cookie')!.split(';')[0]!;
});
afterAll(() => server?.close());

/** A request as a browser would send it with the session cookie. */
const browser = (method: string, path: string, body: string | undefined, headers: Record<string, string>) =>
  fetch(`${server.url}${path}`, { method, headers: { cookie, ...headers }, body });

const productCount = async () => (await server.call('GET', '/api/products', { token: tenant.key })).body.meta.total as number;

describe('REST writes with the session cookie', () => {
  it('a text/plain body (what an HTML form can send) is 415 and writes nothing', async () => {
    const before = await productCount();
    const res = await browser('POST', '/api/products', JSON.stringify({ sku: 'CSRF-1', name: 'x' }), { 'content-type': 'text/plain' });
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
    expect(await productCount()).toBe(before);
  });

  it('a form-encoded body is 415', async () => {
    const res = await browser('POST', '/api/products', 'sku=CSRF-2&name=x', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(res.status).toBe(415);
  });

  it('a JSON write from another origin is 403 CSRF_REJECTED and writes nothing', async () => {
    const before = await productCount();
    const res = await browser('POST', '/api/products', JSON.stringify({ sku: 'CSRF-3', name: 'x' }), { 'content-type': 'application/json', origin: EVIL_ORIGIN });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: 'CSRF_REJECTED', origin: EVIL_ORIGIN });
    expect(await productCount()).toBe(before);
  });

  it('a request the browser marks cross-site (Sec-Fetch-Site) without an Origin is 403', async () => {
    const res = await browser('GET', '/api/products', undefined, { 'sec-fetch-site': 'cross-site' });
    expect(res.status).toBe(403);
    expect((await res.json()).code).toBe('CSRF_REJECTED');
  });

  it('a JSON write from this server (its own origin) or a listed origin is taken', async () => {
    const self = await browser('POST', '/api/products', JSON.stringify({ sku: 'CSRF-OK-1', name: 'x' }), { 'content-type': 'application/json', origin: server.url });
    expect(self.status).toBe(201);
    const listed = await browser('POST', '/api/products', JSON.stringify({ sku: 'CSRF-OK-2', name: 'x' }), { 'content-type': 'application/json', origin: APP_ORIGIN });
    expect(listed.status).toBe(201);
    expect(listed.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
    expect(listed.headers.get('access-control-allow-credentials')).toBe('true');
  });

  it('an API key is not a browser credential: its text/plain JSON body is still read', async () => {
    const res = await fetch(`${server.url}/api/products`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.key}`, 'content-type': 'text/plain', origin: EVIL_ORIGIN },
      body: JSON.stringify({ sku: 'KEY-PLAIN', name: 'x' }),
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});

// The browser's Sec-Fetch-Site wins over the Origin header: cross-site is refused even when the Origin
// names this server (a cookie-only write passed with 201 before, and a WebSocket was acknowledged).
describe('Sec-Fetch-Site with the session cookie, on /api, /graphql and the WebSocket alike', () => {
  const write = (sku: string, headers: Record<string, string>) =>
    browser('POST', '/api/products', JSON.stringify({ sku, name: 'x' }), { 'content-type': 'application/json', ...headers });
  const mutation = (sku: string, headers: Record<string, string>) =>
    browser('POST', '/graphql', JSON.stringify({ query: `mutation { createProduct(input: {sku: "${sku}", name: "x"}) { ... on Product { id } } }` }), { 'content-type': 'application/json', ...headers });

  it('cross-site with Origin this server is 403 CSRF_REJECTED on /api and /graphql, and writes nothing', async () => {
    const before = await productCount();
    const rest = await write('SFS-1', { origin: server.url, 'sec-fetch-site': 'cross-site' });
    expect(rest.status).toBe(403);
    expect((await rest.json()).code).toBe('CSRF_REJECTED');
    const gql = await mutation('SFS-2', { origin: server.url, 'sec-fetch-site': 'cross-site' });
    expect(gql.status).toBe(403);
    expect((await gql.json()).errors[0].extensions.code).toBe('CSRF_REJECTED');
    const listed = await write('SFS-3', { origin: APP_ORIGIN, 'sec-fetch-site': 'cross-site' });
    expect(listed.status).toBe(403);
    expect(await productCount()).toBe(before);
  });

  it('same-site passes only with an Origin that is this server or listed', async () => {
    const before = await productCount();
    expect((await write('SFS-4', { 'sec-fetch-site': 'same-site' })).status).toBe(403);
    expect((await write('SFS-5', { origin: 'https://sibling.planner.example', 'sec-fetch-site': 'same-site' })).status).toBe(403);
    expect(await productCount()).toBe(before);
    expect((await write('SFS-6', { origin: APP_ORIGIN, 'sec-fetch-site': 'same-site' })).status).toBe(201);
    expect((await write('SFS-7', { origin: server.url, 'sec-fetch-site': 'same-origin' })).status).toBe(201);
    expect((await mutation('SFS-8', { origin: server.url, 'sec-fetch-site': 'same-origin' })).status).toBe(200);
  });

  /** A graphql-ws connection with the cookie and these upgrade headers: acknowledged, or closed with this code and reason. */
  async function socketWith(headers: Record<string, string>): Promise<{ ack: boolean; code?: number; reason?: string }> {
    const socket = new WebSocket(`${server.url.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws', { headers: { cookie, ...headers } });
    return new Promise((resolve, reject) => {
      socket.on('error', reject);
      socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: {} })));
      socket.on('message', (data) => {
        if (JSON.parse(String(data)).type !== 'connection_ack') return;
        socket.close();
        resolve({ ack: true });
      });
      socket.on('close', (code, reason) => resolve({ ack: false, code, reason: reason.toString() }));
    });
  }

  it('the WebSocket upgrade follows the same rule: cross-site is closed with 4403 CSRF_REJECTED, same-origin is acknowledged', async () => {
    const crossSite = await socketWith({ origin: server.url, 'sec-fetch-site': 'cross-site' });
    expect(crossSite).toMatchObject({ ack: false, code: 4403, reason: expect.stringContaining('CSRF_REJECTED') });
    const otherOrigin = await socketWith({ origin: EVIL_ORIGIN });
    expect(otherOrigin).toMatchObject({ ack: false, code: 4403 });
    expect(await socketWith({ origin: server.url, 'sec-fetch-site': 'same-origin' })).toEqual({ ack: true });
    expect(await socketWith({ origin: APP_ORIGIN, 'sec-fetch-site': 'same-site' })).toEqual({ ack: true });
  });
});

describe('/graphql with the session cookie', () => {
  const mutation = 'mutation { createProduct(input: {sku: "GQL-CSRF", name: "x"}) { ... on Product { id } } }';

  it('a form-encoded or multipart mutation is 415 and writes nothing', async () => {
    const before = await productCount();
    const form = await browser('POST', '/graphql', new URLSearchParams({ query: mutation }).toString(), { 'content-type': 'application/x-www-form-urlencoded' });
    expect(form.status).toBe(415);
    const data = new FormData();
    data.set('operations', JSON.stringify({ query: mutation }));
    const multipart = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { cookie }, body: data });
    expect(multipart.status).toBe(415);
    expect(await productCount()).toBe(before);
  });

  it('a JSON mutation from another origin is 403', async () => {
    const res = await browser('POST', '/graphql', JSON.stringify({ query: mutation }), { 'content-type': 'application/json', origin: EVIL_ORIGIN });
    expect(res.status).toBe(403);
    expect((await res.json()).errors[0].extensions.code).toBe('CSRF_REJECTED');
  });

  it('GraphiQL on this server (same origin) works with the cookie', async () => {
    const res = await browser('POST', '/graphql', JSON.stringify({ query: '{ products(first: 1) { totalCount } }' }), { 'content-type': 'application/json', origin: server.url });
    expect(res.status).toBe(200);
    expect((await res.json()).data.products.totalCount).toBeGreaterThanOrEqual(0);
  });
});

describe('CORS from CORS_ORIGINS', () => {
  const preflight = (origin: string, path: string) =>
    fetch(`${server.url}${path}`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } });

  it('an unlisted origin is never reflected, for /graphql or /api', async () => {
    for (const path of ['/graphql', '/api/products']) {
      const res = await preflight(EVIL_ORIGIN, path);
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    }
    const post = await browser('POST', '/graphql', JSON.stringify({ query: '{ __typename }' }), { 'content-type': 'application/json', origin: EVIL_ORIGIN });
    expect(post.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('a listed origin gets its preflight answered with credentials allowed', async () => {
    const res = await preflight(APP_ORIGIN, '/graphql');
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    expect(res.headers.get('access-control-allow-methods')).toMatch(/POST/);
  });

  it('by default (no CORS_ORIGINS) no origin gets CORS headers', async () => {
    const plain = await startTestServer();
    try {
      const res = await fetch(`${plain.url}/graphql`, { method: 'OPTIONS', headers: { origin: APP_ORIGIN, 'access-control-request-method': 'POST' } });
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await plain.close();
    }
  });
});
