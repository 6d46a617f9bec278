import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocationFor } from '../../../src/services/admin/admin.js';
import { createProduct } from '../../support/api.js';
import type { Tenant } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';
import { addStock } from '../../support/stock.js';
import { startServerWithTwoTenants } from '../../support/two-tenants.js';
import { expectLedgerBalanced } from '../../support/ledger-balance.js';

// Role and API-key scope rules of every inventory transfer path: reading needs transfers.read (every
// role; inventory:read, planning:* keys), changing transfers.write (PLANNER, MANAGER, ADMIN; inventory:write, planning:*).
let server: TestServer;
let a: Tenant;
let store: { id: string };
let productId: string;
let binIds: string[];

beforeAll(async () => {
  ({ server, a } = await startServerWithTwoTenants());
  store = await createLocationFor(server.operator, { organizationId: a.org.id, code: 'ST1', name: 'Store' });
  productId = await createProduct(server, a.key, 'PERM-1');
  const one = await addStock(server.app, a.org.id, { productMasterId: productId, locationId: a.warehouse.id, binCode: 'P-1' }, { ON_HAND: 1000 });
  const two = await addStock(server.app, a.org.id, { productMasterId: productId, locationId: a.warehouse.id, binCode: 'P-2' }, { ON_HAND: 1 });
  binIds = [one.binId!, two.binId!];
});
afterAll(() => server?.close());

const signIn = async (role: 'ADMIN' | 'MANAGER' | 'PLANNER' | 'VIEWER') => {
  const user = await a.userWith(role);
  return (await server.call('POST', '/api/auth/sign-in', { body: { email: user.email, password: user.password } })).body.token as string;
};

const newDraft = async () => {
  const res = await server.call('POST', '/api/inventory/transfers', { token: a.key, body: { sourceLocationId: a.warehouse.id, destLocationId: store.id, lines: [{ productMasterId: productId, quantity: 1 }] } });
  return res.body.id as string;
};

/** Every read path, then every write path (each write on its own fresh draft where it needs one). */
const reads = async (token: string) => {
  const id = await newDraft();
  return Promise.all([
    server.call('GET', '/api/inventory/transfers', { token }),
    server.call('GET', `/api/inventory/transfers/${id}`, { token }),
    server.call('GET', '/api/inventory/transfers/in-transit', { token }),
    server.call('GET', `/api/inventory/transfers/bins?locationId=${a.warehouse.id}`, { token }),
  ]).then((all) => all.map((r) => r.status));
};

const writes = async (token: string) => {
  const statuses: number[] = [];
  const body = { sourceLocationId: a.warehouse.id, destLocationId: store.id, lines: [{ productMasterId: productId, quantity: 1 }] };
  statuses.push((await server.call('POST', '/api/inventory/transfers', { token, body })).status);
  for (const action of [{ action: 'update', notes: 'n' }, { action: 'ship' }, { action: 'cancel' }]) {
    statuses.push((await server.call('POST', `/api/inventory/transfers/${await newDraft()}`, { token, body: action })).status);
  }
  const shipped = await newDraft();
  await server.call('POST', `/api/inventory/transfers/${shipped}`, { token: a.key, body: { action: 'ship' } });
  statuses.push((await server.call('POST', `/api/inventory/transfers/${shipped}`, { token, body: { action: 'receive' } })).status);
  const move = { locationId: a.warehouse.id, productMasterId: productId, fromBinId: binIds[0], toBinId: binIds[1], quantity: 1 };
  statuses.push((await server.call('POST', '/api/inventory/transfers/bins', { token, body: move })).status);
  return statuses;
};

const OK_WRITES = [201, 200, 200, 200, 200, 200];
const FORBIDDEN_WRITES = [403, 403, 403, 403, 403, 403];

describe('transfer permissions', () => {
  it('VIEWER reads only; PLANNER, MANAGER and ADMIN read and write', async () => {
    const viewer = await signIn('VIEWER');
    expect(await reads(viewer)).toEqual([200, 200, 200, 200]);
    expect(await writes(viewer)).toEqual(FORBIDDEN_WRITES);
    for (const role of ['PLANNER', 'MANAGER', 'ADMIN'] as const) {
      const token = await signIn(role);
      expect(await reads(token), role).toEqual([200, 200, 200, 200]);
      expect(await writes(token), role).toEqual(OK_WRITES);
    }
  });

  it('API keys: inventory:read reads, inventory:write and planning:* write, other scopes neither', async () => {
    const readKey = await a.keyWith(['inventory:read']);
    expect(await reads(readKey)).toEqual([200, 200, 200, 200]);
    expect(await writes(readKey)).toEqual(FORBIDDEN_WRITES);
    for (const scope of ['inventory:write', 'planning:*']) {
      const key = await a.keyWith([scope]);
      expect(await reads(key), scope).toEqual([200, 200, 200, 200]);
      expect(await writes(key), scope).toEqual(OK_WRITES);
    }
    const forecastKey = await a.keyWith(['forecast:read']);
    expect(await reads(forecastKey)).toEqual([403, 403, 403, 403]);
    expect(await writes(forecastKey)).toEqual(FORBIDDEN_WRITES);
    expect((await server.call('GET', '/api/inventory/transfers')).status).toBe(401);
  });
});

describe('the ledger', () => {
  it('accounts for the quantities of every stock line the file touched', () => expectLedgerBalanced(server.app.prisma));
});
