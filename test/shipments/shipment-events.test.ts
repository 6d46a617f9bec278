import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tenant } from '../support/fixtures.js';
import { wsConnection } from '../support/graphql-ws.js';
import { statusMoveSubscriber } from '../support/status-moves.js';
import type { TestServer } from '../support/server.js';
import { startServerWithTwoTenants } from '../support/two-tenants.js';
import { streams } from '../events/stock-changes/stock-changed-support.js';
import { shipmentCalls } from './shipment-support.js';

// Shipment events (docs/events.md, docs/shipments.md): every move writes shipment.moved in its transaction
// (a refused move none), and shipmentChanged follows one shipment or a location's, one organization's only.
let server: TestServer;
let a: Tenant;
let b: Tenant;
let s: ReturnType<typeof shipmentCalls>;
let t: ReturnType<typeof shipmentCalls>;

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants({ IMPORT_WORKERS: '1', IMPORT_POLL_MS: '50', EVENT_PUBLISH_POLL_MS: '20' }));
  s = shipmentCalls(server, a);
  t = shipmentCalls(server, b);
});
afterAll(() => server?.close());

const CHANGED = `subscription ($id: ID, $locationId: ID) {
  shipmentChanged(id: $id, locationId: $locationId) { eventId from to shipment { id status carrier trackingNumber } } }`;

const movesOf = (shipmentId: string) =>
  server.app.prisma.domainEvent.findMany({ where: { type: 'shipment.moved', subjectId: shipmentId }, orderBy: { id: 'asc' } });

/** A RESERVED shipment of a fresh order of the tenant's. */
async function newShipment(calls = s) {
  const { order } = await calls.stockedOrder(3);
  return (await calls.ok(calls.call('POST', '/api/shipments', { salesOrderId: order.id }), 201)) as { id: string; salesOrderId: string; locationId: string };
}

const subscriber = (tenant: Tenant, variables: Record<string, unknown>) => statusMoveSubscriber(server, tenant, CHANGED, 'shipmentChanged', 'shipment', variables);

describe('shipment.moved in the outbox', () => {
  it('is written by every move, in its transaction, with the order, the states and the carrier; a refused move writes none', async () => {
    const shipment = await newShipment();
    await s.ok(s.move(shipment.id, 'pick'));
    expect((await s.move(shipment.id, 'deliver')).status).toBe(409);
    await s.ok(s.move(shipment.id, 'pack', { packageCount: 2 }));
    await s.ok(s.move(shipment.id, 'ship', { carrier: 'UPS', trackingNumber: '1Z9' }));
    await s.ok(s.move(shipment.id, 'deliver'));
    const events = await movesOf(shipment.id);
    expect(events.map((e) => [e.organizationId, e.locationId, e.subjectId])).toEqual(Array(5).fill([a.org.id, a.warehouse.id, shipment.id]));
    expect(events.map((e) => e.payload)).toEqual([
      { shipmentId: shipment.id, orderId: shipment.salesOrderId, transferId: null, from: null, to: 'RESERVED', carrier: null, trackingNumber: null },
      { shipmentId: shipment.id, orderId: shipment.salesOrderId, transferId: null, from: 'RESERVED', to: 'PICKED', carrier: null, trackingNumber: null },
      { shipmentId: shipment.id, orderId: shipment.salesOrderId, transferId: null, from: 'PICKED', to: 'PACKED', carrier: null, trackingNumber: null },
      { shipmentId: shipment.id, orderId: shipment.salesOrderId, transferId: null, from: 'PACKED', to: 'SHIPPED', carrier: 'UPS', trackingNumber: '1Z9' },
      { shipmentId: shipment.id, orderId: shipment.salesOrderId, transferId: null, from: 'SHIPPED', to: 'DELIVERED', carrier: 'UPS', trackingNumber: '1Z9' },
    ]);
    // Each event is its move's transaction's (the ledger's stock.changed rows of a pick share its txid).
    const pickTx = events[1]!.txid;
    const stock = await server.app.prisma.domainEvent.findMany({ where: { type: 'stock.changed', txid: pickTx } });
    expect(stock.length).toBeGreaterThan(0);
    const cancelled = await newShipment();
    await s.ok(s.move(cancelled.id, 'cancel'));
    expect((await movesOf(cancelled.id)).map((e) => (e.payload as any).to)).toEqual(['RESERVED', 'CANCELLED']);
  });
});

describe('shipmentChanged', () => {
  it('by id: the shipment now, then each move, ending after DELIVERED', async () => {
    const shipment = await newShipment();
    const sub = await subscriber(a, { id: shipment.id });
    expect((await sub.ws.result(sub.id)).payload.data.shipmentChanged).toEqual({ eventId: null, from: null, to: 'RESERVED', shipment: { id: shipment.id, status: 'RESERVED', carrier: null, trackingNumber: null } });
    await streams(server, 1);
    await s.ok(s.move(shipment.id, 'pick'));
    expect(await sub.moveTo(shipment.id, 'PICKED')).toMatchObject({ from: 'RESERVED', eventId: expect.any(String) });
    await s.ok(s.move(shipment.id, 'pack', { packageCount: 1 }));
    await s.ok(s.move(shipment.id, 'ship', { carrier: 'DHL', trackingNumber: 'JD01' }));
    expect(await sub.moveTo(shipment.id, 'SHIPPED')).toMatchObject({ from: 'PACKED', shipment: { carrier: 'DHL', trackingNumber: 'JD01' } });
    await s.ok(s.move(shipment.id, 'deliver'));
    await sub.ws.message((m) => m.id === sub.id && m.type === 'complete');
    expect(sub.sent().map((c) => [c.from, c.to])).toEqual([
      [null, 'RESERVED'],
      ['RESERVED', 'PICKED'],
      ['PICKED', 'PACKED'],
      ['PACKED', 'SHIPPED'],
      ['SHIPPED', 'DELIVERED'],
    ]);
    await streams(server, 0);
    sub.ws.close();
  });

  it("by location: each move from there from now on, never another tenant's", async () => {
    const sub = await subscriber(a, { locationId: a.warehouse.id });
    await streams(server, 1);
    const theirs = await newShipment(t);
    const mine = await newShipment();
    expect(await sub.moveTo(mine.id, 'RESERVED')).toMatchObject({ from: null, shipment: { id: mine.id, status: 'RESERVED' } });
    await s.ok(s.move(mine.id, 'cancel'));
    expect(await sub.moveTo(mine.id, 'CANCELLED')).toMatchObject({ from: 'RESERVED' });
    await t.ok(t.move(theirs.id, 'pick'));
    expect(sub.sent().every((c) => c.shipment.id !== theirs.id)).toBe(true);
    sub.ws.close();
    await streams(server, 0);
  });

  it("refuses another organization's shipment or location (NOT_FOUND), neither or both filters (VALIDATION_ERROR), and callers without shipping:read", async () => {
    const theirs = await newShipment(t);
    const ws = wsConnection(server.url);
    await ws.init({ authorization: `Bearer ${a.key}` });
    const codes = async (variables: Record<string, unknown>) => JSON.stringify((await ws.result(await ws.subscribe(CHANGED, variables))).payload);
    expect(await codes({ id: theirs.id })).toContain('NOT_FOUND');
    expect(await codes({ locationId: b.warehouse.id })).toContain('NOT_FOUND');
    expect(await codes({})).toContain('VALIDATION_ERROR');
    expect(await codes({ id: theirs.id, locationId: a.warehouse.id })).toContain('VALIDATION_ERROR');
    ws.close();
    const narrow = wsConnection(server.url);
    await narrow.init({ authorization: `Bearer ${await a.keyWith(['inventory:read'])}` });
    expect(JSON.stringify((await narrow.result(await narrow.subscribe(CHANGED, { locationId: a.warehouse.id }))).payload)).toContain('INSUFFICIENT_SCOPE');
    narrow.close();
    expect(server.app.events!.streamCount).toBe(0);
  });
});
