import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocationFor } from '../../../src/services/admin/admin.js';
import { createProduct } from '../../support/api.js';
import type { Tenant } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';
import { addStock } from '../../support/stock.js';
import { startServerWithTwoTenants } from '../../support/two-tenants.js';
import { expectLedgerBalanced } from '../../support/ledger-balance.js';
import { waitForJob } from '../../support/import.js';
import { graphqlData } from '../../support/api.js';

// A hold placed while a transfer ships from, or an order import reserves, the same stock. Meaningful on PostgreSQL (TEST_DATABASE_URL),
// where both run at once; PGlite runs them one after the other and must agree.
let server: TestServer;
let a: Tenant;
let store: { id: string };

beforeAll(async () => {
  ({ server, a } = await startServerWithTwoTenants({ IMPORT_WORKERS: '2', IMPORT_POLL_MS: '20' }));
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

describe('holds while an order import allocates', () => {
  it('never lets held units be reserved: what the orders reserve and what the holds hold add up to the stock', async () => {
    const productId = await createProduct(server, a.key, 'RACE-IMPORT');
    const stock = await addStock(server.app, a.org.id, { productMasterId: productId, locationId: a.warehouse.id, lotCode: 'ONE', expiryDate: '2035-01-01' }, { ON_HAND: 30 });
    // 20 orders of 1 unit in two jobs (two workers) and 20 holds of 1 unit, at once, over 30 units.
    const orders = (from: number) => Array.from({ length: 10 }, (_, i) => ({ externalId: `RACE-${from + i}`, fulfillmentLocationCode: 'WH1', lines: [{ sku: 'RACE-IMPORT', quantity: 1 }] }));
    const [jobA, jobB, ...holds] = await Promise.all([
      call('POST', '/api/import/orders', orders(0)),
      call('POST', '/api/import/orders', orders(10)),
      ...Array.from({ length: 20 }, () => call('POST', '/api/inventory/holds', { scope: 'PRODUCT_AT_LOCATION', productMasterId: productId, locationId: a.warehouse.id, quantity: 1, reasonCode: 'QC' })),
    ]);
    expect([jobA.status, jobB.status]).toEqual([202, 202]);
    for (const job of [jobA, jobB]) expect((await waitForJob(server, a.key, job.body.jobId)).state).toBe('COMPLETED');
    for (const hold of holds) expect([201, 400]).toContain(hold.status);
    const placed = holds.filter((h) => h.status === 201).length;
    const data = await graphqlData(server, a.key, `query ($l: ID) { salesOrders(first: 50, locationId: $l) { edges { node { externalId lines { reservedQty } } } } }`, { l: a.warehouse.id });
    const raced = data.salesOrders.edges.map((e: any) => e.node).filter((o: any) => o.externalId.startsWith('RACE-'));
    expect(raced).toHaveLength(20);
    const reserved = raced.reduce((sum: number, o: any) => sum + o.lines[0].reservedQty, 0);
    const line = await server.app.prisma.stockLine.findUniqueOrThrow({ where: { id: stock.id } });
    // Every unit went to one side only, and all 30 were taken (20 + 20 asked).
    expect(line).toMatchObject({ qtyOnHand: 30, qtyReserved: reserved, qtyOnHold: placed });
    expect(reserved + placed).toBe(30);
  }, 60_000);
});
