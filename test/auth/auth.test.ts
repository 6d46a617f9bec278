import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, createUser, revokeApiKeyById, setOrganizationStatus } from '../../src/services/admin/admin.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import type { TestServer } from '../support/server.js';
import { startServerWithTwoTenants } from '../support/two-tenants.js';

let server: TestServer;
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  // Key lookups are cached for a second here, so out-of-band changes (admin CLI) show after that.
  ({ server, a, b } = await startServerWithTwoTenants({ API_KEY_CACHE_SECONDS: '1' }));
});
afterAll(() => server?.close());

const products = (token?: string, headers: Record<string, string> = {}) => server.call('GET', '/api/products', { token, headers });

async function signIn(email: string, password: string, organizationId?: string) {
  return server.call('POST', '/api/auth/sign-in', { body: { email, password, organizationId } });
}

describe('API key failures, one by one', () => {
  it('401 MISSING_AUTHORIZATION without credentials', async () => {
    const res = await products();
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: expect.any(String), code: 'MISSING_AUTHORIZATION' });
    const basic = await products(undefined, { authorization: 'Basic dXNlcjpwYXNz' });
    expect(basic.status).toBe(401);
    expect(basic.body.code).toBe('MISSING_AUTHORIZATION');
  });

  it('401 INVALID_API_KEY for an unknown key', async () => {
    const res = await products('scm_notarealkey');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'API key not found or invalid', code: 'INVALID_API_KEY' });
  });

  it('401 REVOKED_API_KEY for a key revoked elsewhere (admin CLI), once the key cache (API_KEY_CACHE_SECONDS) lapses', async () => {
    const { apiKey, key } = await createApiKey(server.operator, { organizationId: a.org.id, name: 'to revoke', scopes: ['*'] });
    expect((await products(key)).status).toBe(200);
    await revokeApiKeyById(server.operator, apiKey.id);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const res = await products(key);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('REVOKED_API_KEY');
  });

  it('401 EXPIRED_API_KEY for an expired key', async () => {
    const key = await a.keyWith(['*'], { expiresAt: new Date(Date.now() - 1000) });
    const res = await products(key);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('EXPIRED_API_KEY');
  });

  it('403 IP_RESTRICTION outside the allowed addresses, 200 inside', async () => {
    const outside = await a.keyWith(['*'], { allowedIps: ['10.0.0.0/8', '2001:db8::/32'] });
    const res = await products(outside);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('IP_RESTRICTION');
    const inside = await a.keyWith(['*'], { allowedIps: ['127.0.0.0/8', '::1'] });
    expect((await products(inside)).status).toBe(200);
  });

  it('403 INSUFFICIENT_SCOPE when the scopes lack the permission', async () => {
    const key = await a.keyWith(['forecast:read']);
    const res = await products(key);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'INSUFFICIENT_SCOPE', error: expect.stringContaining('products.read') });
    const readOnly = await a.keyWith(['inventory:read']);
    expect((await products(readOnly)).status).toBe(200);
    const write = await server.call('POST', '/api/products', { token: readOnly, body: { sku: 'NOPE', name: 'no' } });
    expect(write.status).toBe(403);
    expect(write.body.code).toBe('INSUFFICIENT_SCOPE');
  });

  it('403 INACTIVE_ORGANIZATION for keys and sessions of an inactive organization', async () => {
    const c = await createTenant(server.app.prisma);
    const session = await signIn(c.admin.email, c.admin.password);
    expect(session.status).toBe(200);
    await setOrganizationStatus(server.operator, c.org.id, 'INACTIVE');
    const byKey = await products(c.key);
    expect(byKey.status).toBe(403);
    expect(byKey.body.code).toBe('INACTIVE_ORGANIZATION');
    const byToken = await products(session.body.token);
    expect(byToken.status).toBe(403);
    expect(byToken.body.code).toBe('INACTIVE_ORGANIZATION');
    const again = await signIn(c.admin.email, c.admin.password);
    expect(again.status).toBe(403);
    expect(again.body.code).toBe('INACTIVE_ORGANIZATION');
  });

  it('accepts the key in X-API-Key too', async () => {
    const res = await server.call('GET', '/api/products', { headers: { 'x-api-key': a.key } });
    expect(res.status).toBe(200);
  });

  it('refuses a key used with another organization in X-Organization-Id', async () => {
    const res = await products(a.key, { 'x-organization-id': b.org.id });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('FORBIDDEN');
    expect((await products(a.key, { 'x-organization-id': a.org.id })).status).toBe(200);
  });

  it('records when a key was last used', async () => {
    const { apiKey, key } = await createApiKey(server.operator, { organizationId: a.org.id, name: 'usage', scopes: ['*'] });
    expect(apiKey.lastUsedAt).toBeNull();
    await products(key);
    await expect.poll(async () => (await server.app.prisma.apiKey.findUnique({ where: { id: apiKey.id } }))?.lastUsedAt).not.toBeNull();
  });

  it('gives GraphQL clients the same status and code', async () => {
    const res = await server.graphql('{ viewer { organizationId } }', {}, 'scm_bogus');
    expect(res.status).toBe(401);
    expect(res.body.errors[0].extensions.code).toBe('INVALID_API_KEY');
    const missing = await server.graphql('{ viewer { organizationId } }');
    expect(missing.body.errors[0].extensions.code).toBe('MISSING_AUTHORIZATION');
    const scope = await server.graphql('{ productsPage { total } }', {}, await a.keyWith(['reports:read']));
    expect(scope.body.errors[0].extensions.code).toBe('INSUFFICIENT_SCOPE');
  });
});

describe('sessions', () => {
  it('signs in, works with the bearer token and the cookie, and signs out', async () => {
    const session = await signIn(a.admin.email, a.admin.password);
    expect(session.status).toBe(200);
    expect(session.body).toMatchObject({
      token: expect.stringMatching(/^eyJ/),
      user: { email: a.admin.email },
      organizationId: a.org.id,
      role: 'ADMIN',
      organizations: [{ id: a.org.id, name: a.org.name, role: 'ADMIN' }],
    });
    const cookie = session.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^scm_session=.+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+/);

    expect((await products(session.body.token)).status).toBe(200);
    const byCookie = await server.call('GET', '/api/products', { headers: { cookie: cookie.split(';')[0]! } });
    expect(byCookie.status).toBe(200);

    const viewer = await server.graphql('{ viewer { organizationId actorType role permissions } }', {}, session.body.token);
    expect(viewer.body.data.viewer).toMatchObject({ organizationId: a.org.id, actorType: 'USER', role: 'ADMIN' });
    expect(viewer.body.data.viewer.permissions).toContain('apikeys.manage');

    const out = await server.call('POST', '/api/auth/sign-out', { token: session.body.token });
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ success: true });
    expect(out.headers.get('set-cookie')).toMatch(/Max-Age=0/);
    const after = await products(session.body.token);
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('INVALID_TOKEN');
  });

  it('rejects a wrong password, an unknown email and missing fields', async () => {
    const wrong = await signIn(a.admin.email, 'wrong password');
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe('INVALID_CREDENTIALS');
    const unknown = await signIn('nobody@example.com', 'whatever1');
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual(wrong.body);
    const missing = await server.call('POST', '/api/auth/sign-in', { body: { email: a.admin.email } });
    expect(missing.status).toBe(400);
    expect(missing.body.details.password).toEqual(['Required']);
  });

  it('rejects a forged or tampered token', async () => {
    const session = await signIn(a.admin.email, a.admin.password);
    const [header, payload, signature] = session.body.token.split('.');
    const forged = `${header}.${payload}.${signature.slice(0, -4)}AAAA`;
    const res = await products(forged);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('INVALID_TOKEN');
  });

  it('lets a member of several organizations pick one with X-Organization-Id', async () => {
    const user = await createUser(server.operator, { organizationId: a.org.id, email: 'two-orgs@example.com', password: 'password-123', role: 'VIEWER' });
    await createUser(server.operator, { organizationId: b.org.id, email: user.email, password: 'password-123', role: 'MANAGER' });
    await server.call('POST', '/api/products', { token: b.key, body: { sku: 'ONLY-IN-B', name: 'b' } });
    const session = await signIn(user.email, 'password-123');
    expect(session.body.organizations).toHaveLength(2);
    const inA = await server.call('GET', '/api/products?search=ONLY-IN-B', { token: session.body.token, headers: { 'x-organization-id': a.org.id } });
    expect(inA.body.data).toEqual([]);
    const inB = await server.call('GET', '/api/products?search=ONLY-IN-B', { token: session.body.token, headers: { 'x-organization-id': b.org.id } });
    expect(inB.body.data).toHaveLength(1);
    // the role follows the organization: VIEWER in A cannot write, MANAGER in B can
    const writeA = await server.call('POST', '/api/products', { token: session.body.token, headers: { 'x-organization-id': a.org.id }, body: { sku: 'X1', name: 'x' } });
    expect(writeA.status).toBe(403);
    expect(writeA.body.code).toBe('FORBIDDEN');
    const writeB = await server.call('POST', '/api/products', { token: session.body.token, headers: { 'x-organization-id': b.org.id }, body: { sku: 'X1', name: 'x' } });
    expect(writeB.status).toBe(201);
    const c = await createTenant(server.app.prisma);
    const foreign = await products(session.body.token, { 'x-organization-id': c.org.id });
    expect(foreign.status).toBe(403);
    expect(foreign.body.code).toBe('FORBIDDEN');
    const signInB = await signIn(user.email, 'password-123', b.org.id);
    expect(signInB.body).toMatchObject({ organizationId: b.org.id, role: 'MANAGER' });
  });

  it('applies each role\'s permissions', async () => {
    const viewer = await a.userWith('VIEWER');
    const token = (await signIn(viewer.email, viewer.password)).body.token;
    expect((await products(token)).status).toBe(200);
    const write = await server.call('POST', '/api/products', { token, body: { sku: 'V1', name: 'v' } });
    expect(write.status).toBe(403);
    expect(write.body).toMatchObject({ code: 'FORBIDDEN', error: expect.stringContaining('products.write') });
    const manager = await a.userWith('MANAGER');
    const managerToken = (await signIn(manager.email, manager.password)).body.token;
    expect((await server.call('POST', '/api/products', { token: managerToken, body: { sku: 'M1', name: 'm' } })).status).toBe(201);
  });
});

describe('order of checks', () => {
  it('tells an anonymous caller to authenticate before judging the body', async () => {
    const res = await server.call('POST', '/api/products', { body: { sku: 5 } });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('MISSING_AUTHORIZATION');
  });
});
