import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tenant } from '../support/fixtures.js';
import { waitForJob } from '../support/import.js';
import { expectLedgerBalanced } from '../support/ledger-balance.js';
import type { TestServer } from '../support/server.js';
import { startServerWithTwoTenants } from '../support/two-tenants.js';
import { shipmentCalls } from './shipment-support.js';

// The life of a shipment through REST: reserved from the order's reservation (first-expiring lots first),
// picked, packed, shipped through the ledger, delivered; cancelled before it ships; partial shipments and
// over-shipping; every illegal move refused with nothing changed. Stock and ledger exact after each step.
let server: TestServer;
let a: Tenant;
let s: ReturnType<typeof shipmentCalls>;

beforeAll(async () => {
  ({ server, a } = await startServerWithTwoTenants({ IMPORT_WORKERS: '1', IMPORT_POLL_MS: '50' }));
  s = shipmentCalls(server, a);
});
afterAll(() => server?.close());

const ALL_MOVES: [string, unknown][] = [
  ['pick', {}],
  ['pack', { packageCount: 1 }],
  ['ship', { carrier: 'UPS', trackingNumber: '1Z' }],
  ['deliver', {}],
  ['cancel', {}],
];
const LEGAL: Record<string, string[]> = {
  RESERVED: ['pick', 'cancel'],
  PICKED: ['pack', 'cancel'],
  PACKED: ['ship', 'cancel'],
  SHIPPED: ['deliver'],
  DELIVERED: [],
  CANCELLED: [],
};

/** Every move not legal from the shipment's state is 409 INVALID_STATE naming the state, and changes nothing. */
async function illegalMovesRefused(id: string, status: string) {
  for (const [move, body] of ALL_MOVES.filter(([m]) => !LEGAL[status]!.includes(m))) {
    const before = await s.snapshot();
    const res = await s.move(id, move, body);
    expect(res.status, `${move} from ${status}: ${JSON.stringify(res.body)}`).toBe(409);
    expect(res.body.code).toBe('INVALID_STATE');
    expect(res.body.error).toContain(status);
    expect(await s.snapshot()).toEqual(before);
  }
}

describe('a shipment from RESERVED to DELIVERED', () => {
  it('takes over the order reservation, picks the reserved lots, ships them out through the ledger and records the delivery', async () => {
    const { product, order } = await s.stockedOrder(8);
    // The import reserved 8 for the order: all 5 of EARLY, 3 of LATE.
    expect(await s.stockOf(product)).toEqual({ EARLY: [5, 5, 0], LATE: [10, 3, 0] });

    const created = await s.ok(s.call('POST', '/api/shipments', { salesOrderId: order.id, lines: [{ orderLineId: order.lines[0]!.id, quantity: 6 }], note: 'Dock 3' }), 201);
    expect(created).toMatchObject({ status: 'RESERVED', salesOrderId: order.id, locationId: a.warehouse.id, note: 'Dock 3', reference: expect.stringMatching(/^SH-\d{6}$/) });
    expect(created.lines).toHaveLength(1);
    expect(created.lines[0]).toMatchObject({ lineNumber: 1, orderLineId: order.lines[0]!.id, productMasterId: product, quantity: 6 });
    expect(created.lines[0].allocations.map((x: any) => [x.lotCode, x.quantity])).toEqual([['EARLY', 5], ['LATE', 1]]);
    // The order keeps 2 reserved; the shipment holds 6: the stock's reservations stay 8.
    expect(await s.stockOf(product)).toEqual({ EARLY: [5, 5, 0], LATE: [10, 3, 0] });
    const orderLine = await server.app.prisma.salesOrderLine.findUniqueOrThrow({ where: { id: order.lines[0]!.id } });
    expect(orderLine.reservedQty).toBe(2);
    await expectLedgerBalanced(server.app.prisma);
    await illegalMovesRefused(created.id, 'RESERVED');

    const picked = await s.ok(s.move(created.id, 'pick'));
    expect(picked.status).toBe('PICKED');
    expect(picked.pickedAt).toEqual(expect.any(String));
    expect(await s.stockOf(product)).toEqual({ EARLY: [5, 0, 5], LATE: [10, 2, 1] });
    await expectLedgerBalanced(server.app.prisma);
    await illegalMovesRefused(created.id, 'PICKED');

    const packed = await s.ok(s.move(created.id, 'pack', { packageCount: 2, weightKg: 12.5 }));
    expect(packed).toMatchObject({ status: 'PACKED', packageCount: 2, weightKg: 12.5 });
    expect(await s.stockOf(product)).toEqual({ EARLY: [5, 0, 5], LATE: [10, 2, 1] });
    await illegalMovesRefused(created.id, 'PACKED');

    const shipped = await s.ok(s.move(created.id, 'ship', { carrier: 'DHL', trackingNumber: 'JD0001' }));
    expect(shipped).toMatchObject({ status: 'SHIPPED', carrier: 'DHL', trackingNumber: 'JD0001' });
    expect(await s.stockOf(product)).toEqual({ EARLY: [0, 0, 0], LATE: [9, 2, 0] });
    const out = await server.app.prisma.stockTransaction.findMany({ where: { sourceType: 'SHIPMENT', sourceId: created.id, transactionType: 'SHIPMENT_OUT', bucket: 'ON_HAND' } });
    expect(out.map((t) => t.deltaQty).sort()).toEqual([-1, -5]);
    await expectLedgerBalanced(server.app.prisma);
    await illegalMovesRefused(created.id, 'SHIPPED');

    const shippedAt = Date.parse(shipped.shippedAt);
    const early = new Date(shippedAt - 60_000).toISOString();
    const tooEarly = await s.move(created.id, 'deliver', { deliveredAt: early });
    expect(tooEarly.status).toBe(400);
    expect(tooEarly.body.details.deliveredAt).toBeDefined();
    const delivered = await s.ok(s.move(created.id, 'deliver', {}));
    expect(delivered.status).toBe('DELIVERED');
    expect(Date.parse(delivered.deliveredAt)).toBeGreaterThanOrEqual(shippedAt);
    await illegalMovesRefused(created.id, 'DELIVERED');

    const got = await s.ok(s.call('GET', `/api/shipments/${created.id}`));
    expect(got).toEqual(delivered);
  });
});

describe('an order that has a shipment', () => {
  it('is not changed by importing it again: the row is refused, the shipment, the order and the stock stay as they were', async () => {
    const { order, sku, externalId, product } = await s.stockedOrder(8);
    await s.ok(s.call('POST', '/api/shipments', { salesOrderId: order.id, lines: [{ orderLineId: order.lines[0]!.id, quantity: 3 }] }), 201);
    const before = await s.snapshot();
    const stock = await s.stockOf(product);
    const res = await server.call('POST', '/api/import/orders', { token: a.key, body: [{ externalId, fulfillmentLocationCode: a.warehouse.code, lines: [{ sku, quantity: 12 }] }] });
    expect(res.status).toBe(202);
    const job = await waitForJob(server, a.key, res.body.jobId);
    expect(job).toMatchObject({ state: 'COMPLETED', rejectedRows: 1 });
    expect(job.errors).toEqual([expect.objectContaining({ field: 'externalId', message: `Order ${externalId} has shipments and cannot be changed by an import` })]);
    expect(await s.snapshot()).toEqual(before);
    expect(await s.stockOf(product)).toEqual(stock);
    await expectLedgerBalanced(server.app.prisma);
  });
});

describe('partial shipments', () => {
  it('ships an order in parts, never more than it ordered, and closes the order once every unit shipped', async () => {
    const { order } = await s.stockedOrder(8);
    const line = order.lines[0]!.id;
    const first = await s.ok(s.call('POST', '/api/shipments', { salesOrderId: order.id, lines: [{ orderLineId: line, quantity: 3 }] }), 201);

    const before = await s.snapshot();
    const over = await s.call('POST', '/api/shipments', { salesOrderId: order.id, lines: [{ orderLineId: line, quantity: 6 }] });
    expect(over.status).toBe(400);
    expect(over.body.details['lines.0.quantity'][0]).toContain('At most 5');
    expect(await s.snapshot()).toEqual(before);

    // No lines: every unit not yet on a shipment.
    const rest = await s.ok(s.call('POST', '/api/shipments', { salesOrderId: order.id }), 201);
    expect(rest.lines[0].quantity).toBe(5);
    const nothing = await s.call('POST', '/api/shipments', { salesOrderId: order.id });
    expect(nothing.status).toBe(409);
    expect(nothing.body.code).toBe('INVALID_STATE');

    // Cancelling one frees its units for another shipment.
    await s.ok(s.move(first.id, 'cancel'));
    const again = await s.ok(s.call('POST', '/api/shipments', { salesOrderId: order.id, lines: [{ orderLineId: line, quantity: 3 }] }), 201);
    for (const shipment of [rest, again]) {
      await s.ok(s.move(shipment.id, 'pick'));
      await s.ok(s.move(shipment.id, 'pack', { packageCount: 1 }));
    }
    await s.ok(s.move(rest.id, 'ship', { carrier: 'UPS' }));
    expect((await server.app.prisma.salesOrder.findUniqueOrThrow({ where: { id: order.id } })).status).not.toBe('FULFILLED');
    await s.ok(s.move(again.id, 'ship', { carrier: 'UPS' }));
    expect((await server.app.prisma.salesOrder.findUniqueOrThrow({ where: { id: order.id } })).status).toBe('FULFILLED');
    const closed = await s.call('POST', '/api/shipments', { salesOrderId: order.id });
    expect(closed.status).toBe(409);
    await expectLedgerBalanced(server.app.prisma);
  });

  it('reserves beyond what the order held (backordered units) when stock is there, and refuses with nothing changed when it is not', async () => {
    const { product, order } = await s.stockedOrder(20);
    // 15 in stock: the order reserved 15, backordered 5.
    expect(await s.stockOf(product)).toEqual({ EARLY: [5, 5, 0], LATE: [10, 10, 0] });
    const before = await s.snapshot();
    const short = await s.call('POST', '/api/shipments', { salesOrderId: order.id });
    expect(short.status).toBe(400);
    expect(short.body.code).toBe('INSUFFICIENT_STOCK');
    expect(short.body.details['lines.0.quantity'][0]).toContain('Only 15');
    expect(await s.snapshot()).toEqual(before);
    const fits = await s.ok(s.call('POST', '/api/shipments', { salesOrderId: order.id, lines: [{ orderLineId: order.lines[0]!.id, quantity: 15 }] }), 201);
    expect(fits.lines[0].allocations.map((x: any) => [x.lotCode, x.quantity])).toEqual([['EARLY', 5], ['LATE', 10]]);
    await expectLedgerBalanced(server.app.prisma);
  });
});

describe('cancelling', () => {
  it('releases a reservation (RESERVED) and puts picked units back on the shelf (PICKED, PACKED)', async () => {
    for (const upTo of ['RESERVED', 'PICKED', 'PACKED']) {
      const { product, order } = await s.stockedOrder(4);
      const shipment = await s.ok(s.call('POST', '/api/shipments', { salesOrderId: order.id }), 201);
      if (upTo !== 'RESERVED') await s.ok(s.move(shipment.id, 'pick'));
      if (upTo === 'PACKED') await s.ok(s.move(shipment.id, 'pack', { packageCount: 1 }));
      const cancelled = await s.ok(s.move(shipment.id, 'cancel'));
      expect(cancelled.status).toBe('CANCELLED');
      expect(cancelled.cancelledAt).toEqual(expect.any(String));
      // All 15 on hand, nothing reserved or picked: the order handed its reservation over and the shipment let it go.
      expect(await s.stockOf(product)).toEqual({ EARLY: [5, 0, 0], LATE: [10, 0, 0] });
      await illegalMovesRefused(shipment.id, 'CANCELLED');
    }
    await expectLedgerBalanced(server.app.prisma);
  });
});
