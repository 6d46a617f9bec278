import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocationFor } from '../../../src/services/admin/admin.js';
import type { Tenant } from '../../support/fixtures.js';
import { REFUSAL } from '../../support/graphql.js';
import type { TestServer } from '../../support/server.js';
import { startServerWithTwoTenants } from '../../support/two-tenants.js';
import { createProduct, graphqlData, graphqlRefusal } from '../../support/api.js';
import { addStock } from '../../support/stock.js';
import { expectLedgerBalanced } from '../../support/ledger-balance.js';

// Variances and their resolution: expected = on hand at the moment of the count, corrections through the
// ledger, one effect per line. The concurrent cases are meaningful on PostgreSQL (TEST_DATABASE_URL).

let server: TestServer;
let a: Tenant;
let b: Tenant;
let n = 0;

const get = (path: string, token = a.key) => server.call('GET', path, { token });
const post = (path: string, body: unknown, token = a.key) => server.call('POST', path, { token, body });
const onHand = async (id: string) => (await server.app.prisma.stockLine.findUniqueOrThrow({ where: { id } })).qtyOnHand;

/** A line of 10 at a new location, in a batch, counted at `counted`. */
async function counted(counted: number, cost?: number) {
  const location = await createLocationFor(server.operator, { organizationId: a.org.id, code: `CV${n++}`, name: `Variance site ${n}` });
  const product = await createProduct(server, a.key, `VAR-${n++}`);
  if (cost) await server.app.prisma.productMaster.update({ where: { id: product }, data: { unitCost: cost } });
  const stockLine = await addStock(server.app, a.org.id, { productMasterId: product, locationId: location.id }, { ON_HAND: 10 });
  const batch = (await post('/api/inventory/cycle-count', { locationId: location.id, productMasterIds: [product] })).body;
  const lineId = batch.lines[0].id as string;
  if (counted >= 0) expect((await post(`/api/inventory/cycle-count/${batch.id}`, { action: 'record', counts: [{ lineId, countedQty: counted }] })).status).toBe(200);
  return { location, product, stockLine, batch, lineId };
}

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants());
});
afterAll(async () => {
  if (server) await expectLedgerBalanced(server.app.prisma);
  await server?.close();
});

describe('variances to resolve', () => {
  it('measures against on hand at the moment of the count, so a sale during the count is not a variance', async () => {
    const { location, product, stockLine, batch, lineId } = await counted(-1, 2.5);
    await addStock(server.app, a.org.id, { productMasterId: product, locationId: location.id }, { ON_HAND: -3 }); // a sale: 7 left
    await post(`/api/inventory/cycle-count/${batch.id}`, { action: 'record', counts: [{ lineId, countedQty: 7 }] });
    expect((await get(`/api/inventory/cycle-count?locationId=${location.id}&mode=to-resolve`)).body).toMatchObject({ type: 'to-resolve', count: 0, lines: [] });
    await post(`/api/inventory/cycle-count/${batch.id}`, { action: 'record', counts: [{ lineId, countedQty: 5 }] });
    const list = await get(`/api/inventory/cycle-count?locationId=${location.id}&mode=to-resolve`);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ count: 1, lines: [{ lineId, batchId: batch.id, expectedQty: 7, countedQty: 5, varianceQty: -2, unitCost: 2.5, varianceValue: -5 }] });
    expect(await onHand(stockLine.id)).toBe(7);
    const data = await graphqlData(server, a.key, 'query ($l: ID!) { cycleCountVariances(locationId: $l, first: 5) { totalCount edges { node { lineId product { id } } } } }', { l: location.id });
    expect(data.cycleCountVariances.totalCount).toBe(1);
  });

  it('orders by value at the cost when counted (units without one); a line leaves when rejected, and all when the batch is cancelled', async () => {
    const location = await createLocationFor(server.operator, { organizationId: a.org.id, code: `CV${n++}`, name: `Queue site ${n}` });
    const [twoEach, noCost, oneEach] = await Promise.all(['1', '2', '3'].map((s) => createProduct(server, a.key, `VQ-${n}-${s}`)));
    n++;
    await server.app.prisma.productMaster.update({ where: { id: twoEach! }, data: { unitCost: 2 } });
    await server.app.prisma.productMaster.update({ where: { id: oneEach! }, data: { unitCost: 1 } });
    for (const product of [twoEach!, noCost!, oneEach!]) await addStock(server.app, a.org.id, { productMasterId: product, locationId: location.id }, { ON_HAND: 10 });
    const batch = (await post('/api/inventory/cycle-count', { locationId: location.id, productMasterIds: [twoEach, noCost, oneEach] })).body;
    const lineOf = (product: string) => batch.lines.find((l: { productMasterId: string }) => l.productMasterId === product).id as string;
    const counts = [
      { lineId: lineOf(twoEach!), countedQty: 7 }, // -3 × 2 = -6
      { lineId: lineOf(noCost!), countedQty: 3 }, // -7 units
      { lineId: lineOf(oneEach!), countedQty: 14 }, // +4 × 1 = 4
    ];
    expect((await post(`/api/inventory/cycle-count/${batch.id}`, { action: 'record', counts })).status).toBe(200);
    // A later change of cost does not revalue a count already made.
    await server.app.prisma.productMaster.update({ where: { id: twoEach! }, data: { unitCost: 100 } });
    const queue = async () => (await get(`/api/inventory/cycle-count?locationId=${location.id}&mode=to-resolve`)).body;
    const first = await queue();
    expect(first.count).toBe(3);
    expect(first.lines.map((l: { productMasterId: string; varianceValue: number | null }) => [l.productMasterId, l.varianceValue])).toEqual([
      [noCost, null],
      [twoEach, -6],
      [oneEach, 4],
    ]);
    const paged = await Promise.all([1, 2, 3, 4].map(async (page) => (await get(`/api/inventory/cycle-count?locationId=${location.id}&mode=to-resolve&limit=1&page=${page}`)).body));
    expect(paged.map((p) => p.count)).toEqual([3, 3, 3, 3]);
    expect(paged.flatMap((p) => p.lines.map((l: { lineId: string }) => l.lineId))).toEqual(first.lines.map((l: { lineId: string }) => l.lineId));
    expect((await post('/api/inventory/cycle-count/resolve', { resolutions: [{ lineId: lineOf(oneEach!), action: 'reject' }] })).status).toBe(200);
    expect((await queue()).lines.map((l: { productMasterId: string }) => l.productMasterId)).toEqual([noCost, twoEach]);
    // Recounted: back in the queue at its new variance.
    await post(`/api/inventory/cycle-count/${batch.id}`, { action: 'record', counts: [{ lineId: lineOf(oneEach!), countedQty: 2 }] });
    expect((await queue()).lines.map((l: { productMasterId: string; varianceValue: number | null }) => [l.productMasterId, l.varianceValue])).toEqual([
      [oneEach, -8],
      [noCost, null],
      [twoEach, -6],
    ]);
    expect((await post(`/api/inventory/cycle-count/${batch.id}`, { action: 'cancel' })).status).toBe(200);
    expect(await queue()).toMatchObject({ count: 0, lines: [] });
  });
});

describe('resolving', () => {
  it('accepts with a COUNT_CORRECTION row, sets the last counted date, and a second resolve has no effect', async () => {
    const { location, product, stockLine, lineId } = await counted(8);
    const res = await post('/api/inventory/cycle-count/resolve', { resolutions: [{ lineId, action: 'accept', comment: 'shelf recount' }] });
    expect(res.status).toBe(200);
    expect(res.body.resolutions).toMatchObject([{ lineId, action: 'ACCEPT', correctionQty: -2, stockLineId: stockLine.id }]);
    const row = await server.app.prisma.stockTransaction.findUniqueOrThrow({ where: { id: res.body.resolutions[0].transactionId } });
    expect(row).toMatchObject({ transactionType: 'COUNT_CORRECTION', reasonCode: 'COUNT_CORRECTION', deltaQty: -2, qtyBefore: 10, qtyAfter: 8, comment: 'shelf recount' });
    expect(await onHand(stockLine.id)).toBe(8);
    const again = await post('/api/inventory/cycle-count/resolve', { resolutions: [{ lineId, action: 'accept' }] });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('INVALID_STATE');
    expect(await onHand(stockLine.id)).toBe(8);
    const schedule = (await get(`/api/inventory/cycle-count?locationId=${location.id}`)).body.products[0];
    expect(schedule).toMatchObject({ productMasterId: product, lastCountedDate: new Date().toISOString().slice(0, 10), isOverdue: false });
    expect((await get(`/api/inventory/cycle-count?locationId=${location.id}&mode=to-resolve`)).body.count).toBe(0);
  });

  it('rejects by asking for a recount: the count goes to the history and the line takes a new one', async () => {
    const { stockLine, batch, lineId } = await counted(4);
    const res = await post('/api/inventory/cycle-count/resolve', { resolutions: [{ lineId, action: 'REJECT' }] });
    expect(res.body.resolutions).toEqual([{ lineId, action: 'REJECT', correctionQty: null, stockLineId: stockLine.id, transactionId: null }]);
    const line = (await get(`/api/inventory/cycle-count/${batch.id}`)).body.lines[0];
    expect(line).toMatchObject({ countedQty: null, history: [{ countedQty: 4, expectedQty: 10 }] });
    expect((await post('/api/inventory/cycle-count/resolve', { resolutions: [{ lineId, action: 'REJECT' }] })).status).toBe(409);
    await post(`/api/inventory/cycle-count/${batch.id}`, { action: 'record', counts: [{ lineId, countedQty: 10 }] });
    const accepted = await post('/api/inventory/cycle-count/resolve', { resolutions: [{ lineId, action: 'ACCEPT' }] });
    expect(accepted.body.resolutions[0]).toMatchObject({ correctionQty: 0, transactionId: null });
    expect(await onHand(stockLine.id)).toBe(10);
    expect((await post(`/api/inventory/cycle-count/${batch.id}`, { action: 'record', counts: [{ lineId, countedQty: 3 }] })).status).toBe(409);
  });

  it('refuses foreign or unknown lines (400 naming them), a bad reason, and changes nothing', async () => {
    const { stockLine, lineId } = await counted(6);
    const foreign = await post('/api/inventory/cycle-count/resolve', { resolutions: [{ lineId, action: 'ACCEPT' }] }, b.key);
    expect(foreign.status).toBe(400);
    expect(foreign.body.details['resolutions.0.lineId']).toBeDefined();
    const mixed = await post('/api/inventory/cycle-count/resolve', { resolutions: [{ lineId, action: 'ACCEPT' }, { lineId: 'nope', action: 'ACCEPT' }] });
    expect(mixed.status).toBe(400);
    expect(mixed.body.details['resolutions.1.lineId']).toBeDefined();
    const reason = await post('/api/inventory/cycle-count/resolve', { resolutions: [{ lineId, action: 'ACCEPT', reasonCodeId: 'NOPE' }] });
    expect(reason.status).toBe(400);
    expect((await post('/api/inventory/cycle-count/resolve', { resolutions: [{ lineId, action: 'maybe' }] })).status).toBe(400);
    expect(await onHand(stockLine.id)).toBe(10);
    const refusal = await graphqlRefusal(
      server,
      a.key,
      `mutation ($l: ID!) { resolveCycleCountLines(input: { resolutions: [{ lineId: $l, action: "ACCEPT", reasonCodeId: "NOPE" }] }) { __typename ${REFUSAL} } }`,
      { l: lineId },
    );
    expect(refusal.code).toBe('VALIDATION_ERROR');
    const reader = await a.keyWith(['inventory:read']);
    expect((await post('/api/inventory/cycle-count/resolve', { resolutions: [{ lineId, action: 'ACCEPT' }] }, reader)).status).toBe(403);
    expect((await server.call('POST', '/api/inventory/cycle-count/resolve', { body: { resolutions: [{ lineId, action: 'ACCEPT' }] } })).status).toBe(401);
    expect((await get(`/api/inventory/cycle-count?locationId=x&mode=to-resolve`, reader)).status).toBe(403);
    expect(await onHand(stockLine.id)).toBe(10);
  });
});

describe('tolerance', () => {
  it('accepts variances within the tolerance when the batch completes, and leaves the others to resolve', async () => {
    const b2 = b;
    const res = await post('/api/inventory/cycle-count/abc', { tolerance: { units: 1, percent: 0, value: 0 } });
    expect(res.body.tolerance).toEqual({ units: 1, percent: 0, value: 0 });
    expect((await post('/api/inventory/cycle-count/abc', { tolerance: { units: -1 } })).status).toBe(400);
    expect((await get('/api/inventory/cycle-count/abc', b2.key)).body.tolerance.units).toBe(0);
    const near = await counted(9);
    const far = await counted(5);
    for (const { batch } of [near, far]) expect((await post(`/api/inventory/cycle-count/${batch.id}`, { action: 'complete' })).status).toBe(200);
    expect(await onHand(near.stockLine.id)).toBe(9);
    expect(await onHand(far.stockLine.id)).toBe(10);
    expect((await get(`/api/inventory/cycle-count?locationId=${near.location.id}&mode=to-resolve`)).body.count).toBe(0);
    expect((await get(`/api/inventory/cycle-count?locationId=${far.location.id}&mode=to-resolve`)).body.count).toBe(1);
    await post('/api/inventory/cycle-count/abc', { tolerance: { units: 0 } });
  });

  /** Completes each batch and answers which of them had their line accepted (on hand moved to the count). */
  async function completeAll(...lines: Awaited<ReturnType<typeof counted>>[]) {
    for (const { batch } of lines) expect((await post(`/api/inventory/cycle-count/${batch.id}`, { action: 'complete' })).status).toBe(200);
    return Promise.all(lines.map(async ({ stockLine, location }) => ({
      onHand: await onHand(stockLine.id),
      toResolve: (await get(`/api/inventory/cycle-count?locationId=${location.id}&mode=to-resolve`)).body.count,
    })));
  }

  it('a percent tolerance accepts a variance of at most that share of the expected quantity, and no more', async () => {
    const set = await post('/api/inventory/cycle-count/abc', { tolerance: { units: 0, percent: 20, value: 0 } });
    expect(set.body.tolerance).toEqual({ units: 0, percent: 20, value: 0 });
    try {
      // Expected 10 on every line: -2 is 20 % (within), -3 is 30 % (not); +2 the other way (within).
      const [at, over, up] = await completeAll(await counted(8), await counted(7), await counted(12));
      expect(at).toEqual({ onHand: 8, toResolve: 0 });
      expect(over).toEqual({ onHand: 10, toResolve: 1 });
      expect(up).toEqual({ onHand: 12, toResolve: 0 });
    } finally {
      await post('/api/inventory/cycle-count/abc', { tolerance: { percent: 0 } });
    }
  });

  it('a value tolerance accepts a variance worth at most that much, counted exactly in decimals, products with a cost only', async () => {
    const set = await post('/api/inventory/cycle-count/abc', { tolerance: { units: 0, percent: 0, value: 5 } });
    expect(set.body.tolerance).toEqual({ units: 0, percent: 0, value: 5 });
    try {
      // Unit cost 2.5: -2 is worth 5 (within), -3 is worth 7.5 (not); no cost: the value never applies.
      const [at, over, noCost] = await completeAll(await counted(8, 2.5), await counted(7, 2.5), await counted(9));
      expect(at).toEqual({ onHand: 8, toResolve: 0 });
      expect(over).toEqual({ onHand: 10, toResolve: 1 });
      expect(noCost).toEqual({ onHand: 10, toResolve: 1 });
      // 3 × 0.1 is 0.3 exactly: within a value of 0.3 (in binary floating point it would be 0.30000000000000004).
      const cents = await post('/api/inventory/cycle-count/abc', { tolerance: { value: 0.3 } });
      expect(cents.body.tolerance.value).toBe(0.3);
      const [exact, beyond] = await completeAll(await counted(7, 0.1), await counted(6, 0.1));
      expect(exact).toEqual({ onHand: 7, toResolve: 0 });
      expect(beyond).toEqual({ onHand: 10, toResolve: 1 });
      const data = await graphqlData(server, a.key, '{ cycleCountTolerance { units percent value } }');
      expect(data.cycleCountTolerance).toEqual({ units: 0, percent: 0, value: 0.3 });
    } finally {
      await post('/api/inventory/cycle-count/abc', { tolerance: { value: 0 } });
    }
  });
});

describe('at the same time', () => {
  it('a resolve and an adjustment of the line at once: the adjustment is kept', async () => {
    const { stockLine, lineId } = await counted(7); // variance -3 at the count
    const [resolved, adjusted] = await Promise.all([
      post('/api/inventory/cycle-count/resolve', { resolutions: [{ lineId, action: 'ACCEPT' }] }),
      post('/api/inventory/adjust', { inventoryItemId: stockLine.id, delta: -2, reasonCodeId: 'LOST' }),
    ]);
    expect(resolved.status).toBe(200);
    expect(adjusted.status).toBe(200);
    expect(await onHand(stockLine.id)).toBe(5);
  });

  it('two resolves of one line at once have one effect', async () => {
    const { stockLine, lineId } = await counted(4);
    const answers = await Promise.all([0, 1, 2].map(() => post('/api/inventory/cycle-count/resolve', { resolutions: [{ lineId, action: 'ACCEPT' }] })));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    expect(await onHand(stockLine.id)).toBe(4);
    expect(await server.app.prisma.stockTransaction.count({ where: { stockLineId: stockLine.id, transactionType: 'COUNT_CORRECTION' } })).toBe(1);
  });
});
