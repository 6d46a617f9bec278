import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocationFor } from '../../../src/services/admin/admin.js';
import type { Tenant } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';
import { startServerWithTwoTenants } from '../../support/two-tenants.js';
import { createProduct, graphqlData } from '../../support/api.js';
import { addStock } from '../../support/stock.js';
import { expectLedgerBalanced } from '../../support/ledger-balance.js';

// Mode suggestions (what to count next) and batches of "the next N suggestions": one ranking.

let server: TestServer;
let a: Tenant;
let b: Tenant;
let n = 0;

const get = (path: string, token = a.key) => server.call('GET', path, { token });
const post = (path: string, body: unknown, token = a.key) => server.call('POST', path, { token, body });
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants());
});
afterAll(async () => {
  if (server) await expectLedgerBalanced(server.app.prisma);
  await server?.close();
});

interface Spec {
  abcClass?: 'A' | 'B' | 'C';
  cost?: number;
  qty: number;
  countedDaysAgo?: number;
}

/** A location with one product per spec (SKU = its key), each on one stock line, class and last count set as given. */
async function site(specs: Record<string, Spec>) {
  const location = await createLocationFor(server.operator, { organizationId: a.org.id, code: `SG${n++}`, name: `Suggestion site ${n}` });
  const ids: Record<string, string> = {};
  const tag = n++;
  for (const [key, spec] of Object.entries(specs)) {
    const id = await createProduct(server, a.key, `${key}-${tag}`);
    ids[key] = id;
    if (spec.cost !== undefined) await server.app.prisma.productMaster.update({ where: { id }, data: { unitCost: spec.cost } });
    await addStock(server.app, a.org.id, { productMasterId: id, locationId: location.id }, { ON_HAND: spec.qty });
    if (spec.abcClass || spec.countedDaysAgo !== undefined) {
      await server.app.prisma.inventoryLevel.create({
        data: { organizationId: a.org.id, productMasterId: id, locationId: location.id, abcClass: spec.abcClass ?? null, lastCountedAt: spec.countedDaysAgo === undefined ? null : daysAgo(spec.countedDaysAgo) },
      });
    }
  }
  const skuOf = (sku: string) => sku.replace(`-${tag}`, '');
  return { location, ids, skuOf };
}

/** Counts one product's line at `counted` and accepts the variance (a recent correction; last counted today). */
async function correctedToday(locationId: string, productMasterId: string, counted: number) {
  const batch = (await post('/api/inventory/cycle-count', { locationId, productMasterIds: [productMasterId] })).body;
  await post(`/api/inventory/cycle-count/${batch.id}`, { action: 'record', counts: [{ lineId: batch.lines[0].id, countedQty: counted }] });
  expect((await post('/api/inventory/cycle-count/resolve', { resolutions: [{ lineId: batch.lines[0].id, action: 'ACCEPT' }] })).status).toBe(200);
  await post(`/api/inventory/cycle-count/${batch.id}`, { action: 'complete' });
}

describe('mode suggestions', () => {
  it('ranks overdue first by class and value, then recently corrected, then the rest by next count date; leaves out what is being counted', async () => {
    const { location, ids, skuOf } = await site({
      A_SMALL: { abcClass: 'A', cost: 5, qty: 10 }, // overdue (never counted), value 50
      A_BIG: { abcClass: 'A', cost: 5, qty: 100 }, // overdue, value 500
      B_HUGE: { abcClass: 'B', cost: 10, qty: 100 }, // overdue, value 1000: class before value
      C_OLD: { cost: 1, qty: 5, countedDaysAgo: 400 }, // unclassified (a C), overdue
      C_NO_COST: { abcClass: 'C', qty: 1000 }, // overdue, no cost: last of the overdue
      RECENT: { abcClass: 'C', cost: 1, qty: 10 }, // corrected today: not due, but a recent variance
      LATER: { abcClass: 'C', cost: 100, qty: 10, countedDaysAgo: 1 }, // due in 179 days
      SOONER: { abcClass: 'A', cost: 1, qty: 1, countedDaysAgo: 20 }, // due in 10 days
      BUSY: { abcClass: 'A', cost: 100, qty: 100 }, // overdue, but an open batch counts it
    });
    await correctedToday(location.id, ids.RECENT!, 8);
    const open = await post('/api/inventory/cycle-count', { locationId: location.id, productMasterIds: [ids.BUSY] });
    expect(open.status).toBe(201);
    // A product with a level and no stock line is not a candidate: a batch could not count it.
    const levelOnly = await createProduct(server, a.key, `LEVEL-ONLY-${n++}`);
    await server.app.prisma.inventoryLevel.create({ data: { organizationId: a.org.id, productMasterId: levelOnly, locationId: location.id, abcClass: 'A' } });

    const res = await get(`/api/inventory/cycle-count?locationId=${location.id}&mode=suggestions`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ type: 'suggestions', count: 8, overdueCount: 5, pagination: { page: 1, pageSize: 50, total: 8, totalPages: 1 } });
    const rows = res.body.suggestions as any[];
    expect(rows.map((r) => skuOf(r.sku))).toEqual(['A_BIG', 'A_SMALL', 'B_HUGE', 'C_OLD', 'C_NO_COST', 'RECENT', 'SOONER', 'LATER']);
    expect(rows.map((r) => r.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(rows[0]).toEqual({
      rank: 1,
      productMasterId: ids.A_BIG,
      sku: rows[0].sku,
      productName: rows[0].productName,
      locationId: location.id,
      abcClass: 'A',
      lastCountedDate: null,
      nextCountDate: new Date().toISOString().slice(0, 10),
      isOverdue: true,
      currentQty: 100,
      unitCost: 5,
      value: 500,
      recentVariances: 0,
      lastVarianceAt: null,
      reasons: ['OVERDUE', 'NEVER_COUNTED'],
    });
    expect(rows.find((r) => skuOf(r.sku) === 'C_OLD').reasons).toEqual(['OVERDUE']);
    expect(rows.find((r) => skuOf(r.sku) === 'C_NO_COST')).toMatchObject({ value: null, unitCost: null });
    expect(rows.find((r) => skuOf(r.sku) === 'RECENT')).toMatchObject({ isOverdue: false, recentVariances: 1, currentQty: 8, reasons: ['RECENT_VARIANCE'] });
    expect(rows.find((r) => skuOf(r.sku) === 'LATER').reasons).toEqual([]);

    const page2 = await get(`/api/inventory/cycle-count?locationId=${location.id}&mode=suggestions&limit=3&page=2`);
    expect(page2.body.suggestions.map((r: any) => r.rank)).toEqual([4, 5, 6]);
    expect(page2.body).toMatchObject({ count: 8, overdueCount: 5, pagination: { page: 2, pageSize: 3, total: 8, totalPages: 3 } });
    const past = await get(`/api/inventory/cycle-count?locationId=${location.id}&mode=suggestions&limit=3&page=9`);
    expect(past.body).toMatchObject({ suggestions: [], count: 8, overdueCount: 5 });

    const data = await graphqlData(
      server,
      a.key,
      'query ($l: ID!) { cycleCountSuggestions(locationId: $l, first: 2) { totalCount overdueCount edges { node { rank sku reasons product { id } } } } }',
      { l: location.id },
    );
    expect(data.cycleCountSuggestions).toMatchObject({ totalCount: 8, overdueCount: 5 });
    expect(data.cycleCountSuggestions.edges.map((e: any) => [e.node.rank, e.node.product.id])).toEqual([[1, ids.A_BIG], [2, ids.A_SMALL]]);
  });

  it('a batch of the next N suggestions counts ranks 1 to N, and the next one the N after', async () => {
    const { location, ids } = await site({
      ONE: { abcClass: 'A', cost: 2, qty: 50 },
      TWO: { abcClass: 'A', cost: 1, qty: 50 },
      THREE: { abcClass: 'B', cost: 9, qty: 50 },
      FOUR: { abcClass: 'C', cost: 9, qty: 50 },
    });
    const ranked = (await get(`/api/inventory/cycle-count?locationId=${location.id}&mode=suggestions`)).body.suggestions.map((r: any) => r.productMasterId);
    expect(ranked).toEqual([ids.ONE, ids.TWO, ids.THREE, ids.FOUR]);
    const first = await post('/api/inventory/cycle-count', { locationId: location.id, suggested: 2 });
    expect(first.status).toBe(201);
    expect(first.body.lines.map((l: any) => l.productMasterId).sort()).toEqual([ids.ONE, ids.TWO].sort());
    const after = (await get(`/api/inventory/cycle-count?locationId=${location.id}&mode=suggestions`)).body;
    expect(after.suggestions.map((r: any) => r.productMasterId)).toEqual([ids.THREE, ids.FOUR]);
    expect(after.count).toBe(2);
    // Two counters asking for the next one at the same moment get different products.
    const [x, y] = await Promise.all([0, 1].map(() => post('/api/inventory/cycle-count', { locationId: location.id, suggested: 1 })));
    expect([x!.status, y!.status]).toEqual([201, 201]);
    expect([x!.body.lines[0].productMasterId, y!.body.lines[0].productMasterId].sort()).toEqual([ids.THREE, ids.FOUR].sort());
    // Nothing left to suggest: nothing to count.
    const none = await post('/api/inventory/cycle-count', { locationId: location.id, suggested: 1 });
    expect(none.status).toBe(400);
    expect(none.body.details.suggested).toBeDefined();
  });

  it('wants a location of the organization and inventory.cyclecount', async () => {
    const missing = await get('/api/inventory/cycle-count?mode=suggestions');
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatch(/locationId/);
    expect((await get(`/api/inventory/cycle-count?mode=suggestions&locationId=${b.warehouse.id}`)).status).toBe(404);
    expect((await get(`/api/inventory/cycle-count?mode=suggestions&locationId=${a.warehouse.id}&limit=201`)).status).toBe(400);
    expect((await get(`/api/inventory/cycle-count?mode=suggestion&locationId=${a.warehouse.id}`)).status).toBe(400);
    const reader = await a.keyWith(['inventory:read']);
    expect((await get(`/api/inventory/cycle-count?mode=suggestions&locationId=${a.warehouse.id}`, reader)).status).toBe(403);
    expect((await server.call('GET', `/api/inventory/cycle-count?mode=suggestions&locationId=${a.warehouse.id}`)).status).toBe(401);
    const foreign = await server.graphql('query ($l: ID!) { cycleCountSuggestions(locationId: $l, first: 1) { totalCount } }', { l: b.warehouse.id }, a.key);
    expect(foreign.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });
});
