import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type Tenant } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';
import { addStock } from '../../support/stock.js';
import { startServerWithTwoTenants } from '../../support/two-tenants.js';
import { availableAt, generate, RECS, stockedProduct } from './recommendation-setup.js';
import { expectLedgerBalanced } from '../../support/ledger-balance.js';

let server: TestServer;
let a: Tenant;

beforeAll(async () => {
  ({ server, a } = await startServerWithTwoTenants());
});
afterAll(() => server?.close());

/** One PENDING recommendation: 50 units from the warehouse (300 on hand) to an empty store. */
async function pending(tenant: Tenant = a) {
  const { productMasterId, locations } = await stockedProduct(server, tenant, [
    { min: 10, reorder: 20, max: 100, stock: 300 },
    { min: 10, reorder: 20, max: 50, stock: 0 },
  ]);
  const { recommendations } = await generate(server, tenant.key, { productMasterId });
  expect(recommendations).toHaveLength(1);
  return { rec: recommendations[0], productMasterId, source: locations[0]!, dest: locations[1]! };
}

const move = (id: string, action: 'approve' | 'reject' | 'execute', body: unknown = {}, token = a.key) =>
  server.call('POST', `${RECS}/${id}/${action}`, { token, body: action === 'execute' ? undefined : body });

const expectRefused = async (id: string, action: 'approve' | 'reject' | 'execute', state: string) => {
  const res = await move(id, action);
  expect(res.status, `${action} from ${state}`).toBe(409);
  expect(res.body).toEqual({ error: expect.stringContaining(state), code: 'INVALID_STATE' });
};

describe('approve and reject', () => {
  it('approves a PENDING one: 200 {success, recommendation: {id, status, approvedAt, approvedBy}} and the fields at the top level', async () => {
    const { rec } = await pending();
    const res = await move(rec.id, 'approve', { comment: 'go' });
    expect(res.status).toBe(200);
    const { success, recommendation, ...top } = res.body;
    expect(success).toBe(true);
    expect(recommendation).toEqual({ id: rec.id, status: 'APPROVED', approvedAt: expect.any(String), approvedBy: expect.any(String) });
    expect(top).toMatchObject({ id: rec.id, status: 'APPROVED', approvedAt: recommendation.approvedAt, approvedBy: recommendation.approvedBy, approvalComment: 'go', quantity: 50 });
    expect(Date.parse(recommendation.approvedAt)).toBeGreaterThanOrEqual(Date.parse(rec.createdAt));
    for (const action of ['approve', 'reject'] as const) await expectRefused(rec.id, action, 'APPROVED');
  });

  it('rejects a PENDING one recording who and why; every move out of REJECTED is 409', async () => {
    const { rec } = await pending();
    const res = await move(rec.id, 'reject', { comment: 'stores are closing' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, status: 'REJECTED', rejectedBy: expect.any(String), rejectedAt: expect.any(String), rejectionComment: 'stores are closing' });
    expect(res.body.recommendation).toMatchObject({ id: rec.id, status: 'REJECTED' });
    for (const action of ['approve', 'reject', 'execute'] as const) await expectRefused(rec.id, action, 'REJECTED');
  });

  it('refuses executing a PENDING one, and lets one of concurrent approvals through', async () => {
    const { rec } = await pending();
    await expectRefused(rec.id, 'execute', 'PENDING');
    expect((await move(rec.id, 'execute')).body.error).toBe('The recommendation is PENDING: only an APPROVED recommendation can be executed');
    const answers = await Promise.all([1, 2, 3, 4].map((i) => move(rec.id, i % 2 ? 'approve' : 'reject')));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
  });

  it('answers 400 for a bad comment and 404 for unknown ids', async () => {
    const { rec } = await pending();
    const long = await move(rec.id, 'approve', { comment: 'x'.repeat(2001) });
    expect(long.status).toBe(400);
    expect(Object.keys(long.body.details)).toEqual(['comment']);
    expect((await move(rec.id, 'reject', { because: 'x' })).body.details).toEqual({ because: ['Unknown field'] });
    for (const action of ['approve', 'reject', 'execute'] as const) expect((await move('nope', action)).status).toBe(404);
  });
});

describe('execute', () => {
  it('creates and ships one transfer: stock and ledger exact, EXECUTED with executedAt and transferId; every later move is 409', async () => {
    const { rec, productMasterId, source, dest } = await pending();
    await move(rec.id, 'approve');
    const res = await move(rec.id, 'execute');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ success: true, status: 'EXECUTED', executedAt: expect.any(String), transferId: expect.any(String) });
    expect(res.body.recommendation).toEqual({ id: rec.id, status: 'EXECUTED', executedAt: res.body.executedAt, executedBy: expect.any(String), transferId: res.body.transferId });
    expect(await availableAt(server, productMasterId, source)).toBe(250);
    expect(await availableAt(server, productMasterId, dest)).toBe(0); // in transit until received
    const ledger = await server.app.prisma.stockTransaction.findMany({ where: { productMasterId, sourceType: 'TRANSFER' } });
    expect(ledger).toEqual([expect.objectContaining({ transactionType: 'TRANSFER_OUT', locationId: source, deltaQty: -50, sourceId: res.body.transferId })]);
    const transfer = await server.app.prisma.inventoryTransfer.findUniqueOrThrow({ where: { id: res.body.transferId }, include: { lines: true } });
    expect(transfer).toMatchObject({ status: 'IN_TRANSIT', sourceLocationId: source, destLocationId: dest, sourceType: 'RECOMMENDATION', sourceId: rec.id });
    expect(transfer.lines).toEqual([expect.objectContaining({ productMasterId, quantity: 50, shippedQuantity: 50 })]);
    for (const action of ['approve', 'reject', 'execute'] as const) await expectRefused(rec.id, action, 'EXECUTED');
    const read = await server.call('GET', `${RECS}/${rec.id}`, { token: a.key });
    expect(read.body).toMatchObject({ status: 'EXECUTED', transferId: res.body.transferId });
    // The 50 units on their way count at the store: generating again proposes nothing more for it.
    expect((await generate(server, a.key, { productMasterId })).recommendations).toEqual([]);
  });

  it('executes exactly once under 10 concurrent calls: one 200, nine 409, one transfer, one ledger movement', async () => {
    const { rec, productMasterId, source } = await pending();
    await move(rec.id, 'approve');
    const answers = await Promise.all(Array.from({ length: 10 }, () => move(rec.id, 'execute')));
    expect(answers.map((r) => r.status).sort()).toEqual([200, ...Array(9).fill(409)]);
    for (const refused of answers.filter((r) => r.status === 409)) expect(refused.body.code).toBe('INVALID_STATE');
    expect(await server.app.prisma.inventoryTransfer.count({ where: { sourceId: rec.id } })).toBe(1);
    expect(await server.app.prisma.stockTransaction.count({ where: { productMasterId, sourceType: 'TRANSFER' } })).toBe(1);
    expect(await availableAt(server, productMasterId, source)).toBe(250);
  });

  it('refuses with 400 and details when the source no longer has the quantity, and stays APPROVED with nothing written', async () => {
    const { rec, productMasterId, source } = await pending();
    await move(rec.id, 'approve');
    await addStock(server.app, a.org.id, { productMasterId, locationId: source }, { ON_HAND: -270 }); // 30 left
    const res = await move(rec.id, 'execute');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'INSUFFICIENT_STOCK', details: { quantity: [expect.any(String)] } });
    expect((await server.call('GET', `${RECS}/${rec.id}`, { token: a.key })).body).toMatchObject({ status: 'APPROVED', executedAt: null, transferId: null });
    expect(await server.app.prisma.inventoryTransfer.count({ where: { sourceId: rec.id } })).toBe(0);
    expect(await availableAt(server, productMasterId, source)).toBe(30);
    await addStock(server.app, a.org.id, { productMasterId, locationId: source }, { ON_HAND: 20 });
    expect((await move(rec.id, 'execute')).status).toBe(200);
  });
});

describe('expiry', () => {
  it('reads an overdue PENDING one as EXPIRED at once, refuses approving it, and generating again starts a new one', async () => {
    const t = await createTenant(server.app.prisma);
    const { rec, productMasterId } = await pending(t);
    // As if the TTL had passed since it was generated.
    await server.app.prisma.transferRecommendation.update({ where: { id: rec.id }, data: { expiresAt: new Date(Date.now() - 60_000) } });
    expect((await server.call('GET', `${RECS}/${rec.id}`, { token: t.key })).body.status).toBe('EXPIRED');
    const list = async (query: string) => (await server.call('GET', `${RECS}${query}`, { token: t.key })).body.recommendations.map((r: { id: string }) => r.id);
    expect(await list('?status=expired')).toEqual([rec.id]);
    expect(await list('?status=PENDING')).toEqual([]);
    expect(await list('/pending')).toEqual([]);
    expect(await list('?validOnly=true')).toEqual([]);
    for (const action of ['approve', 'reject', 'execute'] as const) {
      const res = await move(rec.id, action, {}, t.key);
      expect(res.status, action).toBe(409);
      expect(res.body.error).toMatch(/EXPIRED/);
    }
    const again = await generate(server, t.key, { productMasterId });
    expect(again.created).toBe(1);
    expect(again.recommendations[0].id).not.toBe(rec.id);
    expect(await list('?status=expired')).toEqual([rec.id]);
    expect((await server.app.prisma.transferRecommendation.findUniqueOrThrow({ where: { id: rec.id } })).status).toBe('EXPIRED');
  });

  it('generated recommendations expire after the configured time (default 7 days)', async () => {
    const { rec } = await pending();
    const ttl = Date.parse(rec.expiresAt) - Date.parse(rec.createdAt);
    expect(ttl).toBe(7 * 24 * 3600 * 1000);
  });
});

describe('the ledger', () => {
  it('accounts for the quantities of every stock line the file touched', () => expectLedgerBalanced(server.app.prisma));
});
