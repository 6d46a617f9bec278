import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Tenant } from '../support/fixtures.js';
import type { TestServer } from '../support/server.js';
import { startServerWithTwoTenants } from '../support/two-tenants.js';
import { graphqlRefusal } from '../support/api.js';
import { REFUSAL } from '../support/graphql.js';

let server: TestServer;
let a: Tenant;
let b: Tenant;
let adminA: string;
let adminB: string;

const BASE = '/api/admin/api-keys';
const KEY_FIELDS = [
  'allowedIps', 'createdAt', 'createdByUserId', 'expiresAt', 'id', 'lastUsedAt', 'name', 'prefix',
  'previousKeyExpiresAt', 'revokedAt', 'scopes', 'updatedAt',
];

async function signIn(email: string, password: string) {
  const res = await server.call('POST', '/api/auth/sign-in', { body: { email, password } });
  expect(res.status).toBe(200);
  return res.body.token as string;
}

/** Creates a key as A's administrator; returns the response body (key object plus `key`). */
async function create(body: Record<string, unknown> = {}, token = adminA) {
  const res = await server.call('POST', BASE, { token, body: { name: 'Test key', scopes: ['inventory:read'], ...body } });
  expect(res.status).toBe(201);
  return res.body;
}

const products = (key: string) => server.call('GET', '/api/products', { token: key });
const patch = (id: string, body: unknown, token = adminA) => server.call('PATCH', `${BASE}/${id}`, { token, body });
const rotate = (id: string, body?: unknown, token = adminA) => server.call('POST', `${BASE}/${id}/rotate`, { token, body });
const revoke = (id: string, token = adminA) => server.call('POST', `${BASE}/${id}/revoke`, { token });

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants());
  adminA = await signIn(a.admin.email, a.admin.password);
  adminB = await signIn(b.admin.email, b.admin.password);
});
afterAll(() => server?.close());

describe('creating and using a key', () => {
  it('creates a key whose secret then works, and records when it was used', async () => {
    const created = await create({ name: '  Warehouse sync ', scopes: ['inventory:read', 'inventory:read'] });
    expect(Object.keys(created).sort()).toEqual([...KEY_FIELDS, 'key'].sort());
    expect(created).toMatchObject({
      name: 'Warehouse sync',
      scopes: ['inventory:read'],
      allowedIps: [],
      expiresAt: null,
      lastUsedAt: null,
      revokedAt: null,
      previousKeyExpiresAt: null,
      createdByUserId: a.admin.id,
    });
    expect(created.key).toMatch(/^scm_[A-Za-z0-9_-]{43}$/);
    expect(created.key.startsWith(created.prefix)).toBe(true);

    const used = await products(created.key);
    expect(used.status).toBe(200);
    // lastUsedAt is written after the response, so wait for it to land.
    await vi.waitFor(async () => {
      const read = await server.call('GET', `${BASE}/${created.id}`, { token: adminA });
      expect(read.body.lastUsedAt).not.toBeNull();
    }, { timeout: 10_000, interval: 50 });
  });

  it('never shows the secret or its hash again', async () => {
    const created = await create({ name: 'Shown once' });
    const list = await server.call('GET', BASE, { token: adminA });
    expect(list.status).toBe(200);
    const listed = list.body.data.find((k: { id: string }) => k.id === created.id);
    expect(Object.keys(listed).sort()).toEqual(KEY_FIELDS);
    const { key, ...withoutSecret } = created;
    expect(listed).toEqual(withoutSecret);
    for (const k of list.body.data) expect(Object.keys(k).sort()).toEqual(KEY_FIELDS);

    const read = await server.call('GET', `${BASE}/${created.id}`, { token: adminA });
    expect(read.body).toEqual(withoutSecret);
    for (const text of [JSON.stringify(list.body), JSON.stringify(read.body)]) {
      expect(text).not.toContain(key);
      expect(text).not.toMatch(/keyHash|[0-9a-f]{64}/);
    }

    const gql = await server.graphql(`{ apiKeys { edges { node { id prefix } } } }`, {}, adminA);
    expect(JSON.stringify(gql.body)).not.toContain(key);
    const hashField = await server.graphql(`{ apiKeys { edges { node { keyHash } } } }`, {}, adminA);
    expect(hashField.body.errors[0].message).toMatch(/Cannot query field "keyHash"/);
  });

  it('lists the organization\'s keys newest first, revoked ones too, in a fixed number of queries', async () => {
    const first = await create({ name: 'Older' });
    const second = await create({ name: 'Newer' });
    await revoke(first.id);
    const list = await server.call('GET', BASE, { token: adminA });
    const ids = list.body.data.map((k: { id: string }) => k.id);
    expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id));
    expect(list.body.data.find((k: { id: string }) => k.id === first.id).revokedAt).not.toBeNull();

    const count = async () => {
      server.queries.length = 0;
      const res = await server.call('GET', BASE, { token: adminA });
      expect(res.status).toBe(200);
      return { queries: server.queries.length, keys: res.body.data.length };
    };
    const before = await count();
    for (let i = 0; i < 5; i++) await create({ name: `Counted ${i}` });
    const after = await count();
    expect(after.keys).toBe(before.keys + 5);
    expect(after.queries).toBe(before.queries);
  });
});

describe('updating a key', () => {
  it('changes the name and scopes, and narrower scopes take effect at once', async () => {
    const created = await create({ scopes: ['inventory:read', 'reports:read'] });
    expect((await products(created.key)).status).toBe(200);
    const res = await patch(created.id, { name: 'Reports only', scopes: ['reports:read'] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: created.id, name: 'Reports only', scopes: ['reports:read'], prefix: created.prefix });
    expect(res.body.key).toBeUndefined();
    const refused = await products(created.key);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('INSUFFICIENT_SCOPE');
  });

  it('an expiry in the past is refused; a key whose expiry has passed is expired; clearing it restores the key', async () => {
    const created = await create();
    const past = await patch(created.id, { expiresAt: '2020-01-01T00:00:00.000Z' });
    expect(past.status).toBe(400);
    expect(past.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { expiresAt: ['Must be in the future'] } });
    // Time passes: the expiry the key was given is behind us.
    await server.app.prisma.apiKey.update({ where: { id: created.id }, data: { expiresAt: new Date('2020-01-01T00:00:00.000Z') } });
    const expired = await products(created.key);
    expect(expired.status).toBe(401);
    expect(expired.body.code).toBe('EXPIRED_API_KEY');

    expect((await patch(created.id, { expiresAt: null })).body.expiresAt).toBeNull();
    expect((await products(created.key)).status).toBe(200);
  });

  it('allowed IPs that exclude the caller refuse it; including it or clearing the list lets it in', async () => {
    const created = await create();
    const narrowed = await patch(created.id, { allowedIps: ['10.0.0.0/8', '203.0.113.7'] });
    expect(narrowed.body.allowedIps).toEqual(['10.0.0.0/8', '203.0.113.7']);
    const refused = await products(created.key);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('IP_RESTRICTION');

    await patch(created.id, { allowedIps: ['127.0.0.1', '::1'] });
    expect((await products(created.key)).status).toBe(200);
    await patch(created.id, { allowedIps: ['10.0.0.0/8'] });
    expect((await products(created.key)).status).toBe(403);
    expect((await patch(created.id, { allowedIps: null })).body.allowedIps).toEqual([]);
    expect((await products(created.key)).status).toBe(200);
  });

  it('leaves absent fields as they are', async () => {
    const created = await create({ allowedIps: ['127.0.0.1', '::1'], expiresAt: '2199-01-01T00:00:00.000Z' });
    const res = await patch(created.id, {});
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: created.name, scopes: created.scopes, allowedIps: created.allowedIps, expiresAt: created.expiresAt });
  });
});

describe('revoking and rotating', () => {
  it('a revoked key stops working and cannot be revoked, changed or rotated again', async () => {
    const created = await create();
    const res = await revoke(created.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: created.id, revokedAt: expect.any(String) });
    expect(res.body.key).toBeUndefined();
    const refused = await products(created.key);
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('REVOKED_API_KEY');

    for (const again of [await revoke(created.id), await rotate(created.id), await patch(created.id, { name: 'x' })]) {
      expect(again.status).toBe(409);
      expect(again.body.code).toBe('INVALID_STATE');
    }
    expect((await products(created.key)).body.code).toBe('REVOKED_API_KEY');
  });

  it('rotating without a grace period replaces the secret at once', async () => {
    const created = await create();
    const res = await rotate(created.id);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual([...KEY_FIELDS, 'key'].sort());
    expect(res.body).toMatchObject({ id: created.id, name: created.name, scopes: created.scopes, previousKeyExpiresAt: null });
    expect(res.body.key).not.toBe(created.key);
    expect(res.body.key.startsWith(res.body.prefix)).toBe(true);

    const old = await products(created.key);
    expect(old.status).toBe(401);
    expect(old.body.code).toBe('INVALID_API_KEY');
    expect((await products(res.body.key)).status).toBe(200);
  });

  it('rotating with a grace period keeps the old secret working until then', async () => {
    const created = await create();
    const res = await rotate(created.id, { gracePeriodSeconds: 3600 });
    expect(res.status).toBe(200);
    expect(Date.parse(res.body.previousKeyExpiresAt)).toBeGreaterThan(Date.now() + 3000_000);
    expect((await products(created.key)).status).toBe(200);
    expect((await products(res.body.key)).status).toBe(200);

    // Revoking ends both secrets.
    await revoke(created.id);
    expect((await products(created.key)).body.code).toBe('REVOKED_API_KEY');
    expect((await products(res.body.key)).body.code).toBe('REVOKED_API_KEY');
  });

  it('a second rotation ends the secret still in its grace period', async () => {
    const created = await create();
    const second = await rotate(created.id, { gracePeriodSeconds: 3600 });
    const third = await rotate(created.id, {});
    expect(third.body.previousKeyExpiresAt).toBeNull();
    expect((await products(created.key)).body.code).toBe('INVALID_API_KEY');
    expect((await products(second.body.key)).body.code).toBe('INVALID_API_KEY');
    expect((await products(third.body.key)).status).toBe(200);
  });
});

describe('validation', () => {
  it('answers 400 with details for bad input', async () => {
    const cases: [unknown, string][] = [
      [{ name: 'x', scopes: ['inventory:read', 'everything'] }, 'scopes'],
      [{ name: '   ', scopes: ['inventory:read'] }, 'name'],
      [{ name: 'x', scopes: [] }, 'scopes'],
      [{ scopes: ['inventory:read'] }, 'name'],
      [{ name: 'x' }, 'scopes'],
      [{ name: 'x', scopes: ['inventory:read'], allowedIps: ['10.0.0.300'] }, 'allowedIps'],
      [{ name: 'x', scopes: ['inventory:read'], allowedIps: ['10.0.0.0/33'] }, 'allowedIps'],
      [{ name: 'x', scopes: ['inventory:read'], expiresAt: 'soon' }, 'expiresAt'],
      [{ name: 'x', scopes: 'inventory:read', secret: 'mine' }, 'secret'],
    ];
    for (const [body, field] of cases) {
      const res = await server.call('POST', BASE, { token: adminA, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(res.body.details[field], JSON.stringify(res.body)).toEqual([expect.any(String)]);
    }
    const unknownScope = await server.call('POST', BASE, { token: adminA, body: { name: 'x', scopes: ['nope'] } });
    expect(unknownScope.body.details.scopes[0]).toMatch(/Unknown scope/);

    const created = await create();
    for (const [body, field] of [
      [{ name: '' }, 'name'],
      [{ scopes: ['admin:everything'] }, 'scopes'],
      [{ allowedIps: ['not-an-ip'] }, 'allowedIps'],
      [{ keyHash: 'x' }, 'keyHash'],
    ] as const) {
      const res = await patch(created.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.details[field]).toBeDefined();
    }
    for (const body of [{ gracePeriodSeconds: -1 }, { gracePeriodSeconds: 604801 }, { gracePeriodSeconds: 1.5 }]) {
      const res = await rotate(created.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.details.gracePeriodSeconds).toBeDefined();
    }
    // Nothing above changed the key.
    const read = await server.call('GET', `${BASE}/${created.id}`, { token: adminA });
    expect(read.body).toMatchObject({ name: created.name, scopes: created.scopes, prefix: created.prefix, allowedIps: [] });
    expect((await products(created.key)).status).toBe(200);
  });
});

describe('who may manage keys', () => {
  const everyRoute = (id: string): [string, string, unknown][] => [
    ['GET', BASE, undefined],
    ['POST', BASE, { name: 'x', scopes: ['*'] }],
    ['GET', `${BASE}/${id}`, undefined],
    ['PATCH', `${BASE}/${id}`, { name: 'x' }],
    ['POST', `${BASE}/${id}/revoke`, undefined],
    ['POST', `${BASE}/${id}/rotate`, undefined],
  ];

  it('refuses signed-in users who are not administrators, API keys of any scope, and anonymous callers', async () => {
    const target = await create();
    const manager = await a.userWith('MANAGER');
    const managerToken = await signIn(manager.email, manager.password);
    const adminScopes = await a.keyWith(['admin:write']);
    for (const [method, path, body] of everyRoute(target.id)) {
      const asManager = await server.call(method, path, { token: managerToken, body });
      expect([asManager.status, asManager.body.code], `${method} ${path}`).toEqual([403, 'FORBIDDEN']);
      for (const key of [a.key, adminScopes]) {
        const asKey = await server.call(method, path, { token: key, body });
        expect([asKey.status, asKey.body.code], `${method} ${path}`).toEqual([403, 'FORBIDDEN']);
      }
      const anonymous = await server.call(method, path, { body });
      expect([anonymous.status, anonymous.body.code], `${method} ${path}`).toEqual([401, 'MISSING_AUTHORIZATION']);
    }
    // None of it touched the key.
    const read = await server.call('GET', `${BASE}/${target.id}`, { token: adminA });
    expect(read.body).toMatchObject({ name: target.name, prefix: target.prefix, revokedAt: null });
    expect((await products(target.key)).status).toBe(200);
  });

  it('refuses an API key (403 FORBIDDEN) before reading or validating its body, on every session-only route', async () => {
    const target = await create();
    const sessionOnly = server.handler.rest.routes.filter((route) => route.sessionFields.length > 0);
    expect(sessionOnly.map((route) => `${route.method} ${route.path}`).sort()).toEqual(
      everyRoute(':id').map(([method, path]) => `${method} ${path}`).sort(),
    );
    const manager = await a.userWith('MANAGER');
    const managerToken = await signIn(manager.email, manager.password);
    for (const route of sessionOnly) {
      const path = route.path.replace(':id', target.id);
      for (const body of [{ name: '', scopes: ['nope'], secret: 'x' }, '{not json', { name: 'x'.repeat(10_000), scopes: 1 }]) {
        const sent = route.method === 'GET' ? undefined : body;
        for (const token of [a.key, managerToken]) {
          const res = await server.call(route.method, path, { token, body: sent });
          expect([res.status, res.body.code], `${route.method} ${path} ${JSON.stringify(sent)}`).toEqual([403, 'FORBIDDEN']);
          expect(res.body.details).toBeUndefined();
        }
      }
    }
    const byKey = await server.call('POST', BASE, { token: a.key, body: { scopes: 'x' } });
    expect(byKey.body.error).toBe('This operation needs a signed-in user session, not an API key');
    // The administrator still gets the validation details, and the key was never touched.
    const asAdmin = await server.call('POST', BASE, { token: adminA, body: { name: '', scopes: ['nope'] } });
    expect([asAdmin.status, Object.keys(asAdmin.body.details).sort()]).toEqual([400, ['name', 'scopes']]);
    expect((await products(target.key)).status).toBe(200);
    expect((await fetch(`${server.url}/health`, { signal: AbortSignal.timeout(5_000) })).status).toBe(200);
  });

  it('another organization\'s administrator gets 404 for the key, which keeps working unchanged', async () => {
    const target = await create({ name: 'A private' });
    for (const [method, path, body] of everyRoute(target.id).filter(([, path]) => path !== BASE)) {
      const res = await server.call(method, path, { token: adminB, body });
      expect([res.status, res.body], `${method} ${path}`).toEqual([404, { error: 'API key not found', code: 'NOT_FOUND' }]);
    }
    const listB = await server.call('GET', BASE, { token: adminB });
    expect(listB.body.data.map((k: { id: string }) => k.id)).not.toContain(target.id);
    const inB = await create({ name: 'B own' }, adminB);
    expect(inB.createdByUserId).toBe(b.admin.id);
    expect((await server.call('GET', BASE, { token: adminA })).body.data.map((k: { id: string }) => k.id)).not.toContain(inB.id);

    const read = await server.call('GET', `${BASE}/${target.id}`, { token: adminA });
    const { key, ...withoutSecret } = target;
    expect(read.body).toEqual(withoutSecret);
    expect((await products(key)).status).toBe(200);
    expect((await products(inB.key)).body.data).toBeDefined();
  });

  it('answers 404 for an unknown id', async () => {
    expect((await server.call('GET', `${BASE}/nope`, { token: adminA })).status).toBe(404);
    expect((await rotate('nope')).status).toBe(404);
  });
});

describe('GraphQL', () => {
  const FIELDS = 'id name prefix scopes allowedIps expiresAt revokedAt previousKeyExpiresAt';

  it('creates, lists, updates, rotates and revokes keys', async () => {
    const created = await server.graphql(
      `mutation ($input: ApiKeyCreateInput!) { createApiKey(input: $input) { ... on ApiKeyWithSecret { key apiKey { ${FIELDS} } } } }`,
      { input: { name: 'From GraphQL', scopes: ['inventory:read'], allowedIps: ['127.0.0.1', '::1'] } },
      adminA,
    );
    expect(created.body.errors).toBeUndefined();
    const { key, apiKey } = created.body.data.createApiKey;
    expect(apiKey).toMatchObject({ name: 'From GraphQL', scopes: ['inventory:read'], allowedIps: ['127.0.0.1', '::1'], revokedAt: null });
    expect((await products(key)).status).toBe(200);

    const list = await server.graphql(`{ apiKeys(first: 100) { edges { node { ${FIELDS} } } } }`, {}, adminA);
    expect(list.body.data.apiKeys.edges.map((e: { node: unknown }) => e.node)).toContainEqual(apiKey);
    const listB = await server.graphql(`{ apiKeys(first: 100) { edges { node { id } } } }`, {}, adminB);
    expect(listB.body.data.apiKeys.edges.map((e: { node: { id: string } }) => e.node.id)).not.toContain(apiKey.id);

    const updated = await server.graphql(
      `mutation ($id: ID!) { updateApiKey(id: $id, input: { scopes: ["reports:read"], expiresAt: null }) { ... on ApiKey { scopes expiresAt } } }`,
      { id: apiKey.id },
      adminA,
    );
    expect(updated.body.data.updateApiKey).toEqual({ scopes: ['reports:read'], expiresAt: null });
    expect((await products(key)).body.code).toBe('INSUFFICIENT_SCOPE');

    const rotated = await server.graphql(
      `mutation ($id: ID!) { rotateApiKey(id: $id, input: { gracePeriodSeconds: 60 }) { ... on ApiKeyWithSecret { key apiKey { previousKeyExpiresAt } } } }`,
      { id: apiKey.id },
      adminA,
    );
    expect(rotated.body.data.rotateApiKey.key).not.toBe(key);
    expect(rotated.body.data.rotateApiKey.apiKey.previousKeyExpiresAt).not.toBeNull();

    const revoked = await server.graphql(`mutation ($id: ID!) { revokeApiKey(id: $id) { ... on ApiKey { revokedAt } } }`, { id: apiKey.id }, adminA);
    expect(revoked.body.data.revokeApiKey.revokedAt).not.toBeNull();
    const again = await graphqlRefusal(server, adminA, `mutation ($id: ID!) { revokeApiKey(id: $id) { ... on ApiKey { id } ${REFUSAL} } }`, { id: apiKey.id });
    expect(again).toMatchObject({ type: 'ConflictError', code: 'INVALID_STATE' });
  });

  it('reports validation details, refusals and foreign ids as error codes', async () => {
    const bad = await graphqlRefusal(server, adminA, `mutation { createApiKey(input: { name: "", scopes: ["nope"] }) { ... on ApiKeyWithSecret { key } ${REFUSAL} } }`);
    expect(bad).toMatchObject({ type: 'ValidationError', code: 'VALIDATION_ERROR', details: { name: ['Required'], scopes: [expect.any(String)] } });

    const byKey = await server.graphql(`mutation { createApiKey(input: { name: "x", scopes: ["*"] }) { ... on ApiKeyWithSecret { key } } }`, {}, a.key);
    expect(byKey.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect(byKey.body.data).toBeNull();
    // Variables that do not fit the input type are not checked for a caller who may not run the field.
    for (const variables of [{ input: { name: 1, scopes: 'x', secret: 'y' } }, {}]) {
      const byKeyBadInput = await server.graphql(`mutation ($input: ApiKeyCreateInput!) { createApiKey(input: $input) { ... on ApiKeyWithSecret { key } } }`, variables, a.key);
      expect(byKeyBadInput.body.errors.map((e: any) => e.extensions.code), JSON.stringify(byKeyBadInput.body)).toEqual(['FORBIDDEN']);
      expect(byKeyBadInput.body.data).toBeNull();
    }
    const viaFragment = await server.graphql(
      `mutation ($id: ID!, $g: Int) { ...F } fragment F on Mutation { rotateApiKey(id: $id, input: { gracePeriodSeconds: $g }) { ... on ApiKeyWithSecret { key } } }`,
      { id: 'x', g: 'not a number' },
      a.key,
    );
    expect(viaFragment.body.errors.map((e: any) => e.extensions.code)).toEqual(['FORBIDDEN']);
    const adminBadInput = await server.graphql(`mutation ($input: ApiKeyCreateInput!) { createApiKey(input: $input) { ... on ApiKeyWithSecret { key } } }`, { input: { name: 1 } }, adminA);
    expect(adminBadInput.body.errors[0].message).toMatch(/^Variable "\$input" got invalid value/);
    const byKeyList = await server.graphql(`{ apiKeys { totalCount } }`, {}, a.key);
    expect(byKeyList.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const viewer = await a.userWith('VIEWER');
    const viewerList = await server.graphql(`{ apiKeys { totalCount } }`, {}, await signIn(viewer.email, viewer.password));
    expect(viewerList.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const anonymous = await server.graphql(`{ apiKeys { totalCount } }`);
    expect(anonymous.body.errors[0].extensions.code).toBe('MISSING_AUTHORIZATION');

    const target = await create();
    const foreign = await graphqlRefusal(server, adminB, `mutation ($id: ID!) { rotateApiKey(id: $id) { ... on ApiKeyWithSecret { key } ${REFUSAL} } }`, { id: target.id });
    expect(foreign).toMatchObject({ type: 'NotFoundError', code: 'NOT_FOUND' });
    expect((await products(target.key)).status).toBe(200);
  });
});

describe('OpenAPI', () => {
  it('documents every API key route under Administration', async () => {
    const doc = (await server.call('GET', '/api/openapi.json')).body;
    const ops = [
      doc.paths['/admin/api-keys'].get, doc.paths['/admin/api-keys'].post, doc.paths['/admin/api-keys/{id}'].get,
      doc.paths['/admin/api-keys/{id}'].patch, doc.paths['/admin/api-keys/{id}/revoke'].post, doc.paths['/admin/api-keys/{id}/rotate'].post,
    ];
    for (const op of ops) expect(op.tags).toEqual(['Administration']);
    expect(doc.components.schemas.ApiKey.properties.keyHash).toBeUndefined();
    expect(doc.components.schemas.ApiKeyWithSecret).toBeDefined();
  });
});
