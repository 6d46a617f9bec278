import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocationFor } from '../../src/services/admin/admin.js';
import { createProduct } from '../support/api.js';
import type { Tenant } from '../support/fixtures.js';
import type { TestServer } from '../support/server.js';
import { startServerWithTwoTenants } from '../support/two-tenants.js';

// Who may make each move: reading needs stockrequests.read (every role; inventory:read keys), writing
// stockrequests.write (PLANNER and up; inventory:write keys), approving and rejecting stockrequests.approve
// (MANAGER and ADMIN; inventory:* keys), and nobody approves their own request but a tenant administrator.
let server: TestServer;
let a: Tenant;
let ward: { id: string };
let product: string;

beforeAll(async () => {
  ({ server, a } = await startServerWithTwoTenants());
  ward = await createLocationFor(server.operator, { organizationId: a.org.id, code: 'WARD1', name: 'Ward 1' });
  product = await createProduct(server, a.key, 'PERM-1');
});
afterAll(() => server?.close());

const signIn = async (role: 'ADMIN' | 'MANAGER' | 'PLANNER' | 'VIEWER') => {
  const user = await a.userWith(role);
  return (await server.call('POST', '/api/auth/sign-in', { body: { email: user.email, password: user.password } })).body.token as string;
};
const call = (method: string, path: string, token: string, body?: unknown) => server.call(method, path, { token, body });
const draft = (quantityRequested: number) => ({ requestingLocationId: ward.id, supplyingLocationId: a.warehouse.id, neededBy: '2031-01-01', lines: [{ productMasterId: product, quantityRequested }] });
const create = async (token = a.key) => {
  const res = await call('POST', '/api/stock-requests', token, draft(5));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
};
const submitted = async (token = a.key) => {
  const id = await create(token);
  expect((await call('POST', `/api/stock-requests/${id}/submit`, token, {})).status).toBe(200);
  return id;
};
const statusOf = async (id: string) => (await server.app.prisma.stockRequest.findUniqueOrThrow({ where: { id } })).status;

const reads = async (token: string) => {
  const id = await create();
  return Promise.all(['', `/${id}`, `/${id}/status`, `/${id}/lines`].map(async (suffix) => (await call('GET', `/api/stock-requests${suffix}`, token)).status));
};

/** create, PATCH, DELETE, submit, comment, POST lines, status CANCELLED, rollback: the stockrequests.write paths. */
const writes = async (token: string) => {
  const statuses: number[] = [];
  statuses.push((await call('POST', '/api/stock-requests', token, draft(1))).status);
  statuses.push((await call('PATCH', `/api/stock-requests/${await create()}`, token, { priority: 'HIGH' })).status);
  statuses.push((await call('DELETE', `/api/stock-requests/${await create()}`, token)).status);
  statuses.push((await call('POST', `/api/stock-requests/${await create()}/submit`, token, {})).status);
  statuses.push((await call('POST', `/api/stock-requests/${await create()}/comment`, token, { note: 'hi' })).status);
  statuses.push((await call('POST', `/api/stock-requests/${await create()}/lines`, token, { lines: [{ productMasterId: product, quantityRequested: 2 }] })).status);
  statuses.push((await call('POST', `/api/stock-requests/${await submitted()}/status`, token, { status: 'CANCELLED' })).status);
  statuses.push((await call('POST', `/api/stock-requests/${await submitted()}/rollback`, token, {})).status);
  return statuses;
};

/** approve, reject, status APPROVED, status REJECTED, approved quantities: the stockrequests.approve moves, on others' requests. */
const approvals = async (token: string) => {
  const statuses: number[] = [];
  const ids = [await submitted(), await submitted(), await submitted(), await submitted(), await submitted()];
  statuses.push((await call('POST', `/api/stock-requests/${ids[0]}/approve`, token, {})).status);
  statuses.push((await call('POST', `/api/stock-requests/${ids[1]}/reject`, token, { reason: 'no' })).status);
  statuses.push((await call('POST', `/api/stock-requests/${ids[2]}/status`, token, { status: 'APPROVED' })).status);
  statuses.push((await call('POST', `/api/stock-requests/${ids[3]}/status`, token, { status: 'REJECTED', note: 'no' })).status);
  statuses.push((await call('POST', `/api/stock-requests/${ids[4]}/lines`, token, { lines: [{ productMasterId: product, quantityApproved: 1 }] })).status);
  // A refused approval changes nothing.
  if (statuses.every((s) => s === 403)) expect(await Promise.all(ids.map(statusOf))).toEqual(Array(5).fill('SUBMITTED'));
  return statuses;
};

const OK_READS = [200, 200, 200, 200];
const OK_WRITES = [201, 200, 200, 200, 201, 200, 200, 200];
const NO_WRITES = Array(8).fill(403);
const OK_APPROVALS = [200, 200, 200, 200, 200];
const NO_APPROVALS = Array(5).fill(403);

describe('stock request permissions', () => {
  it('VIEWER reads only; PLANNER writes but does not approve; MANAGER and ADMIN approve', async () => {
    const viewer = await signIn('VIEWER');
    expect(await reads(viewer)).toEqual(OK_READS);
    expect(await writes(viewer)).toEqual(NO_WRITES);
    expect(await approvals(viewer)).toEqual(NO_APPROVALS);
    const planner = await signIn('PLANNER');
    expect(await reads(planner)).toEqual(OK_READS);
    expect(await writes(planner)).toEqual(OK_WRITES);
    expect(await approvals(planner)).toEqual(NO_APPROVALS);
    for (const role of ['MANAGER', 'ADMIN'] as const) {
      const token = await signIn(role);
      expect(await reads(token), role).toEqual(OK_READS);
      expect(await writes(token), role).toEqual(OK_WRITES);
      expect(await approvals(token), role).toEqual(OK_APPROVALS);
    }
  });

  it('API keys: inventory:read reads, inventory:write writes, inventory:* approves, other scopes nothing', async () => {
    const readKey = await a.keyWith(['inventory:read']);
    expect(await reads(readKey)).toEqual(OK_READS);
    expect(await writes(readKey)).toEqual(NO_WRITES);
    const writeKey = await a.keyWith(['inventory:write']);
    expect(await writes(writeKey)).toEqual(OK_WRITES);
    expect(await approvals(writeKey)).toEqual(NO_APPROVALS);
    expect(await approvals(await a.keyWith(['inventory:*']))).toEqual(OK_APPROVALS);
    const forecastKey = await a.keyWith(['forecast:read']);
    expect(await reads(forecastKey)).toEqual([403, 403, 403, 403]);
    expect(await writes(forecastKey)).toEqual(NO_WRITES);
    expect((await server.call('GET', '/api/stock-requests')).status).toBe(401);
  });

  it('an approver cannot approve their own request (403, nothing changed) unless a tenant administrator', async () => {
    const manager = await signIn('MANAGER');
    const own = await submitted(manager);
    for (const [path, payload] of [['approve', {}], ['status', { status: 'APPROVED' }], ['lines', { lines: [{ productMasterId: product, quantityApproved: 1 }] }]] as const) {
      const res = await call('POST', `/api/stock-requests/${own}/${path}`, manager, payload);
      expect(res.status, path).toBe(403);
      expect(res.body.error).toMatch(/own stock request/);
    }
    expect(await statusOf(own)).toBe('SUBMITTED');
    expect((await server.app.prisma.stockRequestLine.findFirstOrThrow({ where: { requestId: own } })).quantityApproved).toBeNull();
    expect((await call('POST', `/api/stock-requests/${own}/approve`, await signIn('MANAGER'), {})).status).toBe(200);

    const admin = await signIn('ADMIN');
    const adminsOwn = await submitted(admin);
    expect((await call('POST', `/api/stock-requests/${adminsOwn}/approve`, admin, {})).status).toBe(200);
    const keyOwn = await submitted(a.key);
    expect((await call('POST', `/api/stock-requests/${keyOwn}/approve`, a.key, {})).status).toBe(200);
    const approverKey = await a.keyWith(['inventory:*']);
    const approverKeyOwn = await submitted(approverKey);
    expect((await call('POST', `/api/stock-requests/${approverKeyOwn}/approve`, approverKey, {})).status).toBe(403);
  });
});
