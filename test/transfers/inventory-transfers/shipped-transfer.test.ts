import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemContext } from '../../../src/context.js';
import { createLocationFor } from '../../../src/services/admin/admin.js';
import { createShippedTransfer } from '../../../src/services/transfers/inventory-transfers/transfer-shipping.js';
import { createProduct } from '../../support/api.js';
import type { Tenant } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';
import { addStock } from '../../support/stock.js';
import { startServerWithTwoTenants } from '../../support/two-tenants.js';
import { expectLedgerBalanced } from '../../support/ledger-balance.js';
import { inTransaction } from '../../../src/db/transactions.js';

// createShippedTransfer is what executing a transfer recommendation calls inside its own transaction;
// until that path exists this file calls it as the execute will, and checks the result over REST.
let server: TestServer;
let a: Tenant;
let b: Tenant;
let store: { id: string };

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants());
  store = await createLocationFor(server.operator, { organizationId: a.org.id, code: 'ST1', name: 'Store' });
});
afterAll(() => server?.close());

const ctxOf = (tenant: Tenant) => systemContext(server.app, { organization: tenant.org, actor: { type: 'user', id: tenant.admin.id, role: 'MANAGER' }, origin: 'test' });

describe('createShippedTransfer', () => {
  it("creates an IN_TRANSIT transfer in the caller's transaction, stock out through the ledger", async () => {
    const productId = await createProduct(server, a.key, 'REC-1');
    const line = await addStock(server.app, a.org.id, { productMasterId: productId, locationId: a.warehouse.id, lotCode: 'L1', expiryDate: '2030-01-01' }, { ON_HAND: 12 });
    const transfer = await inTransaction(ctxOf(a), (ctx) =>
      createShippedTransfer(ctx, { sourceLocationId: a.warehouse.id, destLocationId: store.id, lines: [{ productMasterId: productId, quantity: 7 }], sourceType: 'RECOMMENDATION', sourceId: 'rec-1' }),
    );
    expect(transfer).toMatchObject({ status: 'IN_TRANSIT', sourceType: 'RECOMMENDATION', sourceId: 'rec-1', createdByType: 'USER', createdBy: a.admin.id });
    expect(transfer.lines[0]).toMatchObject({ quantity: 7, shippedQuantity: 7, receivedQuantity: 0 });
    expect(transfer.lines[0]!.shipments.map((p) => [p.sourceStockLineId, p.lotId, p.quantity])).toEqual([[line.id, line.lotId, 7]]);
    expect((await server.app.prisma.stockLine.findUniqueOrThrow({ where: { id: line.id } })).qtyOnHand).toBe(5);
    const rows = await server.app.prisma.stockTransaction.findMany({ where: { sourceId: transfer.id } });
    expect(rows.map((r) => [r.transactionType, r.sourceType, r.deltaQty])).toEqual([['TRANSFER_OUT', 'TRANSFER', -7]]);
    const read = await server.call('GET', `/api/inventory/transfers/${transfer.id}`, { token: a.key });
    expect(read.body).toMatchObject({ status: 'IN_TRANSIT', totalShipped: 7 });
    const received = await server.call('POST', `/api/inventory/transfers/${transfer.id}`, { token: a.key, body: { action: 'receive' } });
    expect(received.body.status).toBe('RECEIVED');
  });

  it('refuses a shortfall with INSUFFICIENT_STOCK per line, and the caller rolls everything back', async () => {
    const productId = await createProduct(server, a.key, 'REC-2');
    const line = await addStock(server.app, a.org.id, { productMasterId: productId, locationId: a.warehouse.id }, { ON_HAND: 3 });
    const before = await server.app.prisma.inventoryTransfer.count();
    const failed = inTransaction(ctxOf(a), async (ctx) => {
      await ctx.prisma.bin.create({ data: { organizationId: a.org.id, locationId: store.id, code: 'WRITTEN-BY-CALLER' } });
      return createShippedTransfer(ctx, { sourceLocationId: a.warehouse.id, destLocationId: store.id, lines: [{ productMasterId: productId, quantity: 4 }] });
    });
    await expect(failed).rejects.toMatchObject({ code: 'INSUFFICIENT_STOCK', extra: { details: { 'lines.0.quantity': ['Only 3 available at the source (asked 4)'] } } });
    expect(await server.app.prisma.inventoryTransfer.count()).toBe(before);
    expect(await server.app.prisma.bin.count({ where: { code: 'WRITTEN-BY-CALLER' } })).toBe(0);
    expect((await server.app.prisma.stockLine.findUniqueOrThrow({ where: { id: line.id } })).qtyOnHand).toBe(3);
  });

  it("refuses another organization's ids", async () => {
    const productId = await createProduct(server, b.key, 'REC-B');
    const failed = inTransaction(ctxOf(a), (ctx) =>
      createShippedTransfer(ctx, { sourceLocationId: a.warehouse.id, destLocationId: store.id, lines: [{ productMasterId: productId, quantity: 1 }] }),
    );
    await expect(failed).rejects.toMatchObject({ code: 'VALIDATION_ERROR', extra: { details: { 'lines.0.productMasterId': ['Product not found'] } } });
  });
});

describe('the ledger', () => {
  it('accounts for the quantities of every stock line the file touched', () => expectLedgerBalanced(server.app.prisma));
});
