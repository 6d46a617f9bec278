import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FILTERED_EXPIRED_LINES } from '../../../src/contracts/inventory/expired-stock/expired-stock.js';
import { createProduct } from '../../support/api.js';
import type { Tenant } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';
import { startServerWithTwoTenants } from '../../support/two-tenants.js';

// A lot / location filter of an expired-stock action selects a bounded number of stock lines: one more is a
// 400 naming the filter, before anything is locked or changed.
let server: TestServer;
let a: Tenant;

beforeAll(async () => {
  ({ server, a } = await startServerWithTwoTenants());
});
afterAll(() => server?.close());

describe('expired-stock actions: the filter bound', () => {
  it('refuses a location filter selecting more lines than the bound, changing nothing', async () => {
    const product = await createProduct(server, a.key, 'BOUND-1');
    const location = await server.app.prisma.location.create({ data: { organizationId: a.org.id, code: 'MANY', name: 'Many bins' } });
    const lot = await server.app.prisma.lot.create({ data: { organizationId: a.org.id, productMasterId: product, code: 'OLD', expiryDate: new Date('2020-01-01') } });
    // Set-up data only (no ledger rows: the refusal must come before any change): one expired line per bin.
    const lines = MAX_FILTERED_EXPIRED_LINES + 1;
    await server.app.prisma.$executeRaw`
      INSERT INTO bins (id, "organizationId", "locationId", code, "updatedAt")
      SELECT 'bin-' || g, ${a.org.id}, ${location.id}, 'B' || g, now() FROM generate_series(1, ${lines}::int) g`;
    await server.app.prisma.$executeRaw`
      INSERT INTO stock_lines (id, "organizationId", "productMasterId", "locationId", "lotId", "binId", "lineKey", "qtyOnHand", "updatedAt")
      SELECT 'line-' || g, ${a.org.id}, ${product}, ${location.id}, ${lot.id}, 'bin-' || g, ${lot.id} || ':bin-' || g, 1, now() FROM generate_series(1, ${lines}::int) g`;
    const before = await server.app.prisma.stockTransaction.count();
    for (const path of ['mark-expired', 'mark-consumed', 'transfer-destruction']) {
      const res = await server.call('POST', `/api/inventory/expired/${path}`, { token: a.key, body: { locationId: location.id, ...(path === 'transfer-destruction' ? { documentNumber: 'D-1' } : {}) } });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.details.locationId[0]).toContain(`more than ${MAX_FILTERED_EXPIRED_LINES}`);
    }
    const byLot = await server.call('POST', '/api/inventory/expired/mark-expired', { token: a.key, body: { lotId: lot.id } });
    expect(byLot.status).toBe(400);
    expect(byLot.body.details.lotId).toBeDefined();
    expect(await server.app.prisma.stockTransaction.count()).toBe(before);
    expect(await server.app.prisma.stockLine.count({ where: { locationId: location.id, qtyExpired: { gt: 0 } } })).toBe(0);

    // At the bound, the filter acts.
    await server.app.prisma.$executeRaw`DELETE FROM stock_lines WHERE id = 'line-1'`;
    const ok = await server.call('POST', '/api/inventory/expired/mark-expired', { token: a.key, body: { locationId: location.id } });
    expect(ok.status, JSON.stringify(ok.body).slice(0, 500)).toBe(200);
  }, 120_000);
});
