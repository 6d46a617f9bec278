import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocationFor } from '../../../src/services/admin/admin.js';
import { createProduct } from '../../support/api.js';
import type { Tenant } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';
import { addStock } from '../../support/stock.js';
import { startServerWithTwoTenants } from '../../support/two-tenants.js';
import { expectLedgerBalanced } from '../../support/ledger-balance.js';

// A hold placed while a transfer ships from the same stock. Meaningful on PostgreSQL (TEST_DATABASE_URL),
// where both run at once; PGlite runs them one after the other and must agree.
let server: TestServer;
let a: Tenant;
let store: { id: string };

beforeAll(async () => {
  ({ server, a } = await startServerWithTwoTenants());
  store = await createLocationFor(server.operator, { organizationId: a.org.id, code: 'ST1', name: 'Store' });
});
afterAll(async () => {
  await expectLedgerBalanced(server.app.prisma);
  await server?.close();
});

const call = (method: string, path: string, body?: unknown) => server.call(method, path, { token: a.key, body });

describe('a hold and an allocation at once', () => {
  it('never lets held units be shipped', async () => {
    for (let round = 0; round < 4; round++) {
      const productId = await createProduct(server, a.key, `RACE-${round}`);
      const stock = await addStock(server.app, a.org.id, { productMasterId: productId, locationId: a.warehouse.id, lotCode: 'ONLY' }, { ON_HAND: 10 });
      const draft = await call('POST', '/api/inventory/transfers', { sourceLocationId: a.warehouse.id, destLocationId: store.id, lines: [{ productMasterId: productId, quantity: 7 }] });
      const [hold, ship] = await Promise.all([
        call('POST', '/api/inventory/holds', { scope: 'PRODUCT_AT_LOCATION', productMasterId: productId, locationId: a.warehouse.id, quantity: 6, reasonCode: 'QC' }),
        call('POST', `/api/inventory/transfers/${draft.body.id}`, { action: 'ship' }),
      ]);
      // 10 units: a hold of 6 and a shipment of 7 cannot both happen; exactly one does.
      expect([hold.status === 201, ship.status === 200].filter(Boolean)).toHaveLength(1);
      const line = await server.app.prisma.stockLine.findUniqueOrThrow({ where: { id: stock.id } });
      if (hold.status === 201) expect(line).toMatchObject({ qtyOnHand: 10, qtyOnHold: 6 });
      else expect(line).toMatchObject({ qtyOnHand: 3, qtyOnHold: 0 });
      expect(line.qtyOnHold + (10 - line.qtyOnHand)).toBeLessThanOrEqual(10);
    }
  });
});
