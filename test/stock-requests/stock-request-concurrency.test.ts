import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocationFor } from '../../src/services/admin/admin.js';
import { createProduct } from '../support/api.js';
import { expectLedgerBalanced } from '../support/ledger-balance.js';
import { addStock } from '../support/stock.js';
import type { Tenant } from '../support/fixtures.js';
import type { TestServer } from '../support/server.js';
import { startServerWithTwoTenants } from '../support/two-tenants.js';

// Concurrent moves of one request. Meaningful on PostgreSQL (TEST_DATABASE_URL), where the requests run in
// parallel on several connections; PGlite runs them one after another and must agree.
let server: TestServer;
let a: Tenant;
let ward: { id: string };
let product: string;

beforeAll(async () => {
  ({ server, a } = await startServerWithTwoTenants());
  ward = await createLocationFor(server.operator, { organizationId: a.org.id, code: 'WARD1', name: 'Ward 1' });
  product = await createProduct(server, a.key, 'RACE-1');
});
afterAll(() => server?.close());

const post = (path: string, body: unknown) => server.call('POST', path, { token: a.key, body });
const submitted = async () => {
  const res = await post('/api/stock-requests', { requestingLocationId: ward.id, supplyingLocationId: a.warehouse.id, neededBy: '2031-01-01', lines: [{ productMasterId: product, quantityRequested: 3 }] });
  await post(`/api/stock-requests/${res.body.id}/submit`, {});
  return res.body.id as string;
};

describe('concurrent stock request moves', () => {
  it('approve and cancel of one request at once end in one state: CANCELLED, through APPROVED only when the approval came first', async () => {
    for (let round = 0; round < 4; round++) {
      const id = await submitted();
      const [approve, cancel] = await Promise.all([post(`/api/stock-requests/${id}/approve`, {}), post(`/api/stock-requests/${id}/status`, { status: 'CANCELLED' })]);
      // Cancelling an APPROVED request is legal: the approval loses (409) only when the cancellation came first.
      expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
      expect([200, 409]).toContain(approve.status);
      const request = await server.app.prisma.stockRequest.findUniqueOrThrow({ where: { id } });
      expect(request.status).toBe('CANCELLED');
      expect(Boolean(request.approvedAt)).toBe(approve.status === 200);
      const moves = await server.app.prisma.stockRequestEvent.findMany({ where: { requestId: id, kind: 'STATUS' }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
      expect(moves.map((m) => [m.fromStatus, m.toStatus])).toEqual(
        approve.status === 200
          ? [['DRAFT', 'SUBMITTED'], ['SUBMITTED', 'APPROVED'], ['APPROVED', 'CANCELLED']]
          : [['DRAFT', 'SUBMITTED'], ['SUBMITTED', 'CANCELLED']],
      );
    }
  });

  it('two approvals (or two rejections) of one request at once: one 200, one 409', async () => {
    for (const move of [['approve', {}], ['reject', { reason: 'no' }]] as const) {
      const id = await submitted();
      const results = await Promise.all([post(`/api/stock-requests/${id}/${move[0]}`, move[1]), post(`/api/stock-requests/${id}/${move[0]}`, move[1])]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      expect(await server.app.prisma.stockRequestEvent.count({ where: { requestId: id, kind: 'STATUS' } })).toBe(2);
    }
  });

  it('many creations at once get distinct numbers', async () => {
    const body = { requestingLocationId: ward.id, supplyingLocationId: a.warehouse.id, neededBy: '2031-01-01', lines: [{ productMasterId: product, quantityRequested: 1 }] };
    const created = await Promise.all(Array.from({ length: 6 }, () => post('/api/stock-requests', body)));
    expect(created.map((r) => r.status)).toEqual(Array(6).fill(201));
    expect(new Set(created.map((r) => r.body.number)).size).toBe(6);
  });

  // PGlite runs one statement at a time, so the race only happens on PostgreSQL.
  it.skipIf(!process.env.TEST_DATABASE_URL)('concurrent fulfilments of one request never ship more than approved', async () => {
    const racing = await createProduct(server, a.key, 'RACE-FUL');
    await addStock(server.app, a.org.id, { productMasterId: racing, locationId: a.warehouse.id, lotCode: 'R1', expiryDate: '2031-01-01' }, { ON_HAND: 50 });
    await addStock(server.app, a.org.id, { productMasterId: racing, locationId: a.warehouse.id }, { ON_HAND: 50 });
    for (let round = 0; round < 3; round++) {
      const res = await post('/api/stock-requests', { requestingLocationId: ward.id, supplyingLocationId: a.warehouse.id, neededBy: '2031-01-01', lines: [{ productMasterId: racing, quantityRequested: 10 }] });
      const id = res.body.id as string;
      await post(`/api/stock-requests/${id}/submit`, {});
      await post(`/api/stock-requests/${id}/approve`, {});
      const bodies = [{}, { lines: [{ productMasterId: racing, quantity: 7 }] }, { lines: [{ productMasterId: racing, quantity: 6 }] }, { lines: [{ productMasterId: racing, quantity: 3 }] }];
      const results = await Promise.all(bodies.map((body) => post(`/api/stock-requests/${id}/fulfil`, body)));
      for (const r of results) expect([200, 400, 409], JSON.stringify(r.body)).toContain(r.status);
      const transfers = await server.app.prisma.inventoryTransfer.findMany({ where: { sourceType: 'STOCK_REQUEST', sourceId: id }, include: { lines: true } });
      const shipped = transfers.flatMap((t) => t.lines).reduce((sum, l) => sum + l.shippedQuantity, 0);
      const line = await server.app.prisma.stockRequestLine.findFirstOrThrow({ where: { requestId: id } });
      expect(shipped).toBeLessThanOrEqual(10);
      expect(line.quantityFulfilled).toBe(shipped);
      expect(transfers).toHaveLength(results.filter((r) => r.status === 200).length);
    }
    await expectLedgerBalanced(server.app.prisma);
  });
});
