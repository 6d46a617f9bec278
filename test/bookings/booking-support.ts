import { expect } from 'vitest';
import { createProduct } from '../support/api.js';
import { dayAfter, weekAfter } from '../support/demand-history.js';
import type { Tenant } from '../support/fixtures.js';
import { thisMonday, today } from '../support/planning.js';
import type { TestServer } from '../support/server.js';
import { addStock } from '../support/stock.js';

type Res = { status: number; body: any };

/** The Monday `n` weeks after this week's. */
export const inWeeks = (n: number) => weekAfter(thisMonday(), n);

/** Calls and checks of the bookings tests, over one server and tenant. */
export function bookingCalls(server: TestServer, tenant: Tenant) {
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
    move: (id: string, move: string, body: unknown = {}, token = tenant.key) => call('POST', `/api/bookings/${id}/${move}`, body, token),
    create: (body: Record<string, unknown>, token = tenant.key) => call('POST', '/api/bookings', body, token),
    /** A booking body of `quantity` units of a product at the tenant's warehouse, three weeks from now. */
    body: (productId: string, quantity: number, extra: Record<string, unknown> = {}) => ({ customer: 'Acme Wholesale', locationId: tenant.warehouse.id, week: inWeeks(3), lines: [{ productId, quantity }], ...extra }),
    /**
     * A lot-controlled product at the warehouse: `soon` units of lot SOON (expiring in 10 days, before any booking week
     * three weeks out) and `late` units of lot LATE (expiring in 2031).
     */
    async stockedProduct(late = 10, soon = 5) {
      n++;
      const sku = `BK-${n}-${Math.random().toString(36).slice(2, 8)}`;
      const product = await createProduct(server, tenant.key, sku);
      if (soon) await addStock(server.app, tenant.org.id, { productMasterId: product, locationId: tenant.warehouse.id, lotCode: 'SOON', expiryDate: dayAfter(today(), 10) }, { ON_HAND: soon });
      if (late) await addStock(server.app, tenant.org.id, { productMasterId: product, locationId: tenant.warehouse.id, lotCode: 'LATE', expiryDate: '2031-01-01' }, { ON_HAND: late });
      return product;
    },
    addLot: (product: string, lotCode: string, quantity: number) =>
      addStock(server.app, tenant.org.id, { productMasterId: product, locationId: tenant.warehouse.id, lotCode, expiryDate: '2032-01-01' }, { ON_HAND: quantity }),
    /** Stock lines of a product at the warehouse: lot code → [on hand, reserved]. */
    async stockOf(productMasterId: string) {
      const lines = await server.app.prisma.stockLine.findMany({ where: { productMasterId, locationId: tenant.warehouse.id }, include: { lot: true } });
      return Object.fromEntries(lines.map((l) => [l.lot?.code ?? '-', [l.qtyOnHand, l.qtyReserved]]));
    },
    /** The ledger rows a booking caused: [transaction type, bucket, delta], in order. */
    async ledgerOf(bookingId: string) {
      const rows = await server.app.prisma.stockTransaction.findMany({ where: { sourceType: 'BOOKING', sourceId: bookingId }, orderBy: { seq: 'asc' } });
      return rows.map((r) => [r.transactionType, r.bucket, r.deltaQty]);
    },
    /** The booking.moved events of a booking: [from, to]. */
    async movesOf(bookingId: string) {
      const events = await server.app.prisma.domainEvent.findMany({ where: { type: 'booking.moved', subjectId: bookingId }, orderBy: { id: 'asc' } });
      return events.map((e) => [(e.payload as any).from, (e.payload as any).to]);
    },
    /** What a refusal must leave as it was: bookings, lines, allocations, forecast events, stock, the ledger and the outbox. */
    async snapshot() {
      const db = server.app.prisma;
      const org = tenant.org.id;
      return {
        bookings: await db.booking.findMany({ where: { organizationId: org }, orderBy: { id: 'asc' } }),
        lines: await db.bookingLine.findMany({ where: { booking: { organizationId: org } }, orderBy: { id: 'asc' } }),
        allocations: await db.bookingAllocation.findMany({ where: { line: { booking: { organizationId: org } } }, orderBy: { id: 'asc' } }),
        events: await db.externalEvent.findMany({ where: { organizationId: org }, orderBy: { id: 'asc' } }),
        stock: await db.stockLine.findMany({ where: { organizationId: org }, orderBy: { id: 'asc' } }),
        ledger: await db.stockTransaction.count({ where: { organizationId: org } }),
        outbox: await db.domainEvent.count({ where: { organizationId: org, type: 'booking.moved' } }),
      };
    },
  };
}
