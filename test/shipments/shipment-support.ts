import { expect } from 'vitest';
import { createProduct } from '../support/api.js';
import type { Tenant } from '../support/fixtures.js';
import { importRows } from '../support/import.js';
import type { TestServer } from '../support/server.js';
import { addStock } from '../support/stock.js';

type Res = { status: number; body: any };

/** Calls and checks of the shipments tests, over one server and tenant. */
export function shipmentCalls(server: TestServer, tenant: Tenant) {
  const call = (method: string, path: string, body?: unknown, token = tenant.key) => server.call(method, path, { token, body });
  const ok = async (res: Promise<Res>, status = 200) => {
    const done = await res;
    expect(done.status, JSON.stringify(done.body)).toBe(status);
    return done.body;
  };
  let n = 0;
  return {
    call,
    ok,
    move: (id: string, move: string, body: unknown = {}, token = tenant.key) => call('POST', `/api/shipments/${id}/${move}`, body, token),
    /** A lot-controlled product with 5 units of lot EARLY (expires first) and 10 of lot LATE at the warehouse, and a sales order of `ordered` of it (reserved on import). */
    async stockedOrder(ordered = 8, more: { sku: string; quantity: number }[] = []) {
      n++;
      const sku = `SHP-${n}-${Math.random().toString(36).slice(2, 8)}`;
      const product = await createProduct(server, tenant.key, sku);
      await addStock(server.app, tenant.org.id, { productMasterId: product, locationId: tenant.warehouse.id, lotCode: 'EARLY', expiryDate: '2031-01-01' }, { ON_HAND: 5 });
      await addStock(server.app, tenant.org.id, { productMasterId: product, locationId: tenant.warehouse.id, lotCode: 'LATE', expiryDate: '2032-01-01' }, { ON_HAND: 10 });
      const externalId = `SO-${sku}`;
      await importRows(server, tenant.key, 'orders', [{ externalId, fulfillmentLocationCode: tenant.warehouse.code, lines: [{ sku, quantity: ordered }, ...more] }]);
      const order = await server.app.prisma.salesOrder.findFirstOrThrow({ where: { organizationId: tenant.org.id, externalId }, include: { lines: { orderBy: { lineNumber: 'asc' } } } });
      return { product, sku, order, externalId };
    },
    /** Stock lines of a product at the warehouse: lot code → [on hand, reserved, picked]. */
    async stockOf(productMasterId: string) {
      const lines = await server.app.prisma.stockLine.findMany({ where: { productMasterId, locationId: tenant.warehouse.id }, include: { lot: true } });
      return Object.fromEntries(lines.map((l) => [l.lot?.code ?? '-', [l.qtyOnHand, l.qtyReserved, l.qtyPicked]]));
    },
    /** What a refusal must leave as it was: shipments, their lines and allocations, the orders, the stock and the ledger. */
    async snapshot() {
      const db = server.app.prisma;
      const org = tenant.org.id;
      return {
        shipments: await db.shipment.findMany({ where: { organizationId: org }, orderBy: { id: 'asc' } }),
        lines: await db.shipmentLine.findMany({ where: { shipment: { organizationId: org } }, orderBy: { id: 'asc' } }),
        allocations: await db.shipmentAllocation.findMany({ where: { line: { shipment: { organizationId: org } } }, orderBy: { id: 'asc' } }),
        orders: await db.salesOrder.findMany({ where: { organizationId: org }, orderBy: { id: 'asc' }, include: { lines: { include: { allocations: true } } } }),
        stock: await db.stockLine.findMany({ where: { organizationId: org }, orderBy: { id: 'asc' } }),
        ledger: await db.stockTransaction.count({ where: { organizationId: org } }),
      };
    },
  };
}
