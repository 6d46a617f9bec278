import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tenant } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';
import { startServerWithTwoTenants } from '../../support/two-tenants.js';
import { generate, RECS, roleTokens, stockedProduct } from './recommendation-setup.js';

let server: TestServer;
let a: Tenant;
let b: Tenant;
let tokens: Awaited<ReturnType<typeof roleTokens>>;
let productMasterId: string;
let locations: string[];

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants());
  tokens = await roleTokens(server, a);
  ({ productMasterId, locations } = await stockedProduct(server, a, [
    { min: 10, reorder: 20, max: 100, stock: 10_000 },
    { min: 10, reorder: 20, max: 50, stock: 0 },
  ]));
});
afterAll(() => server?.close());

/** A fresh PENDING recommendation of tenant a (its source has stock for many executions). */
async function fresh() {
  const { recommendations } = await generate(server, a.key, { productMasterId });
  if (recommendations[0].status === 'PENDING') return recommendations[0].id as string;
  throw new Error('no pending recommendation');
}

/** An APPROVED one of its own product: once executed, the units in transit fill the destination, and nothing is proposed for it again. */
async function approved() {
  const own = await stockedProduct(server, a, [
    { min: 10, reorder: 20, max: 100, stock: 300 },
    { min: 10, reorder: 20, max: 50, stock: 0 },
  ]);
  const [{ id }] = (await generate(server, a.key, { productMasterId: own.productMasterId })).recommendations;
  expect((await server.call('POST', `${RECS}/${id}/approve`, { token: a.key, body: {} })).status).toBe(200);
  return id;
}

type Path = { name: string; call: (token: string) => Promise<{ status: number; body: any }> };

const paths = (): Record<'read' | 'write' | 'approve' | 'execute', Path[]> => ({
  read: [
    { name: 'GET list', call: (token) => server.call('GET', RECS, { token }) },
    { name: 'GET pending', call: (token) => server.call('GET', `${RECS}/pending`, { token }) },
    { name: 'GET one', call: async (token) => server.call('GET', `${RECS}/${await fresh()}`, { token }) },
    { name: 'GET costs', call: (token) => server.call('GET', '/api/transfers/costs', { token }) },
  ],
  write: [
    { name: 'POST generate', call: (token) => server.call('POST', RECS, { token, body: { productMasterId } }) },
    { name: 'PUT costs', call: (token) => server.call('PUT', '/api/transfers/costs', { token, body: { sourceLocationId: locations[0], destLocationId: locations[1], costPerUnit: 1 } }) },
  ],
  approve: [
    { name: 'approve', call: async (token) => server.call('POST', `${RECS}/${await fresh()}/approve`, { token, body: {} }) },
    { name: 'reject', call: async (token) => server.call('POST', `${RECS}/${await fresh()}/reject`, { token, body: { comment: 'no' } }) },
  ],
  execute: [{ name: 'execute', call: async (token) => server.call('POST', `${RECS}/${await approved()}/execute`, { token }) }],
});

describe('roles: view ADMIN, MANAGER, PLANNER, VIEWER; generate ADMIN, MANAGER, PLANNER; approve, reject, execute ADMIN, MANAGER', () => {
  const allowed = {
    VIEWER: ['read'],
    PLANNER: ['read', 'write'],
    MANAGER: ['read', 'write', 'approve', 'execute'],
    ADMIN: ['read', 'write', 'approve', 'execute'],
  } as const;
  for (const role of ['VIEWER', 'PLANNER', 'MANAGER', 'ADMIN'] as const) {
    it(`${role}`, async () => {
      for (const [group, list] of Object.entries(paths())) {
        for (const path of list) {
          const res = await path.call(tokens[role]);
          if ((allowed[role] as readonly string[]).includes(group)) expect(res.status, `${role} ${path.name}: ${JSON.stringify(res.body)}`).toBe(200);
          else expect([res.status, res.body.code], `${role} ${path.name}`).toEqual([403, 'FORBIDDEN']);
        }
      }
    });
  }
});

describe('API key scopes', () => {
  const allowed: Record<string, string[]> = {
    'inventory:read': ['read'],
    'inventory:write': ['read', 'write'],
    'inventory:*': ['read', 'write', 'approve', 'execute'],
    'planning:*': ['read', 'write'],
    'forecast:read': [],
  };
  for (const [scope, groups] of Object.entries(allowed)) {
    it(scope, async () => {
      const key = await a.keyWith([scope]);
      for (const [group, list] of Object.entries(paths())) {
        for (const path of list) {
          const res = await path.call(key);
          if (groups.includes(group)) expect(res.status, `${scope} ${path.name}: ${JSON.stringify(res.body)}`).toBe(200);
          else expect([res.status, res.body.code], `${scope} ${path.name}`).toEqual([403, 'INSUFFICIENT_SCOPE']);
        }
      }
    });
  }

  it('refuses without credentials', async () => {
    for (const list of Object.values(paths())) for (const path of list) expect((await path.call('')).status, path.name).toBe(401);
  });
});

describe('tenant isolation', () => {
  it("another organization's recommendation is 404 on every path and never listed", async () => {
    const id = await fresh();
    for (const [method, path, body] of [
      ['GET', `${RECS}/${id}`, undefined],
      ['POST', `${RECS}/${id}/approve`, {}],
      ['POST', `${RECS}/${id}/reject`, {}],
      ['POST', `${RECS}/${id}/execute`, undefined],
    ] as const) {
      const res = await server.call(method, path, { token: b.key, body });
      expect([res.status, res.body], `${method} ${path}`).toEqual([404, { error: 'Recommendation not found', code: 'NOT_FOUND' }]);
    }
    expect((await server.call('GET', `${RECS}/${id}`, { token: a.key })).body.status).toBe('PENDING');
    const listed = await server.call('GET', RECS, { token: b.key });
    expect(listed.body).toMatchObject({ total: 0, recommendations: [] });
    expect((await server.call('GET', `${RECS}/pending`, { token: b.key })).body.total).toBe(0);
    // b generating over its own (empty) data proposes nothing, and cannot name a's product or location.
    expect((await generate(server, b.key, {})).recommendations).toEqual([]);
    const foreign = await server.call('POST', RECS, { token: b.key, body: { productMasterId, locationId: locations[0] } });
    expect(foreign.body.details).toEqual({ productMasterId: ['Product not found'], locationId: ['Location not found'] });
    expect((await server.call('GET', `${RECS}?sourceLocationId=${locations[0]}`, { token: b.key })).status).toBe(404);
    const costs = await server.call('GET', '/api/transfers/costs', { token: b.key });
    expect(costs.body.costs).toEqual([]);
    const cost = await server.call('PUT', '/api/transfers/costs', { token: b.key, body: { sourceLocationId: locations[0], destLocationId: b.warehouse.id, costPerUnit: 1 } });
    expect(cost.body.details).toEqual({ sourceLocationId: ['Location not found'] });
  });
});
