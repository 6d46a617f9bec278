import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tenant } from '../support/fixtures.js';
import { expectLedgerBalanced } from '../support/ledger-balance.js';
import type { TestServer } from '../support/server.js';
import { startServerWithTwoTenants } from '../support/two-tenants.js';
import { shipmentCalls } from './shipment-support.js';

// Permissions, tenant isolation and bad input on every shipments path; the list's filters; two ships at once.
let server: TestServer;
let a: Tenant;
let b: Tenant;
let s: ReturnType<typeof shipmentCalls>;
let sb: ReturnType<typeof shipmentCalls>;

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants({ IMPORT_WORKERS: '1', IMPORT_POLL_MS: '50' }));
  s = shipmentCalls(server, a);
  sb = shipmentCalls(server, b);
});
afterAll(() => server?.close());

const MOVES: [string, unknown][] = [['pick', {}], ['pack', { packageCount: 1 }], ['ship', { carrier: 'UPS' }], ['deliver', {}], ['cancel', {}]];

describe('permissions and isolation', () => {
  it('needs shipping.read to read and shipping.write to write; another tenant sees 404 on paths and 400 in bodies; nothing changes', async () => {
    const { order } = await s.stockedOrder(4);
    const shipment = await s.ok(s.call('POST', '/api/shipments', { salesOrderId: order.id }), 201);
    // A VIEWER reads (shipping.read) and may not write; an inventory key has no shipping permission at all.
    const viewer = await a.userWith('VIEWER');
    const reader = (await server.call('POST', '/api/auth/sign-in', { body: { email: viewer.email, password: viewer.password } })).body.token as string;
    const inventoryOnly = await a.keyWith(['inventory:*']);
    const before = await s.snapshot();

    expect((await s.call('GET', '/api/shipments', undefined, reader)).status).toBe(200);
    expect((await s.call('GET', `/api/shipments/${shipment.id}`, undefined, reader)).status).toBe(200);
    expect((await s.call('GET', '/api/shipments', undefined, inventoryOnly)).status).toBe(403);
    expect((await s.call('GET', `/api/shipments/${shipment.id}`, undefined, inventoryOnly)).status).toBe(403);
    for (const token of [reader, inventoryOnly]) {
      expect((await s.call('POST', '/api/shipments', { salesOrderId: order.id }, token)).status).toBe(403);
      for (const [move, body] of MOVES) expect((await s.move(shipment.id, move, body, token)).status, move).toBe(403);
    }
    const shipper = await a.keyWith(['shipping:*']);
    expect((await s.call('GET', `/api/shipments/${shipment.id}`, undefined, shipper)).status).toBe(200);
    expect((await server.call('GET', '/api/shipments', {})).status).toBe(401);

    // Tenant b: a's shipment is 404 on every path, a's order 400 in the body, and a's shipments are not in b's list.
    expect((await sb.call('GET', `/api/shipments/${shipment.id}`)).status).toBe(404);
    for (const [move, body] of MOVES) expect((await sb.move(shipment.id, move, body)).status, move).toBe(404);
    const foreignOrder = await sb.call('POST', '/api/shipments', { salesOrderId: order.id });
    expect(foreignOrder.status).toBe(400);
    expect(foreignOrder.body.details.salesOrderId).toBeDefined();
    expect((await sb.ok(sb.call('GET', '/api/shipments'))).total).toBe(0);
    expect((await sb.call('GET', `/api/shipments?locationId=${a.warehouse.id}`)).status).toBe(404);
    // A line of another order of b's own is refused too.
    const { order: bOrder } = await sb.stockedOrder(2);
    const wrongLine = await sb.call('POST', '/api/shipments', { salesOrderId: bOrder.id, lines: [{ orderLineId: order.lines[0]!.id, quantity: 1 }] });
    expect(wrongLine.status).toBe(400);
    expect(wrongLine.body.details['lines.0.orderLineId']).toBeDefined();
    expect(await s.snapshot()).toEqual(before);

    const gql = await server.graphql(`query ($id: ID!) { shipment(id: $id) { id } node(id: $id) { id } }`, { id: shipment.id }, b.key);
    expect(gql.body.data).toEqual({ shipment: null, node: null });
    const own = await server.graphql(`query ($id: ID!) { node(id: $id) { ... on Shipment { reference status } } }`, { id: shipment.id }, a.key);
    expect(own.body.data.node).toEqual({ reference: shipment.reference, status: 'RESERVED' });
  });
});

describe('bad input', () => {
  it('answers 400 with details and changes nothing', async () => {
    const { order } = await s.stockedOrder(3);
    const line = order.lines[0]!.id;
    const shipment = await s.ok(s.call('POST', '/api/shipments', { salesOrderId: order.id, lines: [{ orderLineId: line, quantity: 1 }] }), 201);
    const before = await s.snapshot();
    const cases: [string, string, unknown, string][] = [
      ['POST', '/api/shipments', {}, 'salesOrderId'],
      ['POST', '/api/shipments', { salesOrderId: order.id, extra: 1 }, ''],
      ['POST', '/api/shipments', { salesOrderId: order.id, lines: [] }, 'lines'],
      ['POST', '/api/shipments', { salesOrderId: order.id, lines: [{ orderLineId: line, quantity: 0 }] }, 'lines.0.quantity'],
      ['POST', '/api/shipments', { salesOrderId: order.id, lines: [{ orderLineId: line, quantity: 1.5 }] }, 'lines.0.quantity'],
      ['POST', '/api/shipments', { salesOrderId: order.id, lines: [{ orderLineId: line, quantity: 1 }, { orderLineId: line, quantity: 1 }] }, 'lines.1.orderLineId'],
      ['POST', '/api/shipments', { salesOrderId: 'x'.repeat(201) }, 'salesOrderId'],
      ['POST', '/api/shipments', { salesOrderId: '00000000-0000-7000-8000-000000000000' }, 'salesOrderId'],
      ['POST', '/api/shipments', { salesOrderId: order.id, note: 'n'.repeat(1001) }, 'note'],
      ['POST', `/api/shipments/${shipment.id}/pick`, { extra: true }, ''],
      ['POST', `/api/shipments/${shipment.id}/pack`, { packageCount: 0 }, 'packageCount'],
      ['POST', `/api/shipments/${shipment.id}/pack`, { packageCount: 1, weightKg: -1 }, 'weightKg'],
      ['POST', `/api/shipments/${shipment.id}/ship`, { carrier: '' }, 'carrier'],
      ['POST', `/api/shipments/${shipment.id}/ship`, { carrier: 'c'.repeat(101) }, 'carrier'],
      ['POST', `/api/shipments/${shipment.id}/deliver`, { deliveredAt: 'yesterday' }, 'deliveredAt'],
      ['GET', '/api/shipments?status=LOST', undefined, 'status'],
      ['GET', '/api/shipments?limit=101', undefined, 'limit'],
      ['GET', '/api/shipments?from=2030-02-01&to=2030-01-01', undefined, 'to'],
      ['GET', '/api/shipments?unknown=1', undefined, ''],
    ];
    for (const [method, path, body, field] of cases) {
      const res = await s.call(method, path, body);
      expect(res.status, `${method} ${path} ${JSON.stringify(body)}: ${JSON.stringify(res.body)}`).toBe(400);
      if (field) expect(Object.keys(res.body.details ?? {}), `${path} ${JSON.stringify(body)}`).toContain(field);
    }
    expect((await s.call('GET', '/api/shipments/not-a-shipment')).status).toBe(404);
    expect((await s.move('00000000-0000-7000-8000-000000000000', 'pick')).status).toBe(404);
    expect(await s.snapshot()).toEqual(before);
  });
});

describe('the list', () => {
  it('filters by status, location, order, carrier, date and search, newest first, paged', async () => {
    const { order, externalId } = await s.stockedOrder(4);
    const first = await s.ok(s.call('POST', '/api/shipments', { salesOrderId: order.id, lines: [{ orderLineId: order.lines[0]!.id, quantity: 2 }] }), 201);
    const second = await s.ok(s.call('POST', '/api/shipments', { salesOrderId: order.id }), 201);
    await s.ok(s.move(second.id, 'pick'));
    await s.ok(s.move(second.id, 'pack', { packageCount: 1 }));
    await s.ok(s.move(second.id, 'ship', { carrier: 'FedEx', trackingNumber: 'TRK-ABC-123' }));
    const ids = async (query: string) => (await s.ok(s.call('GET', `/api/shipments?${query}`))).data.map((x: any) => x.id);

    expect(await ids(`orderId=${order.id}`)).toEqual([second.id, first.id]);
    expect(await ids(`orderId=${order.id}&status=shipped`)).toEqual([second.id]);
    expect(await ids(`orderId=${order.id}&status=RESERVED,SHIPPED`)).toEqual([second.id, first.id]);
    expect(await ids(`orderId=${order.id}&carrier=fedex`)).toEqual([second.id]);
    expect(await ids(`search=abc-1`)).toEqual([second.id]);
    expect(await ids(`search=${first.reference}`)).toEqual([first.id]);
    expect(await ids(`search=${externalId}`)).toEqual([second.id, first.id]);
    expect(await ids(`orderId=${order.id}&locationId=${a.warehouse.id}`)).toEqual([second.id, first.id]);
    expect(await ids(`orderId=${order.id}&from=2000-01-01&to=2000-01-02`)).toEqual([]);
    const page = await s.ok(s.call('GET', `/api/shipments?orderId=${order.id}&limit=1&offset=1`));
    expect(page).toMatchObject({ total: 2, limit: 1, offset: 1 });
    expect(page.shipments.map((x: any) => x.id)).toEqual([first.id]);

    const conn = await server.graphql(`query ($o: ID) { shipments(orderId: $o, first: 1) { totalCount edges { node { id } } pageInfo { hasNextPage } } }`, { o: order.id }, a.key);
    expect(conn.body.data.shipments).toEqual({ totalCount: 2, edges: [{ node: { id: second.id } }], pageInfo: { hasNextPage: true } });
  });
});

describe('at once', () => {
  it('two ships of one shipment: one ships, the other is 409 INVALID_STATE; the stock leaves once', async () => {
    for (let round = 0; round < 3; round++) {
      const { product, order } = await s.stockedOrder(6);
      const shipment = await s.ok(s.call('POST', '/api/shipments', { salesOrderId: order.id }), 201);
      await s.ok(s.move(shipment.id, 'pick'));
      await s.ok(s.move(shipment.id, 'pack', { packageCount: 1 }));
      const results = await Promise.all([s.move(shipment.id, 'ship', { carrier: 'UPS' }), s.move(shipment.id, 'ship', { carrier: 'DHL' })]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      expect(results.find((r) => r.status === 409)!.body.code).toBe('INVALID_STATE');
      const out = await server.app.prisma.stockTransaction.count({ where: { sourceId: shipment.id, transactionType: 'SHIPMENT_OUT', bucket: 'ON_HAND' } });
      expect(out).toBe(2);
      expect(await s.stockOf(product)).toEqual({ EARLY: [0, 0, 0], LATE: [9, 0, 0] });
    }
    await expectLedgerBalanced(server.app.prisma);
  });

  it('two creations for the rest of one order at once: one shipment, the other 409, never more than ordered', async () => {
    const { order } = await s.stockedOrder(6);
    const results = await Promise.all([s.call('POST', '/api/shipments', { salesOrderId: order.id }), s.call('POST', '/api/shipments', { salesOrderId: order.id })]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    const lines = await server.app.prisma.shipmentLine.aggregate({ where: { orderLineId: order.lines[0]!.id }, _sum: { quantity: true } });
    expect(lines._sum.quantity).toBe(6);
    await expectLedgerBalanced(server.app.prisma);
  });

  it('ship and cancel at once end in one of them', async () => {
    const { product, order } = await s.stockedOrder(3);
    const shipment = await s.ok(s.call('POST', '/api/shipments', { salesOrderId: order.id }), 201);
    await s.ok(s.move(shipment.id, 'pick'));
    await s.ok(s.move(shipment.id, 'pack', { packageCount: 1 }));
    const [ship, cancel] = await Promise.all([s.move(shipment.id, 'ship', { carrier: 'UPS' }), s.move(shipment.id, 'cancel')]);
    expect([ship.status, cancel.status].sort()).toEqual([200, 409]);
    const final = await server.app.prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } });
    expect(final.status).toBe(ship.status === 200 ? 'SHIPPED' : 'CANCELLED');
    expect(await s.stockOf(product)).toEqual(ship.status === 200 ? { EARLY: [2, 0, 0], LATE: [10, 0, 0] } : { EARLY: [5, 0, 0], LATE: [10, 0, 0] });
    await expectLedgerBalanced(server.app.prisma);
  });
});
