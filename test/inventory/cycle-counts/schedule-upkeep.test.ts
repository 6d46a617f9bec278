import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocationFor } from '../../../src/services/admin/admin.js';
import type { Tenant } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';
import { startServerWithTwoTenants } from '../../support/two-tenants.js';
import { createProduct, graphqlData } from '../../support/api.js';
import { addStock } from '../../support/stock.js';
import { expectLedgerBalanced } from '../../support/ledger-balance.js';

// Mode all-products reads the count schedule that triggers keep (cycle_count_schedule): its pages, whatever their
// size, are one order across the products due before today, due today (or never counted) and due later; and every
// writer of levels, stock lines, products and frequencies is seen by the next read.

let server: TestServer;
let a: Tenant;
let b: Tenant;
let n = 0;

const newLocation = () => createLocationFor(server.operator, { organizationId: a.org.id, code: `SU${n++}`, name: `Schedule site ${n}` });
const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown) => server.call(method, path, { token: a.key, body });
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const at = (offset: number) => new Date(`${day(offset)}T12:00:00Z`);

async function schedule(locationId: string, query = '') {
  const res = await call('GET', `/api/inventory/cycle-count?locationId=${locationId}&limit=200${query}`);
  expect(res.status).toBe(200);
  return res.body as { count: number; overdueCount: number; products: any[] };
}
const rowOf = async (locationId: string, productMasterId: string) => (await schedule(locationId)).products.find((p) => p.productMasterId === productMasterId);

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants());
});
afterAll(async () => {
  if (server) await expectLedgerBalanced(server.app.prisma);
  await server?.close();
});

describe('the schedule in pages', () => {
  it('answers one order at every page size, over the REST pages and the GraphQL connection', async () => {
    const location = await newLocation();
    const tag = `ORD${n++}`;
    // SKUs sort in the order of their letter; the default frequencies are 30 (A), 90 (B) and 180 (C) days.
    const specs: { key: string; abcClass?: 'A' | 'B' | 'C'; countedDaysAgo?: number; level: boolean; next: string }[] = [
      { key: 'F', abcClass: 'A', countedDaysAgo: 40, level: true, next: day(-10) },
      { key: 'B', abcClass: 'B', countedDaysAgo: 100, level: true, next: day(-10) },
      { key: 'H', abcClass: 'C', countedDaysAgo: 200, level: true, next: day(-20) },
      { key: 'G', abcClass: 'A', countedDaysAgo: 30, level: true, next: day(0) },
      { key: 'C', level: true, next: day(0) },
      { key: 'A', level: false, next: day(0) },
      { key: 'E', abcClass: 'A', countedDaysAgo: 5, level: true, next: day(25) },
      { key: 'D', abcClass: 'C', countedDaysAgo: 10, level: true, next: day(170) },
      { key: 'I', countedDaysAgo: 170, level: true, next: day(10) },
    ];
    const ids: Record<string, string> = {};
    for (const spec of specs) {
      ids[spec.key] = await createProduct(server, a.key, `${tag}-${spec.key}`);
      await addStock(server.app, a.org.id, { productMasterId: ids[spec.key]!, locationId: location.id }, { ON_HAND: 1 });
    }
    await server.app.prisma.inventoryLevel.createMany({
      data: specs
        .filter((s) => s.level)
        .map((s) => ({ organizationId: a.org.id, locationId: location.id, productMasterId: ids[s.key]!, abcClass: s.abcClass ?? null, lastCountedAt: s.countedDaysAgo === undefined ? null : at(-s.countedDaysAgo) })),
    });
    const expected = ['H', 'B', 'F', 'A', 'C', 'G', 'I', 'E', 'D'];
    const whole = await schedule(location.id);
    expect(whole).toMatchObject({ count: 9, overdueCount: 6 });
    expect(whole.products.map((p) => p.sku)).toEqual(expected.map((k) => `${tag}-${k}`));
    for (const row of whole.products) expect(row.nextCountDate, row.sku).toBe(specs.find((s) => `${tag}-${s.key}` === row.sku)!.next);
    expect(whole.products.map((p) => p.isOverdue)).toEqual([true, true, true, true, true, true, false, false, false]);

    for (const limit of [1, 2, 4, 5]) {
      for (const overdueOnly of [false, true]) {
        const seen: string[] = [];
        for (let page = 1; page <= Math.ceil(9 / limit) + 1; page++) {
          const res = await call('GET', `/api/inventory/cycle-count?locationId=${location.id}&limit=${limit}&page=${page}${overdueOnly ? '&showOverdueOnly=true' : ''}`);
          expect(res.body.count).toBe(overdueOnly ? 6 : 9);
          seen.push(...res.body.products.map((p: any) => p.sku));
        }
        expect(seen, `limit ${limit}${overdueOnly ? ', overdue only' : ''}`).toEqual(expected.slice(0, overdueOnly ? 6 : 9).map((k) => `${tag}-${k}`));
      }
    }
    const query = `query ($l: ID!, $after: String) { cycleCountProducts(locationId: $l, first: 2, after: $after) { edges { node { sku } } pageInfo { hasNextPage endCursor } } }`;
    const walked: string[] = [];
    let after: string | null = null;
    for (let i = 0; i < 6; i++) {
      const data: any = await graphqlData(server, a.key, query, { l: location.id, after });
      walked.push(...data.cycleCountProducts.edges.map((e: any) => e.node.sku));
      if (!data.cycleCountProducts.pageInfo.hasNextPage) break;
      after = data.cycleCountProducts.pageInfo.endCursor;
    }
    expect(walked).toEqual(expected.map((k) => `${tag}-${k}`));
    expect((await schedule(location.id, '&abcClass=A')).products.map((p) => p.sku)).toEqual(['F', 'G', 'E'].map((k) => `${tag}-${k}`));
  });
});

describe('every writer keeps the schedule', () => {
  it('stock, levels, products, frequencies, counts and deletions show in the next read', async () => {
    const location = await newLocation();
    const stocked = await createProduct(server, a.key, `UPK-${n++}`);
    const levelled = await createProduct(server, a.key, `UPK-${n++}`);
    expect((await schedule(location.id)).count).toBe(0);

    // A first stock line puts a product on the schedule, never counted: due today.
    await addStock(server.app, a.org.id, { productMasterId: stocked, locationId: location.id }, { ON_HAND: 10 });
    expect(await rowOf(location.id, stocked)).toMatchObject({ abcClass: null, lastCountedDate: null, nextCountDate: day(0), isOverdue: true, currentQty: 10 });

    // A level created or changed through the API: its class.
    const level = await call('POST', '/api/inventory-levels', { productMasterId: levelled, locationId: location.id, abcClass: 'B' });
    expect(level.status).toBe(200);
    expect(await rowOf(location.id, levelled)).toMatchObject({ abcClass: 'B', currentQty: 0, nextCountDate: day(0) });
    const levelId = (level.body.inventoryLevel ?? level.body.data ?? level.body).id as string;
    expect((await call('PATCH', `/api/inventory-levels/${levelId}`, { abcClass: 'A' })).status).toBe(200);
    expect((await rowOf(location.id, levelled)).abcClass).toBe('A');

    // A product renamed: found by its new name, not by the old one; sorted by its new SKU.
    const name = `Renamed ${n++} zebra`;
    expect((await call('PATCH', `/api/products/${stocked}`, { name, sku: `AAA-UPK-${n}` })).status).toBe(200);
    const found = await schedule(location.id, `&search=${encodeURIComponent('ZEBRA')}`);
    expect(found.products.map((p) => [p.productMasterId, p.productName, p.sku])).toEqual([[stocked, name, `AAA-UPK-${n}`]]);
    expect((await schedule(location.id, '&search=UPK-')).count).toBe(2);
    expect((await schedule(location.id)).products.map((p) => p.productMasterId)).toEqual([stocked, levelled]);

    // A count resolved: counted today, next due after the class's frequency (A: 30 days by default).
    const batch = (await call('POST', '/api/inventory/cycle-count', { locationId: location.id, productMasterIds: [stocked] })).body;
    const lineId = batch.lines[0].id as string;
    expect((await call('POST', `/api/inventory/cycle-count/${batch.id}`, { action: 'record', counts: [{ lineId, countedQty: 9 }] })).status).toBe(200);
    expect((await call('POST', '/api/inventory/cycle-count/resolve', { resolutions: [{ lineId, action: 'accept' }] })).status).toBe(200);
    expect(await rowOf(location.id, stocked)).toMatchObject({ lastCountedDate: day(0), nextCountDate: day(180), isOverdue: false, currentQty: 9, abcClass: null });

    // The organization's frequencies changed: the counted product is due anew (unclassified counts as C).
    expect((await call('POST', '/api/inventory/cycle-count/abc', { cFrequencyDays: 7 })).status).toBe(200);
    expect(await rowOf(location.id, stocked)).toMatchObject({ nextCountDate: day(7), isOverdue: false });
    const overdue = await schedule(location.id, '&showOverdueOnly=true');
    expect(overdue.products.map((p) => p.productMasterId)).toEqual([levelled]);

    // A level deleted: a product with stock stays (never counted, as without a level), one without stock leaves.
    await call('POST', '/api/inventory-levels', { productMasterId: stocked, locationId: location.id, abcClass: 'C' });
    expect((await rowOf(location.id, stocked)).abcClass).toBe('C');
    const stockedLevel = await server.app.prisma.inventoryLevel.findFirstOrThrow({ where: { productMasterId: stocked, locationId: location.id } });
    expect((await call('DELETE', `/api/inventory-levels/${stockedLevel.id}`)).status).toBe(200);
    expect((await call('DELETE', `/api/inventory-levels/${levelId}`)).status).toBe(200);
    const after = await schedule(location.id);
    expect(after).toMatchObject({ count: 1, overdueCount: 1 });
    expect(after.products[0]).toMatchObject({ productMasterId: stocked, abcClass: null, lastCountedDate: null, nextCountDate: day(0) });

    // Another organization's reads never see the location, nor its writes this one's.
    expect((await server.call('GET', `/api/inventory/cycle-count?locationId=${location.id}`, { token: b.key })).status).toBe(404);
  });
});
