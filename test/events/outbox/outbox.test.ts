import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemContext } from '../../../src/context.js';
import { inTransaction } from '../../../src/db/transactions.js';
import { applyStockChange, findOrCreateStockLine } from '../../../src/services/inventory/ledger/stock-ledger.js';
import { createLocationFor } from '../../../src/services/admin/admin.js';
import { EVENT_TYPES } from '../../../src/kernel/event-types.js';
import { createProduct } from '../../support/api.js';
import type { Tenant } from '../../support/fixtures.js';
import { wsConnection } from '../../support/graphql-ws.js';
import { expectLedgerBalanced } from '../../support/ledger-balance.js';
import type { TestServer } from '../../support/server.js';
import { addStock } from '../../support/stock.js';
import { startServerWithTwoTenants } from '../../support/two-tenants.js';
import { sent, STOCK_CHANGED, streams } from '../stock-changes/stock-changed-support.js';

// The outbox (docs/events.md): an event row per change in the change's transaction, none for a rolled-back
// one, and stockChanged fed from the published events, one organization's only. On both databases.
let server: TestServer;
let a: Tenant;
let productA: string;

beforeAll(async () => {
  ({ server, a } = await startServerWithTwoTenants({ EVENT_PUBLISH_POLL_MS: '20' }));
  productA = await createProduct(server, a.key, 'EV-A');
});
afterAll(() => server?.close());

const eventsOf = (organizationId: string, type: string) =>
  server.app.prisma.domainEvent.findMany({ where: { organizationId, type }, orderBy: { id: 'asc' } });


describe('the outbox', () => {
  it('holds the documented event types in its CHECK constraint, and refuses others', async () => {
    const [{ check }] = (await server.app.prisma.$queryRaw<{ check: string }[]>`
      SELECT pg_get_constraintdef(oid) AS check FROM pg_constraint WHERE conname = 'domain_events_type_check'`) as [{ check: string }];
    for (const type of EVENT_TYPES) expect(check).toContain(`'${type}'`);
    expect(check.match(/'[a-z_]+\.[a-z_]+'/g)).toHaveLength(EVENT_TYPES.length);
    await expect(server.app.prisma.domainEvent.create({ data: { organizationId: a.org.id, type: 'nope.never', payload: {} } })).rejects.toThrow();
  });

  it('gets a stock.changed row per line from every ledger write, in the same transaction', async () => {
    const line = await addStock(server.app, a.org.id, { productMasterId: productA, locationId: a.warehouse.id }, { ON_HAND: 10 });
    const adjusted = await server.call('POST', '/api/inventory/adjust', { token: a.key, body: { inventoryItemId: line.id, delta: -3, reasonCodeId: 'LOST' } });
    expect(adjusted.status).toBe(200);
    const events = (await eventsOf(a.org.id, 'stock.changed')).filter((e) => e.subjectId === line.id);
    expect(events).toHaveLength(2);
    expect(events[1]).toMatchObject({ productId: productA, locationId: a.warehouse.id });
    expect(events[1]!.payload).toMatchObject({ stockLineId: line.id, changes: [{ bucket: 'ON_HAND', deltaQty: -3, qtyAfter: 7 }] });
    await expectLedgerBalanced(server.app.prisma);
  });

  it('keeps no event of a rolled-back change, and publishes none', async () => {
    const org = await server.app.prisma.organization.findUniqueOrThrow({ where: { id: a.org.id } });
    const ctx = systemContext(server.app, { organization: org, actor: { type: 'apiKey', id: 'test', scopes: ['*'] }, origin: 'test' });
    const ws = wsConnection(server.url);
    await ws.init({ authorization: `Bearer ${a.key}` });
    const id = await ws.subscribe(STOCK_CHANGED, { productId: productA });
    await streams(server, 1);
    let lineId = '';
    await expect(
      inTransaction(ctx, async (ctx) => {
        const line = await findOrCreateStockLine(ctx, { productMasterId: productA, locationId: a.warehouse.id, lotId: null, binId: null });
        lineId = line.id;
        await applyStockChange(ctx, { stockLineId: line.id, deltas: { ON_HAND: 50 }, transactionType: 'RECEIPT' });
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    const before = (await eventsOf(a.org.id, 'stock.changed')).length;
    const kept = await addStock(server.app, a.org.id, { productMasterId: productA, locationId: a.warehouse.id }, { ON_HAND: 1 });
    // The subscriber gets the committed change (+1), never the rolled-back +50 (on a shared PostgreSQL the
    // events of earlier tests may come first: they are published once every older transaction has ended).
    // The line is the one earlier tests of this file moved: wait for this change of it, not the first sent.
    const got = (
      await ws.message((m) => m.id === id && m.type === 'next' && m.payload.data.stockChanged.stockLineId === kept.id && m.payload.data.stockChanged.changes.some((c: { deltaQty: number }) => c.deltaQty === 1))
    )?.payload.data.stockChanged;
    expect(got).toMatchObject({ stockLineId: kept.id, changes: [{ deltaQty: 1 }] });
    expect(sent(ws, id).some((c) => c.changes.some((x: any) => x.deltaQty === 50))).toBe(false);
    expect((await eventsOf(a.org.id, 'stock.changed')).length).toBe(before + 1);
    expect((await eventsOf(a.org.id, 'stock.changed')).flatMap((e) => (e.payload as any).changes).some((c: any) => c.deltaQty === 50)).toBe(false);
    expect(lineId).not.toBe('');
    ws.close();
    await streams(server, 0);
  });
});

describe('service events', () => {
  it('writes transfer.shipped and transfer.received with the transfer', async () => {
    const store = await createLocationFor(server.operator, { organizationId: a.org.id, code: 'ST1', name: 'Store' });
    await addStock(server.app, a.org.id, { productMasterId: productA, locationId: a.warehouse.id, lotCode: 'T1' }, { ON_HAND: 20 });
    const created = await server.call('POST', '/api/inventory/transfers', {
      token: a.key,
      body: { sourceLocationId: a.warehouse.id, destLocationId: store.id, lines: [{ productMasterId: productA, quantity: 2 }] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const transferId = created.body.id;
    expect((await server.call('POST', `/api/inventory/transfers/${transferId}`, { token: a.key, body: { action: 'ship' } })).status).toBe(200);
    expect((await server.call('POST', `/api/inventory/transfers/${transferId}`, { token: a.key, body: { action: 'receive' } })).status).toBe(200);
    const [shipped] = await eventsOf(a.org.id, 'transfer.shipped');
    const [received] = await eventsOf(a.org.id, 'transfer.received');
    expect(shipped).toMatchObject({ subjectId: transferId, locationId: a.warehouse.id, payload: { transferId, status: 'IN_TRANSIT' } });
    expect(received).toMatchObject({ subjectId: transferId, locationId: store.id, payload: { transferId, status: 'RECEIVED', complete: true } });
    expect(shipped!.id < received!.id).toBe(true);
  });

  it('writes stock_request.moved for the created draft and each status move, with the history entry', async () => {
    const ward = await createLocationFor(server.operator, { organizationId: a.org.id, code: 'WARD-EV', name: 'Ward' });
    const created = await server.call('POST', '/api/stock-requests', {
      token: a.key,
      body: { requestingLocationId: ward.id, supplyingLocationId: a.warehouse.id, neededBy: '2031-05-01', reason: 'Top-up', lines: [{ productMasterId: productA, quantityRequested: 2 }] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id;
    expect((await server.call('POST', `/api/stock-requests/${id}/status`, { token: a.key, body: { status: 'SUBMITTED' } })).status).toBe(200);
    const moves = (await eventsOf(a.org.id, 'stock_request.moved')).filter((e) => e.subjectId === id);
    expect(moves.map((e) => e.payload)).toEqual([
      expect.objectContaining({ requestId: id, kind: 'CREATED', from: null, to: 'DRAFT' }),
      expect.objectContaining({ requestId: id, kind: 'STATUS', from: 'DRAFT', to: 'SUBMITTED' }),
    ]);
  });
});
