import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocationFor } from '../../src/services/admin/admin.js';
import { createProduct } from '../support/api.js';
import type { Tenant } from '../support/fixtures.js';
import { expectLedgerBalanced } from '../support/ledger-balance.js';
import type { TestServer } from '../support/server.js';
import { addStock } from '../support/stock.js';
import { startServerWithTwoTenants } from '../support/two-tenants.js';

// Fulfilment: stock reserved on approval (first-expiring lots first), released by a rollback, a cancellation
// or a closed remainder; shipped as an inventory transfer from the reserved lots; received into the
// requesting location, which completes the request. Stock, reservations and ledger exact; refusals change nothing.
let server: TestServer;
let a: Tenant;
let b: Tenant;
let ward: { id: string };

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants());
  ward = await createLocationFor(server.operator, { organizationId: a.org.id, code: 'WARD1', name: 'Ward 1' });
});
afterAll(() => server?.close());

const call = (method: string, path: string, body?: unknown, token = a.key) => server.call(method, path, { token, body });
const post = (id: string, move: string, body: unknown = {}, token = a.key) => call('POST', `/api/stock-requests/${id}/${move}`, body, token);
const ok = async (res: Promise<{ status: number; body: any }>, status = 200) => {
  const done = await res;
  expect(done.status, JSON.stringify(done.body)).toBe(status);
  return done.body;
};

/** A lot-controlled product with 5 units of lot EARLY (expires first) and 10 of lot LATE at the warehouse, and a plain one with 3 units. */
let n = 0;
const stocked = async () => {
  n++;
  const lotted = await createProduct(server, a.key, `FUL-L${n}`);
  const plain = await createProduct(server, a.key, `FUL-P${n}`);
  await addStock(server.app, a.org.id, { productMasterId: lotted, locationId: a.warehouse.id, lotCode: 'EARLY', expiryDate: '2031-01-01' }, { ON_HAND: 5 });
  await addStock(server.app, a.org.id, { productMasterId: lotted, locationId: a.warehouse.id, lotCode: 'LATE', expiryDate: '2032-01-01' }, { ON_HAND: 10 });
  await addStock(server.app, a.org.id, { productMasterId: plain, locationId: a.warehouse.id }, { ON_HAND: 3 });
  return { lotted, plain };
};

/** An APPROVED request for `lotted` × 8 and `plain` × 5 (only 3 of them in stock). */
const approved = async (p: { lotted: string; plain: string }, quantities: [number, number] = [8, 5]) => {
  const created = await ok(
    call('POST', '/api/stock-requests', {
      requestingLocationId: ward.id,
      supplyingLocationId: a.warehouse.id,
      neededBy: '2031-05-01',
      lines: [{ productMasterId: p.lotted, quantityRequested: quantities[0] }, { productMasterId: p.plain, quantityRequested: quantities[1] }],
    }),
    201,
  );
  await ok(post(created.id, 'submit'));
  return (await ok(post(created.id, 'approve'))) as { id: string; status: string; lines: any[] };
};

/** Stock lines of a product at a location: lot code → [on hand, reserved]. */
const stockOf = async (productMasterId: string, locationId: string) => {
  const lines = await server.app.prisma.stockLine.findMany({ where: { productMasterId, locationId }, include: { lot: true } });
  return Object.fromEntries(lines.map((l) => [l.lot?.code ?? '-', [l.qtyOnHand, l.qtyReserved]]));
};
const lineOf = (request: { lines: any[] }, productMasterId: string) => request.lines.find((l) => l.productMasterId === productMasterId);
/** What a refusal must leave as it was: the request, its lines and allocations, its history, the stock and the transfers. */
const snapshot = async (id: string) => ({
  request: await server.app.prisma.stockRequest.findUnique({ where: { id } }),
  lines: await server.app.prisma.stockRequestLine.findMany({ where: { requestId: id }, orderBy: { id: 'asc' } }),
  allocations: await server.app.prisma.stockRequestAllocation.findMany({ where: { line: { requestId: id } }, orderBy: { id: 'asc' } }),
  events: await server.app.prisma.stockRequestEvent.count({ where: { requestId: id } }),
  stock: await server.app.prisma.stockLine.findMany({ where: { organizationId: a.org.id }, orderBy: { id: 'asc' } }),
  transfers: await server.app.prisma.inventoryTransfer.count({ where: { organizationId: a.org.id } }),
});
const refused = async (id: string, send: () => Promise<{ status: number; body: any }>, status: number, code: string) => {
  const before = await snapshot(id);
  const res = await send();
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.code).toBe(code);
  expect(await snapshot(id)).toEqual(before);
  return res.body;
};
const transfersOf = (id: string) => server.app.prisma.inventoryTransfer.findMany({ where: { sourceType: 'STOCK_REQUEST', sourceId: id }, orderBy: { createdAt: 'asc' }, include: { lines: true } });
const receive = (transferId: string) => ok(call('POST', `/api/inventory/transfers/${transferId}`, { action: 'receive' }));
const historyOf = async (id: string) => (await ok(call('GET', `/api/stock-requests/${id}/status`))).events as { kind: string; fromStatus: string | null; toStatus: string | null; transferId: string | null }[];

describe('reservations of an approved request', () => {
  it('approval reserves first-expiring lots first and what is available, reporting the shortfall per line; a rollback releases it all, approving again reserves again', async () => {
    const p = await stocked();
    const request = await approved(p);
    expect(lineOf(request, p.lotted)).toMatchObject({ quantityApproved: 8, quantityReserved: 8, quantityFulfilled: 0 });
    expect(lineOf(request, p.plain)).toMatchObject({ quantityApproved: 5, quantityReserved: 3 });
    expect(await stockOf(p.lotted, a.warehouse.id)).toEqual({ EARLY: [5, 5], LATE: [10, 3] });
    expect(await stockOf(p.plain, a.warehouse.id)).toEqual({ '-': [3, 3] });
    // Reserved units leave availability like any reservation.
    const available = await ok(call('GET', `/api/inventory/availability?productMasterId=${p.lotted}&locationId=${a.warehouse.id}`));
    expect(available.totals).toMatchObject({ totalOnHand: 15, totalReserved: 8, totalAvailable: 7 });

    const rolledBack = await ok(post(request.id, 'rollback'));
    expect(rolledBack.status).toBe('SUBMITTED');
    expect(rolledBack.lines.map((l: any) => l.quantityReserved)).toEqual([0, 0]);
    expect(await stockOf(p.lotted, a.warehouse.id)).toEqual({ EARLY: [5, 0], LATE: [10, 0] });
    expect(await stockOf(p.plain, a.warehouse.id)).toEqual({ '-': [3, 0] });
    expect(await server.app.prisma.stockRequestAllocation.count({ where: { line: { requestId: request.id } } })).toBe(0);

    const again = await ok(post(request.id, 'approve'));
    expect(again.lines.map((l: any) => l.quantityReserved)).toEqual([8, 3]);
    const cancelled = await ok(post(request.id, 'status', { status: 'CANCELLED' }));
    expect(cancelled.lines.map((l: any) => l.quantityReserved)).toEqual([0, 0]);
    expect(await stockOf(p.lotted, a.warehouse.id)).toEqual({ EARLY: [5, 0], LATE: [10, 0] });
    const ledger = await server.app.prisma.stockTransaction.findMany({ where: { sourceType: 'STOCK_REQUEST', sourceId: request.id }, orderBy: { seq: 'asc' } });
    expect(ledger.map((r) => [r.transactionType, r.deltaQty])).toEqual([
      ['STOCK_REQUEST_RESERVE', 5], ['STOCK_REQUEST_RESERVE', 3], ['STOCK_REQUEST_RESERVE', 3],
      ['STOCK_REQUEST_RELEASE', -5], ['STOCK_REQUEST_RELEASE', -3], ['STOCK_REQUEST_RELEASE', -3],
      ['STOCK_REQUEST_RESERVE', 5], ['STOCK_REQUEST_RESERVE', 3], ['STOCK_REQUEST_RESERVE', 3],
      ['STOCK_REQUEST_RELEASE', -5], ['STOCK_REQUEST_RELEASE', -3], ['STOCK_REQUEST_RELEASE', -3],
    ]);
    await expectLedgerBalanced(server.app.prisma);
  });
});

describe('fulfilment', () => {
  it('ships part from the reserved lots, then the rest (the shortfall from stock that arrived since); receipts complete it; stock, reservations and ledger exact', async () => {
    const p = await stocked();
    const request = await approved(p);
    const first = await ok(post(request.id, 'fulfil', { lines: [{ productMasterId: p.lotted, quantity: 6 }], note: 'first trolley' }));
    expect(first.status).toBe('PARTIALLY_FULFILLED');
    expect(lineOf(first, p.lotted)).toMatchObject({ quantityFulfilled: 6, quantityReserved: 2, quantityReceived: 0 });
    expect(lineOf(first, p.plain)).toMatchObject({ quantityFulfilled: 0, quantityReserved: 3 });
    expect(await stockOf(p.lotted, a.warehouse.id)).toEqual({ EARLY: [0, 0], LATE: [9, 2] });
    const [t1] = await transfersOf(request.id);
    expect(t1).toMatchObject({ status: 'IN_TRANSIT', sourceLocationId: a.warehouse.id, destLocationId: ward.id, reference: expect.stringMatching(/^SR-\d{6}$/) });
    expect(t1!.lines.map((l) => [l.quantity, l.shippedQuantity])).toEqual([[5, 5], [1, 1]]);

    // The plain product has 3 units, all reserved; 5 are approved: short until stock arrives, and nothing changes.
    const short = await refused(request.id, () => post(request.id, 'fulfil', {}), 400, 'INSUFFICIENT_STOCK');
    expect(Object.keys(short.details)).toEqual(['lines.1.quantity']);
    await addStock(server.app, a.org.id, { productMasterId: p.plain, locationId: a.warehouse.id }, { ON_HAND: 4 });
    const rest = await ok(post(request.id, 'fulfil', {}));
    expect(rest.status).toBe('PARTIALLY_FULFILLED');
    expect(rest.lines.map((l: any) => [l.quantityFulfilled, l.quantityReserved])).toEqual([[8, 0], [5, 0]]);
    expect(await stockOf(p.lotted, a.warehouse.id)).toEqual({ EARLY: [0, 0], LATE: [7, 0] });
    expect(await stockOf(p.plain, a.warehouse.id)).toEqual({ '-': [2, 0] });
    await refused(request.id, () => post(request.id, 'fulfil', {}), 409, 'INVALID_STATE');

    const [, t2] = await transfersOf(request.id);
    await receive(t1!.id);
    const halfway = await ok(call('GET', `/api/stock-requests/${request.id}`));
    expect(halfway.status).toBe('PARTIALLY_FULFILLED');
    expect(lineOf(halfway, p.lotted).quantityReceived).toBe(6);
    await receive(t2!.id);
    const done = await ok(call('GET', `/api/stock-requests/${request.id}`));
    expect(done.status).toBe('FULFILLED');
    expect(done.lines.map((l: any) => [l.quantityFulfilled, l.quantityReceived, l.quantityReserved])).toEqual([[8, 8, 0], [5, 5, 0]]);
    expect(await stockOf(p.lotted, ward.id)).toEqual({ EARLY: [5, 0], LATE: [3, 0] });
    expect(await stockOf(p.plain, ward.id)).toEqual({ '-': [5, 0] });
    const history = await historyOf(request.id);
    expect(history.slice(3).map((e) => [e.kind, e.fromStatus, e.toStatus, e.transferId])).toEqual([
      ['FULFILMENT', 'APPROVED', 'PARTIALLY_FULFILLED', t1!.id],
      ['FULFILMENT', 'PARTIALLY_FULFILLED', 'PARTIALLY_FULFILLED', t2!.id],
      ['RECEIPT', null, null, t1!.id],
      ['RECEIPT', null, null, t2!.id],
      ['STATUS', 'PARTIALLY_FULFILLED', 'FULFILLED', null],
    ]);
    await expectLedgerBalanced(server.app.prisma);
  });

  it('closeRemainder ships part, releases the rest of the reservation and completes on receipt; a closed request is not fulfilled again', async () => {
    const p = await stocked();
    const request = await approved(p);
    const closed = await ok(post(request.id, 'fulfil', { lines: [{ productMasterId: p.lotted, quantity: 3 }], closeRemainder: true }));
    expect(closed).toMatchObject({ status: 'PARTIALLY_FULFILLED', remainderClosedAt: expect.any(String) });
    expect(closed.lines.map((l: any) => [l.quantityFulfilled, l.quantityReserved])).toEqual([[3, 0], [0, 0]]);
    expect(await stockOf(p.lotted, a.warehouse.id)).toEqual({ EARLY: [2, 0], LATE: [10, 0] });
    expect(await stockOf(p.plain, a.warehouse.id)).toEqual({ '-': [3, 0] });
    await refused(request.id, () => post(request.id, 'fulfil', {}), 409, 'INVALID_STATE');
    const [t] = await transfersOf(request.id);
    await receive(t!.id);
    expect((await ok(call('GET', `/api/stock-requests/${request.id}`))).status).toBe('FULFILLED');
    expect(await stockOf(p.lotted, ward.id)).toEqual({ EARLY: [3, 0] });
    await expectLedgerBalanced(server.app.prisma);
  });

  it('POST /status PARTIALLY_FULFILLED ships everything open; FULFILLED closes the rest once nothing is in transit (409 before)', async () => {
    const p = await stocked();
    const request = await approved(p, [4, 2]);
    const shipped = await ok(post(request.id, 'status', { status: 'PARTIALLY_FULFILLED' }));
    expect(shipped.lines.map((l: any) => l.quantityFulfilled)).toEqual([4, 2]);
    const [t] = await transfersOf(request.id);
    await receive(t!.id);
    expect((await ok(call('GET', `/api/stock-requests/${request.id}`))).status).toBe('FULFILLED');

    const other = await approved(p, [6, 1]);
    await ok(post(other.id, 'fulfil', { lines: [{ productMasterId: p.lotted, quantity: 2 }] }));
    await refused(other.id, () => post(other.id, 'status', { status: 'FULFILLED' }), 409, 'INVALID_STATE');
    const [t2] = await transfersOf(other.id);
    await receive(t2!.id);
    expect((await ok(call('GET', `/api/stock-requests/${other.id}`))).status).toBe('PARTIALLY_FULFILLED');
    const closed = await ok(post(other.id, 'status', { status: 'FULFILLED', note: 'enough for now' }));
    expect(closed).toMatchObject({ status: 'FULFILLED', remainderClosedAt: expect.any(String) });
    expect(closed.lines.map((l: any) => [l.quantityFulfilled, l.quantityReserved])).toEqual([[2, 0], [0, 0]]);
    expect(await server.app.prisma.stockLine.aggregate({ where: { productMasterId: { in: [p.lotted, p.plain] }, locationId: a.warehouse.id }, _sum: { qtyReserved: true } })).toEqual({ _sum: { qtyReserved: 0 } });
    await expectLedgerBalanced(server.app.prisma);
  });

  it('a linked transfer cancelled in transit returns its units: unfulfilled again, and shippable again', async () => {
    const p = await stocked();
    const request = await approved(p, [4, 1]);
    await ok(post(request.id, 'fulfil', { lines: [{ productMasterId: p.lotted, quantity: 4 }] }));
    const [t] = await transfersOf(request.id);
    await ok(call('POST', `/api/inventory/transfers/${t!.id}`, { action: 'cancel' }));
    const back = await ok(call('GET', `/api/stock-requests/${request.id}`));
    expect(back.status).toBe('PARTIALLY_FULFILLED');
    expect(lineOf(back, p.lotted)).toMatchObject({ quantityFulfilled: 0 });
    expect((await historyOf(request.id)).at(-1)).toMatchObject({ kind: 'RETURN', transferId: t!.id });
    const again = await ok(post(request.id, 'fulfil', {}));
    expect(again.lines.map((l: any) => l.quantityFulfilled)).toEqual([4, 1]);
    await expectLedgerBalanced(server.app.prisma);
  });

  it('refuses over-fulfilment (400), unknown lines (404), wrong states (409) and rollback or cancel once fulfilled, changing nothing', async () => {
    const p = await stocked();
    const request = await approved(p, [4, 2]);
    const over = await refused(request.id, () => post(request.id, 'fulfil', { lines: [{ productMasterId: p.lotted, quantity: 5 }] }), 400, 'VALIDATION_ERROR');
    expect(over.details).toEqual({ 'lines.0.quantity': [expect.stringContaining('At most 4')] });
    await ok(post(request.id, 'fulfil', { lines: [{ productMasterId: p.lotted, quantity: 3 }] }));
    await refused(request.id, () => post(request.id, 'fulfil', { lines: [{ productMasterId: p.lotted, quantity: 2 }] }), 400, 'VALIDATION_ERROR');
    const stranger = await createProduct(server, a.key, `FUL-X${n}`);
    await refused(request.id, () => post(request.id, 'fulfil', { lines: [{ productMasterId: stranger, quantity: 1 }] }), 404, 'NOT_FOUND');
    const bad = await refused(request.id, () => post(request.id, 'fulfil', { lines: [{ productMasterId: p.lotted, quantity: 0 }], extra: 1 }), 400, 'VALIDATION_ERROR');
    expect(Object.keys(bad.details).sort()).toEqual(['extra', 'lines.0.quantity']);
    expect((await refused(request.id, () => post(request.id, 'rollback'), 409, 'INVALID_STATE')).error).toContain('PARTIALLY_FULFILLED');
    await refused(request.id, () => post(request.id, 'status', { status: 'CANCELLED' }), 409, 'INVALID_STATE');

    const draft = await ok(call('POST', '/api/stock-requests', { requestingLocationId: ward.id, supplyingLocationId: a.warehouse.id, neededBy: '2031-05-01', lines: [{ productMasterId: p.lotted, quantityRequested: 1 }] }), 201);
    const wrong = await refused(draft.id, () => post(draft.id, 'fulfil', {}), 409, 'INVALID_STATE');
    expect(wrong.error).toContain('DRAFT');
    await ok(post(draft.id, 'submit'));
    await refused(draft.id, () => post(draft.id, 'fulfil', {}), 409, 'INVALID_STATE');
    await refused(draft.id, () => post(draft.id, 'status', { status: 'FULFILLED' }), 409, 'INVALID_STATE');
  });

  it("another organization's request is 404 on fulfil, and its transfers stay its own", async () => {
    const p = await stocked();
    const request = await approved(p, [1, 1]);
    await refused(request.id, () => post(request.id, 'fulfil', {}, b.key), 404, 'NOT_FOUND');
    await refused(request.id, () => post(request.id, 'status', { status: 'PARTIALLY_FULFILLED' }, b.key), 404, 'NOT_FOUND');
    await ok(post(request.id, 'fulfil', {}));
    const [t] = await transfersOf(request.id);
    expect((await call('POST', `/api/inventory/transfers/${t!.id}`, { action: 'receive' }, b.key)).status).toBe(404);
    expect((await ok(call('GET', `/api/stock-requests/${request.id}`))).status).toBe('PARTIALLY_FULFILLED');
  });
});
