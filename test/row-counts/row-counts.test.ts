import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorContext } from '../../src/context.js';
import { createLocationFor } from '../../src/services/admin/admin.js';
import { compactRowCounts } from '../../src/services/row-counts/row-count-compaction.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { importRows } from '../support/import.js';
import type { TestServer } from '../support/server.js';
import { startServerWithTwoTenants } from '../support/two-tenants.js';

// List totals from counters (docs/lists.md): GET /api/products, GET /api/inventory (all, or one location's) and the
// channel-location page answer exact totals from row_count_deltas and location_products, which triggers keep in the
// transaction of every write; the compaction folds deltas without changing a total.
let server: TestServer;
let a: Tenant;
let b: Tenant;
let n = 0;

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants({ IMPORT_WORKERS: '1', IMPORT_POLL_MS: '50' }));
});
afterAll(() => server?.close());

const get = async (path: string, tenant = a) => {
  const res = await server.call('GET', path, { token: tenant.key });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};
const product = async (tenant = a, sku = `RC-${String(++n).padStart(4, '0')}`) => {
  const res = await server.call('POST', '/api/products', { token: tenant.key, body: { sku, name: `Product ${sku}` } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
};
const receive = async (lines: unknown[], tenant = a) => {
  const res = await server.call('POST', '/api/inventory/record-stock', { token: tenant.key, body: { lines } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};
const location = (tenant: Tenant, code: string) => createLocationFor(operatorContext(server.app.prisma, 'test'), { organizationId: tenant.org.id, code, name: `Location ${code}` });

/** The totals every list answers, beside what the tables hold. */
async function totals(tenant: Tenant, locationId: string) {
  const db = server.app.prisma;
  const org = tenant.org.id;
  const pairs = await db.stockLine.findMany({ where: { organizationId: org, locationId }, distinct: ['productMasterId'], select: { productMasterId: true } });
  return {
    answered: {
      products: (await get('/api/products?limit=1', tenant)).meta.total,
      lines: (await get('/api/inventory?limit=1', tenant)).pagination.total,
      linesHere: (await get(`/api/inventory?limit=1&locationId=${locationId}`, tenant)).pagination.total,
      productsHere: (await get(`/api/inventory/channel-location?locationId=${locationId}&limit=1`, tenant)).pagination.total,
    },
    counted: {
      products: await db.productMaster.count({ where: { organizationId: org } }),
      lines: await db.stockLine.count({ where: { organizationId: org } }),
      linesHere: await db.stockLine.count({ where: { organizationId: org, locationId } }),
      productsHere: pairs.length,
    },
  };
}

describe('list totals from counters', () => {
  it('count products, stock lines and a location’s products exactly through creates, receipts and imports, one organization apart from another', async () => {
    const store = await location(a, 'RC-STORE');
    const first = await totals(a, a.warehouse.id);
    expect(first.answered).toEqual(first.counted);
    const [p1, p2, p3] = [await product(), await product(), await product()];
    await product(b);
    // Two lines of p1 at the warehouse (a lot and none) are one product there; p2 at both locations.
    await receive([
      { productMasterId: p1, locationId: a.warehouse.id, quantity: 4 },
      { productMasterId: p1, locationId: a.warehouse.id, quantity: 2, lotCode: 'L1' },
      { productMasterId: p2, locationId: a.warehouse.id, quantity: 1 },
      { productMasterId: p2, locationId: store.id, quantity: 1 },
    ]);
    // Receiving again on existing lines adds no line and no product.
    await receive([{ productMasterId: p1, locationId: a.warehouse.id, quantity: 1 }]);
    await importRows(server, a.key, 'catalog', Array.from({ length: 25 }, (_, i) => ({ externalId: `RC-IMPORT-${i}` })));
    const after = await totals(a, a.warehouse.id);
    expect(after.answered).toEqual(after.counted);
    expect(after.answered).toEqual({
      products: first.answered.products + 3 + 25,
      lines: first.answered.lines + 4,
      linesHere: first.answered.linesHere + 3,
      productsHere: first.answered.productsHere + 2,
    });
    const atStore = await totals(a, store.id);
    expect(atStore.answered).toEqual(atStore.counted);
    expect(atStore.answered.productsHere).toBe(1);
    // The other organization's product and lines are not in a's totals, nor a's in b's.
    const theirs = await totals(b, b.warehouse.id);
    expect(theirs.answered).toEqual(theirs.counted);
    expect(p3).toBeTruthy();
  });

  it('keeps the channel-location page in SKU order through a SKU change, paging over the location’s products only', async () => {
    const here = await location(a, 'RC-SORT');
    const ids = [await product(a, 'SORT-B'), await product(a, 'SORT-D'), await product(a, 'SORT-F')];
    await product(a, 'SORT-A'); // no stock at the location: not on its page
    await receive(ids.map((productMasterId) => ({ productMasterId, locationId: here.id, quantity: 3 })));
    const skus = async (page: number) =>
      (await get(`/api/inventory/channel-location?locationId=${here.id}&limit=2&page=${page}`)).products.map((p: any) => p.globalSku);
    expect([...(await skus(1)), ...(await skus(2))]).toEqual(['SORT-B', 'SORT-D', 'SORT-F']);
    const renamed = await server.call('PATCH', `/api/products/${ids[2]}`, { token: a.key, body: { sku: 'SORT-0' } });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(await skus(1)).toEqual(['SORT-0', 'SORT-B']);
    const page = await get(`/api/inventory/channel-location?locationId=${here.id}&limit=2&page=2`);
    expect(page.pagination).toEqual({ page: 2, pageSize: 2, total: 3, totalPages: 2 });
    // A search counts its matches, not the location's products.
    expect((await get(`/api/inventory/channel-location?locationId=${here.id}&search=sort-b`)).pagination.total).toBe(1);
    expect((await get(`/api/inventory/channel-location?locationId=${here.id}&search=zzz&page=3`)).pagination.total).toBe(0);
  });

  it('answer the same totals after the deltas are folded, with one row per scope left', async () => {
    const before = await totals(a, a.warehouse.id);
    expect(await server.app.prisma.rowCountDelta.count({ where: { organizationId: a.org.id } })).toBeGreaterThan(5);
    while ((await compactRowCounts(server.app)) > 0);
    const after = await totals(a, a.warehouse.id);
    expect(after.answered).toEqual(before.answered);
    const rows = await server.app.prisma.rowCountDelta.groupBy({ by: ['organizationId', 'counted', 'scopeId'], _count: true });
    expect(rows.every((row) => row._count === 1)).toBe(true);
    // Writes after the fold count on top of it.
    await product();
    expect((await totals(a, a.warehouse.id)).answered.products).toBe(before.answered.products + 1);
  });

  it('let an organization, a location or a product be deleted (cascades count down, and write nothing for a deleted organization)', async () => {
    const db = server.app.prisma;
    const c = await createTenant(db);
    const gone = await location(c, 'RC-GONE');
    const [x, y] = [await product(c), await product(c)];
    await receive([{ productMasterId: x, locationId: c.warehouse.id, quantity: 1 }, { productMasterId: y, locationId: c.warehouse.id, quantity: 1 }, { productMasterId: x, locationId: gone.id, quantity: 1 }], c);
    await db.$executeRaw`DELETE FROM locations WHERE id = ${gone.id}`;
    await db.$executeRaw`DELETE FROM stock_transactions WHERE "productMasterId" = ${y}`;
    await db.$executeRaw`DELETE FROM product_masters WHERE id = ${y}`;
    const left = await totals(c, c.warehouse.id);
    expect(left.answered).toEqual(left.counted);
    expect(left.answered).toMatchObject({ products: 1, lines: 1, linesHere: 1, productsHere: 1 });
    await db.$executeRaw`DELETE FROM organizations WHERE id = ${c.org.id}`;
    expect(await db.rowCountDelta.count({ where: { organizationId: c.org.id } })).toBe(0);
  });

  it.runIf(Boolean(process.env.TEST_DATABASE_URL))('count a new product at a location once when many transactions add its first lines at once', async () => {
    const here = await location(a, 'RC-RACE');
    const id = await product();
    await Promise.all(
      Array.from({ length: 12 }, (_, i) => receive([{ productMasterId: id, locationId: here.id, quantity: 1, lotCode: `RACE-${i % 4}` }])),
    );
    const now = await totals(a, here.id);
    expect(now.answered).toEqual(now.counted);
    expect(now.answered).toMatchObject({ linesHere: 4, productsHere: 1 });
  });
});
