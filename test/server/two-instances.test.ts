import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocationFor } from '../../src/services/admin/admin.js';
import { createProduct } from '../support/api.js';
import type { Tenant } from '../support/fixtures.js';
import { type ServerProcess, startServerProcess } from '../support/processes.js';
import type { TestServer } from '../support/server.js';
import { addStock } from '../support/stock.js';
import { startServerWithTwoTenants } from '../support/two-tenants.js';

// Two server processes on one PostgreSQL (docs/deployment.md), every call below spread across both at once: adjustment
// contention without a lost update, one Idempotency-Key applied once, an import one instance's worker applies while the other answers its status,
// one transfer shipped from both sides (exactly one wins), the request limits and the sign-in lock shared through
// the database. (A subscription on one instance seeing a change made on another: test/events/publisher/
// subscriptions-across-instances.test.ts.) PostgreSQL only: PGlite is one process's database.
const pgOnly = !process.env.TEST_DATABASE_URL;

let setup: TestServer;
let a: Tenant;
let instances: ServerProcess[] = [];
let store: string;
const PER_USER = 20;
const SIGN_IN_FAILURES = 4;

beforeAll(async () => {
  if (pgOnly) return;
  // The in-process server only makes tenants and reads the database; the two instances answer every call.
  ({ server: setup, a } = await startServerWithTwoTenants());
  store = (await createLocationFor(setup.operator, { organizationId: a.org.id, code: 'TWO-STORE', name: 'Store' })).id;
  const env = {
    DATABASE_URL: setup.database.url!,
    DATA_DIR: '',
    RATE_LIMIT_STORE: 'postgres',
    RATE_LIMIT_PER_USER: String(PER_USER),
    SIGN_IN_MAX_FAILURES: String(SIGN_IN_FAILURES),
    IMPORT_WORKERS: '1',
    FORECAST_RUN_WORKERS: '0',
    STOCK_SNAPSHOT_POLL_SECONDS: '0',
    DEMAND_RATE_POLL_SECONDS: '0',
  };
  // Started together, as a deployment would; one that fails must not leave the other running.
  const started = await Promise.allSettled([startServerProcess(env), startServerProcess(env)]);
  instances = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason;
}, 180_000);
afterAll(async () => {
  await Promise.all(instances.map((i) => i.stop()));
  await setup?.close();
});

/** A call to instance i % 2. */
async function on(i: number, method: string, path: string, body?: unknown, token = a.key, headers: Record<string, string> = {}) {
  const res = await fetch(`${instances[i % 2]!.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, replayed: res.headers.get('idempotent-replayed') === 'true' };
}

describe.skipIf(pgOnly)('two instances on one PostgreSQL', { timeout: 180_000 }, () => {
  it('adjust one line from both at once: every change applied once, none lost, none past zero', async () => {
    const productMasterId = await createProduct(setup, a.key, 'TWO-ADJ');
    const line = await addStock(setup.app, a.org.id, { productMasterId, locationId: a.warehouse.id }, { ON_HAND: 30 });
    // 60 decrements of 1 against 30 units: exactly 30 pass, the rest are refused, on either instance.
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => on(i, 'POST', '/api/inventory/adjust', { inventoryItemId: line.id, delta: -1, reasonCodeId: 'DAMAGED' })));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(30);
    expect(answers.filter((r) => r.status !== 200).every((r) => r.body.code === 'INSUFFICIENT_STOCK')).toBe(true);
    const after = await setup.app.prisma.stockLine.findUniqueOrThrow({ where: { id: line.id } });
    expect(after.qtyOnHand).toBe(0);
    expect(await setup.app.prisma.stockTransaction.count({ where: { stockLineId: line.id } })).toBe(31);
    // And 40 increments split across both: all of them, summed.
    await Promise.all(Array.from({ length: 40 }, (_, i) => on(i, 'POST', '/api/inventory/adjust', { inventoryItemId: line.id, delta: 2, reasonCodeId: 'FOUND' })));
    expect((await setup.app.prisma.stockLine.findUniqueOrThrow({ where: { id: line.id } })).qtyOnHand).toBe(80);
  });

  it('one Idempotency-Key sent 20 times across both at once: one change, every other answer its replay or 409', async () => {
    const productMasterId = await createProduct(setup, a.key, 'TWO-IDEM');
    const line = await addStock(setup.app, a.org.id, { productMasterId, locationId: a.warehouse.id }, { ON_HAND: 10 });
    const body = { inventoryItemId: line.id, delta: 1, reasonCodeId: 'FOUND' };
    const key = `two-instances-${line.id}`;
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => on(i, 'POST', '/api/inventory/adjust', body, a.key, { 'idempotency-key': key })));
    expect((await setup.app.prisma.stockLine.findUniqueOrThrow({ where: { id: line.id } })).qtyOnHand).toBe(11);
    expect(await setup.app.prisma.stockTransaction.count({ where: { stockLineId: line.id } })).toBe(2);
    const done = answers.filter((r) => r.status === 200);
    expect(done.filter((r) => !r.replayed)).toHaveLength(1);
    expect(answers.filter((r) => r.status !== 200).every((r) => r.status === 409 && r.body.code === 'IDEMPOTENCY_KEY_IN_USE')).toBe(true);
    for (const r of done) expect(r.body).toEqual(done[0]!.body);
    // Each instance replays the answer the other gave.
    for (const i of [0, 1]) {
      const again = await on(i, 'POST', '/api/inventory/adjust', body, a.key, { 'idempotency-key': key });
      expect(again).toMatchObject({ status: 200, replayed: true, body: done[0]!.body });
    }
  });

  it('an import posted to one instance is applied by a worker and followed from the other', async () => {
    const catalog = await on(0, 'POST', '/api/import/catalog', Array.from({ length: 50 }, (_, i) => ({ externalId: `TWO-IMP-${i}` })));
    expect(catalog.status).toBe(202);
    const waitOn = async (i: number, jobId: string) => {
      for (let n = 0; n < 600; n++) {
        const res = await on(i, 'GET', `/api/import/status/${jobId}`);
        expect(res.status).toBe(200);
        if (res.body.state === 'COMPLETED' || res.body.state === 'FAILED') return res.body;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error('the import did not end');
    };
    expect(await waitOn(1, catalog.body.jobId)).toMatchObject({ state: 'COMPLETED', processedRows: 50, rejectedRows: 0 });
    const inventory = await on(1, 'POST', '/api/import/inventory', Array.from({ length: 50 }, (_, i) => ({ sku: `TWO-IMP-${i}`, locationCode: 'WH1', onHand: i + 1 })));
    expect(await waitOn(0, inventory.body.jobId)).toMatchObject({ state: 'COMPLETED', processedRows: 50, rejectedRows: 0 });
    const total = await setup.app.prisma.stockLine.aggregate({ where: { organizationId: a.org.id, productMaster: { sku: { startsWith: 'TWO-IMP-' } } }, _sum: { qtyOnHand: true } });
    expect(total._sum.qtyOnHand).toBe((50 * 51) / 2);
  });

  it('one transfer shipped from both instances at once moves once; received on the other, a second receipt is refused', async () => {
    const productMasterId = await createProduct(setup, a.key, 'TWO-TRF');
    await addStock(setup.app, a.org.id, { productMasterId, locationId: a.warehouse.id }, { ON_HAND: 10 });
    const draft = await on(0, 'POST', '/api/inventory/transfers', { sourceLocationId: a.warehouse.id, destLocationId: store, lines: [{ productMasterId, quantity: 6 }] });
    expect(draft.status, JSON.stringify(draft.body)).toBe(201);
    const id = draft.body.id ?? draft.body.transfer?.id;
    const ships = await Promise.all([on(0, 'POST', `/api/inventory/transfers/${id}`, { action: 'ship' }), on(1, 'POST', `/api/inventory/transfers/${id}`, { action: 'ship' })]);
    expect(ships.map((r) => r.status).sort()).toEqual([200, 409]);
    const receipts = await Promise.all([on(1, 'POST', `/api/inventory/transfers/${id}`, { action: 'receive' }), on(0, 'POST', `/api/inventory/transfers/${id}`, { action: 'receive' })]);
    expect(receipts.map((r) => r.status).sort()).toEqual([200, 409]);
    const lines = await setup.app.prisma.stockLine.findMany({ where: { productMasterId } });
    expect(lines.map((l) => [l.locationId === store ? 'store' : 'warehouse', l.qtyOnHand]).sort()).toEqual([
      ['store', 6],
      ['warehouse', 4],
    ]);
  });

  it("shares the request limit and the sign-in lock: the instances count together", async () => {
    const user = await a.userWith('VIEWER');
    const signIn = (i: number, password: string) =>
      fetch(`${instances[i % 2]!.baseUrl}/api/auth/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: user.email, password }) });
    const token = (await (await signIn(0, user.password)).json()).token as string;
    // PER_USER requests a window for the user across both instances; alternating, the next is refused by either.
    const statuses: number[] = [];
    for (let i = 0; i < PER_USER + 4; i++) statuses.push((await on(i, 'GET', '/api/products?limit=1', undefined, token)).status);
    expect(statuses).toEqual([...Array(PER_USER).fill(200), 429, 429, 429, 429]);

    const other = await a.userWith('VIEWER');
    const tryOther = (i: number, password: string) =>
      fetch(`${instances[i % 2]!.baseUrl}/api/auth/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: other.email, password }) });
    for (let i = 0; i < SIGN_IN_FAILURES; i++) expect((await tryOther(i, 'wrong password')).status).toBe(401);
    // Locked on both, even with the right password.
    for (const i of [0, 1]) expect((await tryOther(i, other.password)).status).toBe(429);
  });
});
