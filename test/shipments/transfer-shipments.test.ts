import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocationFor } from '../../src/services/admin/admin.js';
import { createProduct, graphqlData } from '../support/api.js';
import type { Tenant } from '../support/fixtures.js';
import { expectLedgerBalanced } from '../support/ledger-balance.js';
import type { TestServer } from '../support/server.js';
import { addStock } from '../support/stock.js';
import { startServerWithTwoTenants } from '../support/two-tenants.js';
import { shipmentCalls } from './shipment-support.js';

// Shipments of inventory transfers: a DRAFT transfer shipped whole from its source through reserve, pick, pack,
// ship (the transfer goes IN_TRANSIT, out of exactly the lots picked) and deliver; the transfer held while a
// shipment carries it; cancelling frees it; every refusal changes nothing; two creations at once make one shipment.
let server: TestServer;
let a: Tenant;
let b: Tenant;
let s: ReturnType<typeof shipmentCalls>;
let storeId: string;
let n = 0;

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants({ IMPORT_WORKERS: '1', IMPORT_POLL_MS: '50' }));
  s = shipmentCalls(server, a);
  storeId = (await createLocationFor(server.operator, { organizationId: a.org.id, code: 'TSHIP-ST', name: 'Store' })).id;
});
afterAll(() => server?.close());

/** A lot-controlled product with 5 units of lot EARLY and 10 of lot LATE at the warehouse, and a DRAFT transfer of `quantity` of it to the store. */
async function stockedTransfer(quantity = 7) {
  n++;
  const product = await createProduct(server, a.key, `TSHIP-${n}-${Math.random().toString(36).slice(2, 8)}`);
  await addStock(server.app, a.org.id, { productMasterId: product, locationId: a.warehouse.id, lotCode: 'EARLY', expiryDate: '2031-01-01' }, { ON_HAND: 5 });
  await addStock(server.app, a.org.id, { productMasterId: product, locationId: a.warehouse.id, lotCode: 'LATE', expiryDate: '2032-01-01' }, { ON_HAND: 10 });
  const transfer = await s.ok(s.call('POST', '/api/inventory/transfers', { sourceLocationId: a.warehouse.id, destLocationId: storeId, lines: [{ productMasterId: product, quantity }] }), 201);
  return { product, transfer: transfer.transfer ?? transfer };
}

const act = (id: string, body: unknown) => s.call('POST', `/api/inventory/transfers/${id}`, body);
const transferOf = async (id: string) => {
  const body = await s.ok(s.call('GET', `/api/inventory/transfers/${id}`));
  return body.transfer ?? body;
};

describe('a transfer shipped through a shipment', () => {
  it('reserves at the source, holds the transfer, ships it IN_TRANSIT from exactly the lots picked, and is delivered before the transfer is received', async () => {
    const { product, transfer } = await stockedTransfer(7);
    const created = await s.ok(s.call('POST', '/api/shipments', { transferId: transfer.id, note: 'Truck 2' }), 201);
    expect(created).toMatchObject({ status: 'RESERVED', transferId: transfer.id, salesOrderId: null, locationId: a.warehouse.id, note: 'Truck 2' });
    expect(created.lines).toHaveLength(1);
    expect(created.lines[0]).toMatchObject({ lineNumber: 1, orderLineId: null, transferLineId: transfer.lines[0].id, productMasterId: product, quantity: 7 });
    expect(created.lines[0].allocations.map((x: any) => [x.lotCode, x.quantity])).toEqual([['EARLY', 5], ['LATE', 2]]);
    expect(await s.stockOf(product)).toEqual({ EARLY: [5, 5, 0], LATE: [10, 2, 0] });

    // The transfer does not move or change by itself while the shipment carries it.
    for (const body of [{ action: 'ship' }, { action: 'cancel' }, { action: 'update', notes: 'changed' }]) {
      const before = await s.snapshot();
      const res = await act(transfer.id, body);
      expect(res.status, JSON.stringify(res.body)).toBe(409);
      expect(res.body).toMatchObject({ code: 'INVALID_STATE' });
      expect(res.body.error).toContain(created.reference);
      expect(await s.snapshot()).toEqual(before);
    }

    await s.ok(s.move(created.id, 'pick'));
    expect(await s.stockOf(product)).toEqual({ EARLY: [5, 0, 5], LATE: [10, 0, 2] });
    // Stock that arrives meanwhile with an earlier expiry does not change which lots leave: the picked ones do.
    await addStock(server.app, a.org.id, { productMasterId: product, locationId: a.warehouse.id, lotCode: 'EARLIEST', expiryDate: '2030-06-01' }, { ON_HAND: 4 });
    await s.ok(s.move(created.id, 'pack', { packageCount: 2 }));
    const shipped = await s.ok(s.move(created.id, 'ship', { carrier: 'DHL', trackingNumber: 'JD0001' }));
    expect(shipped).toMatchObject({ status: 'SHIPPED', carrier: 'DHL', trackingNumber: 'JD0001' });
    expect(await s.stockOf(product)).toEqual({ EARLIEST: [4, 0, 0], EARLY: [0, 0, 0], LATE: [8, 0, 0] });

    const inTransit = await transferOf(transfer.id);
    expect(inTransit.status).toBe('IN_TRANSIT');
    const ledger = await server.app.prisma.stockTransaction.findMany({ where: { organizationId: a.org.id, productMasterId: product, transactionType: { in: ['SHIPMENT_UNPICK', 'TRANSFER_OUT'] } }, orderBy: { createdAt: 'asc' } });
    expect(ledger.filter((r) => r.transactionType === 'TRANSFER_OUT').every((r) => r.sourceType === 'TRANSFER' && r.sourceId === transfer.id)).toBe(true);
    expect(ledger.filter((r) => r.transactionType === 'TRANSFER_OUT').reduce((sum, r) => sum + Math.abs(r.deltaQty), 0)).toBe(7);
    const pieces = await server.app.prisma.inventoryTransferLineLot.findMany({ where: { line: { transferId: transfer.id } }, include: { lot: true } });
    expect(pieces.map((p) => [p.lot?.code, p.quantity]).sort()).toEqual([['EARLY', 5], ['LATE', 2]]);

    await s.ok(s.move(created.id, 'deliver'));
    await s.ok(act(transfer.id, { action: 'receive' }));
    expect((await transferOf(transfer.id)).status).toBe('RECEIVED');
    const atStore = await server.app.prisma.stockLine.findMany({ where: { productMasterId: product, locationId: storeId }, include: { lot: true } });
    expect(atStore.map((l) => [l.lot?.code, l.qtyOnHand]).sort()).toEqual([['EARLY', 5], ['LATE', 2]]);

    const events = await server.app.prisma.domainEvent.findMany({ where: { type: 'shipment.moved', subjectId: created.id }, orderBy: { id: 'asc' } });
    expect(events.map((e) => (e.payload as any).to)).toEqual(['RESERVED', 'PICKED', 'PACKED', 'SHIPPED', 'DELIVERED']);
    expect(events.every((e) => (e.payload as any).transferId === transfer.id && (e.payload as any).orderId === null)).toBe(true);
    await expectLedgerBalanced(server.app.prisma);
  });

  it('frees the transfer when cancelled: the picked units go back, and the DRAFT can change and ship by itself', async () => {
    const { product, transfer } = await stockedTransfer(6);
    const created = await s.ok(s.call('POST', '/api/shipments', { transferId: transfer.id }), 201);
    await s.ok(s.move(created.id, 'pick'));
    await s.ok(s.move(created.id, 'cancel'));
    expect(await s.stockOf(product)).toEqual({ EARLY: [5, 0, 0], LATE: [10, 0, 0] });
    // The lines are replaced by the edit: the cancelled shipment's line loses its link, and keeps what it was.
    await s.ok(act(transfer.id, { action: 'update', lines: [{ productMasterId: product, quantity: 3 }] }));
    const cancelled = await s.ok(s.call('GET', `/api/shipments/${created.id}`));
    expect(cancelled.lines[0]).toMatchObject({ transferLineId: null, productMasterId: product, quantity: 6 });
    await s.ok(act(transfer.id, { action: 'ship' }));
    expect(await s.stockOf(product)).toEqual({ EARLY: [2, 0, 0], LATE: [10, 0, 0] });
    await expectLedgerBalanced(server.app.prisma);
  });

  it('is made through GraphQL too, and listed by transfer', async () => {
    const { transfer } = await stockedTransfer(2);
    const data = await graphqlData(server, a.key, 'mutation ($input: ShipmentCreateInput!) { createShipment(input: $input) { ... on Shipment { id status transferId salesOrderId lines { transferLineId quantity } } } }', {
      input: { transferId: transfer.id },
    });
    expect(data.createShipment).toMatchObject({ status: 'RESERVED', transferId: transfer.id, salesOrderId: null, lines: [{ transferLineId: transfer.lines[0].id, quantity: 2 }] });
    const page = await s.ok(s.call('GET', `/api/shipments?transferId=${transfer.id}`));
    expect(page.shipments.map((x: any) => x.id)).toEqual([data.createShipment.id]);
    const theirs = await s.ok(s.call('GET', `/api/shipments?transferId=${transfer.id}`, undefined, b.key));
    expect(theirs.shipments).toEqual([]);
  });
});

describe('refusals', () => {
  it('refuses a body with both documents, neither, or lines for a transfer (400), with nothing changed', async () => {
    const { transfer } = await stockedTransfer(2);
    const order = (await s.stockedOrder(1)).order;
    const before = await s.snapshot();
    const both = await s.call('POST', '/api/shipments', { transferId: transfer.id, salesOrderId: order.id });
    expect(both.status).toBe(400);
    expect(both.body.details).toHaveProperty('transferId');
    const neither = await s.call('POST', '/api/shipments', { note: 'x' });
    expect(neither.status).toBe(400);
    expect(neither.body.details).toHaveProperty('salesOrderId');
    const lines = await s.call('POST', '/api/shipments', { transferId: transfer.id, lines: [{ orderLineId: 'x', quantity: 1 }] });
    expect(lines.status).toBe(400);
    expect(lines.body.details).toHaveProperty('lines');
    expect(await s.snapshot()).toEqual(before);
  });

  it("refuses an unknown or another organization's transfer (400 on transferId)", async () => {
    const theirProduct = await createProduct(server, b.key, `TSHIP-B-${Math.random().toString(36).slice(2, 8)}`);
    const theirStore = await createLocationFor(server.operator, { organizationId: b.org.id, code: `TSB-${n++}`, name: 'Their store' });
    const theirs = await server.call('POST', '/api/inventory/transfers', { token: b.key, body: { sourceLocationId: b.warehouse.id, destLocationId: theirStore.id, lines: [{ productMasterId: theirProduct, quantity: 1 }] } });
    expect(theirs.status).toBe(201);
    const before = await s.snapshot();
    for (const transferId of [(theirs.body.transfer ?? theirs.body).id, '0190f0f0-0000-7000-8000-000000000000']) {
      const res = await s.call('POST', '/api/shipments', { transferId });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.details.transferId).toEqual(['Unknown transfer']);
    }
    expect(await s.snapshot()).toEqual(before);
  });

  it('refuses a transfer already on a shipment or no longer DRAFT (409), and one short of stock (400 INSUFFICIENT_STOCK)', async () => {
    const { transfer } = await stockedTransfer(3);
    const first = await s.ok(s.call('POST', '/api/shipments', { transferId: transfer.id }), 201);
    const again = await s.call('POST', '/api/shipments', { transferId: transfer.id });
    expect(again.status).toBe(409);
    expect(again.body.error).toContain(first.reference);

    const shippedAlone = await stockedTransfer(1);
    await s.ok(act(shippedAlone.transfer.id, { action: 'ship' }));
    const inTransit = await s.call('POST', '/api/shipments', { transferId: shippedAlone.transfer.id });
    expect(inTransit.status).toBe(409);
    expect(inTransit.body.error).toContain('IN_TRANSIT');

    const big = await stockedTransfer(16);
    const before = await s.snapshot();
    const short = await s.call('POST', '/api/shipments', { transferId: big.transfer.id });
    expect(short.status).toBe(400);
    expect(short.body).toMatchObject({ code: 'INSUFFICIENT_STOCK' });
    expect(short.body.details['lines.0.quantity'][0]).toContain('Only 15');
    expect(await s.snapshot()).toEqual(before);
  });

  it('makes one shipment of two creations at once', async () => {
    const { product, transfer } = await stockedTransfer(4);
    const answers = await Promise.all([0, 1, 2].map(() => s.call('POST', '/api/shipments', { transferId: transfer.id })));
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    expect(await s.stockOf(product)).toEqual({ EARLY: [5, 4, 0], LATE: [10, 0, 0] });
    await expectLedgerBalanced(server.app.prisma);
  });
});
