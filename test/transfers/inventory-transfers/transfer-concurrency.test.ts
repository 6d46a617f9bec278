import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocationFor } from '../../../src/services/admin/admin.js';
import { createProduct } from '../../support/api.js';
import type { Tenant } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';
import { addStock } from '../../support/stock.js';
import { startServerWithTwoTenants } from '../../support/two-tenants.js';
import { expectLedgerBalanced } from '../../support/ledger-balance.js';

// Concurrent ships and receipts. Meaningful on PostgreSQL (TEST_DATABASE_URL), where the requests run
// in parallel on several connections; PGlite runs them one after another and must agree.
let server: TestServer;
let a: Tenant;
let store: { id: string };

beforeAll(async () => {
  ({ server, a } = await startServerWithTwoTenants());
  store = await createLocationFor(server.operator, { organizationId: a.org.id, code: 'ST1', name: 'Store' });
});
afterAll(() => server?.close());

const draft = async (productId: string, quantity: number) =>
  (await server.call('POST', '/api/inventory/transfers', { token: a.key, body: { sourceLocationId: a.warehouse.id, destLocationId: store.id, lines: [{ productMasterId: productId, quantity }] } })).body.id as string;
const act = (id: string, body: unknown) => server.call('POST', `/api/inventory/transfers/${id}`, { token: a.key, body });

describe('concurrent transfer moves', () => {
  it('two ships from one scarce stock line: one succeeds, one 400, no negative stock', async () => {
    for (let round = 0; round < 3; round++) {
      const productId = await createProduct(server, a.key, `SCARCE-${round}`);
      const line = await addStock(server.app, a.org.id, { productMasterId: productId, locationId: a.warehouse.id, lotCode: 'ONLY' }, { ON_HAND: 10 });
      const [first, second] = [await draft(productId, 8), await draft(productId, 8)];
      const results = await Promise.all([act(first, { action: 'ship' }), act(second, { action: 'ship' })]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
      expect(results.find((r) => r.status === 400)!.body.code).toBe('INSUFFICIENT_STOCK');
      expect((await server.app.prisma.stockLine.findUniqueOrThrow({ where: { id: line.id } })).qtyOnHand).toBe(2);
      const out = await server.app.prisma.stockTransaction.findMany({ where: { stockLineId: line.id, transactionType: 'TRANSFER_OUT' } });
      expect(out.map((r) => [r.deltaQty, r.qtyBefore, r.qtyAfter])).toEqual([[-8, 10, 2]]);
    }
  });

  it('the same transfer shipped, received or cancelled many times at once moves once', async () => {
    const productId = await createProduct(server, a.key, 'ONCE');
    const line = await addStock(server.app, a.org.id, { productMasterId: productId, locationId: a.warehouse.id }, { ON_HAND: 100 });
    const id = await draft(productId, 5);
    const ships = await Promise.all(Array.from({ length: 6 }, () => act(id, { action: 'ship' })));
    expect(ships.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    expect((await server.app.prisma.stockLine.findUniqueOrThrow({ where: { id: line.id } })).qtyOnHand).toBe(95);
    const receipts = await Promise.all(Array.from({ length: 6 }, () => act(id, { action: 'receive' })));
    expect(receipts.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    const arrived = await server.app.prisma.stockLine.findMany({ where: { productMasterId: productId, locationId: store.id } });
    expect(arrived.map((l) => l.qtyOnHand)).toEqual([5]);
    const rows = await server.app.prisma.stockTransaction.findMany({ where: { sourceId: id } });
    expect(rows.map((r) => r.deltaQty).sort()).toEqual([-5, 5]);
  });
});

describe('the ledger', () => {
  it('accounts for the quantities of every stock line the file touched', () => expectLedgerBalanced(server.app.prisma));
});
