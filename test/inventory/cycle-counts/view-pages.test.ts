import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocationFor } from '../../../src/services/admin/admin.js';
import type { Tenant } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';
import { startServerWithTwoTenants } from '../../support/two-tenants.js';
import { createProduct } from '../../support/api.js';
import { addStock } from '../../support/stock.js';
import { expectLedgerBalanced } from '../../support/ledger-balance.js';

// The pages of modes all-products and to-resolve: which products a location's schedule holds and what each
// row of a later page carries (on hand, lot and bin), however the statements choose the page before they
// read the rest.

let server: TestServer;
let a: Tenant;
let n = 0;

const newLocation = () => createLocationFor(server.operator, { organizationId: a.org.id, code: `VP${n++}`, name: `Page site ${n}` });
const get = (path: string) => server.call('GET', path, { token: a.key });
const post = (path: string, body: unknown) => server.call('POST', path, { token: a.key, body });
const ids = (rows: { productMasterId: string }[]) => rows.map((r) => r.productMasterId);

beforeAll(async () => {
  ({ server, a } = await startServerWithTwoTenants());
});
afterAll(async () => {
  if (server) await expectLedgerBalanced(server.app.prisma);
  await server?.close();
});

describe('all-products pages', () => {
  it('holds the products with stock or a level at the location, each page with its own on hand', async () => {
    const [here, elsewhere] = [await newLocation(), await newLocation()];
    const prefix = `VP-${n++}`;
    // SKUs in the order the schedule ties are broken by.
    const [stockOnly, levelOnly, counted, away] = await Promise.all(['1', '2', '3', '4'].map((s) => createProduct(server, a.key, `${prefix}-${s}`)));
    await addStock(server.app, a.org.id, { productMasterId: stockOnly!, locationId: here.id, binCode: 'A-01' }, { ON_HAND: 4 });
    await addStock(server.app, a.org.id, { productMasterId: stockOnly!, locationId: here.id, lotCode: 'L1' }, { ON_HAND: 6 });
    await addStock(server.app, a.org.id, { productMasterId: stockOnly!, locationId: elsewhere.id }, { ON_HAND: 50 });
    await addStock(server.app, a.org.id, { productMasterId: counted!, locationId: here.id }, { ON_HAND: 3 });
    await addStock(server.app, a.org.id, { productMasterId: away!, locationId: elsewhere.id }, { ON_HAND: 9 });
    await server.app.prisma.inventoryLevel.createMany({
      data: [
        { organizationId: a.org.id, locationId: here.id, productMasterId: levelOnly! },
        { organizationId: a.org.id, locationId: here.id, productMasterId: counted!, abcClass: 'A', lastCountedAt: new Date(Date.now() - 5 * 86_400_000) },
        { organizationId: a.org.id, locationId: elsewhere.id, productMasterId: away!, abcClass: 'A' },
      ],
    });

    const first = await get(`/api/inventory/cycle-count?locationId=${here.id}&limit=2`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ count: 3, overdueCount: 2, pagination: { page: 1, pageSize: 2, total: 3, totalPages: 2 } });
    // Never counted (no level, or a level without a count): due today, by SKU; then the one counted 5 days ago.
    expect(ids(first.body.products)).toEqual([stockOnly, levelOnly]);
    expect(first.body.products.map((r: { currentQty: number }) => r.currentQty)).toEqual([10, 0]);
    const second = await get(`/api/inventory/cycle-count?locationId=${here.id}&limit=2&page=2`);
    expect(second.body.products).toEqual([expect.objectContaining({ productMasterId: counted, currentQty: 3, abcClass: 'A', isOverdue: false })]);
    const past = await get(`/api/inventory/cycle-count?locationId=${here.id}&limit=2&page=5`);
    expect(past.body).toMatchObject({ products: [], count: 3, overdueCount: 2 });
    const overdue = await get(`/api/inventory/cycle-count?locationId=${here.id}&showOverdueOnly=true&limit=1&page=2`);
    expect(overdue.body).toMatchObject({ count: 2, overdueCount: 2, products: [expect.objectContaining({ productMasterId: levelOnly, currentQty: 0 })] });
  });

  it('gives the same order page by page as in one page, whichever end of a segment a page is read from', async () => {
    const here = await newLocation();
    const prefix = `VW-${n++}`;
    // Counted days ago with class A (every 30 days): 40 (twice), 35 and 31 days ago are overdue, 30 is due today, 10 and 2 are
    // due later; two never counted; names carry "walk" for the search, every other one.
    const daysAgo = [40, 35, 31, 30, null, null, 10, 2, 10, 40];
    const products = await Promise.all(daysAgo.map((_, i) => createProduct(server, a.key, `${prefix}-${String(9 - i)}`, i % 2 ? `Other ${i}` : `Walk item ${i}`)));
    await server.app.prisma.inventoryLevel.createMany({
      data: products.map((id, i) => ({
        organizationId: a.org.id,
        locationId: here.id,
        productMasterId: id,
        abcClass: 'A' as const,
        lastCountedAt: daysAgo[i] === null ? null : new Date(Date.now() - daysAgo[i]! * 86_400_000),
      })),
    });
    for (const query of ['', '&showOverdueOnly=true', '&search=walk', '&search=walk&showOverdueOnly=true']) {
      const whole = await get(`/api/inventory/cycle-count?locationId=${here.id}&limit=200${query}`);
      expect(whole.status).toBe(200);
      const all = ids(whole.body.products);
      expect(all).toHaveLength(whole.body.count);
      const dates = whole.body.products.map((p: { nextCountDate: string }) => p.nextCountDate);
      expect(dates).toEqual([...dates].sort());
      for (const limit of [1, 2, 3, 4]) {
        const walked: string[] = [];
        for (let page = 1; page <= Math.ceil(all.length / limit) + 1; page++) {
          const one = await get(`/api/inventory/cycle-count?locationId=${here.id}&limit=${limit}&page=${page}${query}`);
          expect(one.body).toMatchObject({ count: whole.body.count, overdueCount: whole.body.overdueCount });
          walked.push(...ids(one.body.products));
        }
        expect(walked, `limit ${limit}${query}`).toEqual(all);
      }
    }
    const everything = await get(`/api/inventory/cycle-count?locationId=${here.id}&limit=200`);
    expect(everything.body).toMatchObject({ count: 10, overdueCount: 7 });
  });
});

describe('to-resolve pages', () => {
  it('carries the lot and bin of every line, on every page, largest variance first', async () => {
    const location = await newLocation();
    const [small, large] = await Promise.all(['S', 'L'].map((s) => createProduct(server, a.key, `VPR-${n++}-${s}`)));
    await addStock(server.app, a.org.id, { productMasterId: small!, locationId: location.id, lotCode: 'LOT-S', binCode: 'B-S' }, { ON_HAND: 10 });
    await addStock(server.app, a.org.id, { productMasterId: large!, locationId: location.id, lotCode: 'LOT-L', binCode: 'B-L' }, { ON_HAND: 10 });
    const batch = (await post('/api/inventory/cycle-count', { locationId: location.id, productMasterIds: [small, large] })).body;
    const lineOf = (product: string) => batch.lines.find((l: { productMasterId: string }) => l.productMasterId === product).id as string;
    const counts = [
      { lineId: lineOf(small!), countedQty: 9 },
      { lineId: lineOf(large!), countedQty: 4 },
    ];
    expect((await post(`/api/inventory/cycle-count/${batch.id}`, { action: 'record', counts })).status).toBe(200);

    const pages = await Promise.all([1, 2].map((page) => get(`/api/inventory/cycle-count?locationId=${location.id}&mode=to-resolve&limit=1&page=${page}`)));
    expect(pages.map((p) => p.body.count)).toEqual([2, 2]);
    expect(pages.map((p) => p.body.lines[0])).toEqual([
      expect.objectContaining({ productMasterId: large, lotCode: 'LOT-L', binCode: 'B-L', varianceQty: -6 }),
      expect.objectContaining({ productMasterId: small, lotCode: 'LOT-S', binCode: 'B-S', varianceQty: -1 }),
    ]);
    const past = await get(`/api/inventory/cycle-count?locationId=${location.id}&mode=to-resolve&limit=1&page=3`);
    expect(past.body).toMatchObject({ lines: [], count: 2 });
  });
});
