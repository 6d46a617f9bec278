import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocationFor } from '../../../src/services/admin/admin.js';
import type { Tenant } from '../../support/fixtures.js';
import { REFUSAL } from '../../support/graphql.js';
import type { TestServer } from '../../support/server.js';
import { startServerWithTwoTenants } from '../../support/two-tenants.js';
import { createProduct, graphqlData, graphqlRefusal } from '../../support/api.js';
import { addStock } from '../../support/stock.js';
import { expectLedgerBalanced } from '../../support/ledger-balance.js';

// The ABC configuration, the reclassification by movement value and the count schedule (mode all-products).

let server: TestServer;
let a: Tenant;
let b: Tenant;
let n = 0;

const newLocation = (t: Tenant) => createLocationFor(server.operator, { organizationId: t.org.id, code: `CC${n++}`, name: `Count site ${n}` });
const get = (path: string, token = a.key) => server.call('GET', path, { token });
const post = (path: string, body: unknown, token = a.key) => server.call('POST', path, { token, body });
const today = () => new Date().toISOString().slice(0, 10);
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);

/** Sells (ships) units of a product at a location: an ON_HAND decrease in the ledger. */
async function ship(t: Tenant, productMasterId: string, locationId: string, units: number) {
  await addStock(server.app, t.org.id, { productMasterId, locationId }, { ON_HAND: -units });
}

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants());
});
afterAll(async () => {
  if (server) await expectLedgerBalanced(server.app.prisma);
  await server?.close();
});

describe('ABC configuration', () => {
  it('answers the defaults, sets fields given and refuses percents that do not add up to 100', async () => {
    const fresh = await get('/api/inventory/cycle-count/abc', b.key);
    expect(fresh.status).toBe(200);
    expect(fresh.body).toEqual({
      config: { aPercent: 80, bPercent: 15, cPercent: 5, aFrequencyDays: 30, bFrequencyDays: 90, cFrequencyDays: 180 },
      tolerance: { units: 0, percent: 0, value: 0 },
    });
    expect((await get('/api/inventory/cycle-count?mode=abc-config', b.key)).body).toEqual({ config: fresh.body.config });

    const wrongSum = await post('/api/inventory/cycle-count/abc', { aPercent: 70 }, b.key);
    expect(wrongSum.status).toBe(400);
    expect(wrongSum.body.details.aPercent[0]).toMatch(/must be 100/);
    const badFrequency = await post('/api/inventory/cycle-count/abc', { aFrequencyDays: 0, bFrequencyDays: 1.5 }, b.key);
    expect(badFrequency.status).toBe(400);
    expect(Object.keys(badFrequency.body.details).sort()).toEqual(['aFrequencyDays', 'bFrequencyDays']);
    expect((await post('/api/inventory/cycle-count/abc', { dPercent: 1 }, b.key)).status).toBe(400);
    expect((await get('/api/inventory/cycle-count/abc', b.key)).body).toEqual(fresh.body);

    const set = await post('/api/inventory/cycle-count/abc', { aPercent: 70, bPercent: 20, cPercent: 10, aFrequencyDays: 7 }, b.key);
    expect(set.status).toBe(200);
    expect(set.body).toEqual({
      config: { aPercent: 70, bPercent: 20, cPercent: 10, aFrequencyDays: 7, bFrequencyDays: 90, cFrequencyDays: 180 },
      tolerance: { units: 0, percent: 0, value: 0 },
      reclassification: null,
    });
    expect((await get('/api/inventory/cycle-count/abc', b.key)).body.config.aFrequencyDays).toBe(7);
    // Another organization's configuration is its own.
    expect((await get('/api/inventory/cycle-count/abc', a.key)).body.config.aFrequencyDays).toBe(30);
  });

  it('refuses through GraphQL with a typed refusal and changes nothing', async () => {
    const refusal = await graphqlRefusal(
      server,
      a.key,
      `mutation { updateCycleCountAbc(input: { cPercent: 50 }) { __typename ${REFUSAL} } }`,
    );
    expect(refusal.code).toBe('VALIDATION_ERROR');
    expect(refusal.details?.cPercent).toBeDefined();
    const data = await graphqlData(server, a.key, 'query { cycleCountAbcConfig { cPercent } }');
    expect(data.cycleCountAbcConfig.cPercent).toBe(5);
  });
});

describe('reclassification', () => {
  it('ranks products by outflow value (units where no cost) and reports how many changed', async () => {
    const location = await newLocation(a);
    const skus = ['ABC-HI', 'ABC-MID', 'ABC-LOW', 'ABC-IDLE'];
    const [hi, mid, low, idle] = await Promise.all(skus.map((sku) => createProduct(server, a.key, `${sku}-${n++}`)));
    await server.app.prisma.productMaster.update({ where: { id: hi! }, data: { unitCost: 10 } });
    await server.app.prisma.productMaster.update({ where: { id: mid! }, data: { unitCost: 2 } });
    for (const id of [hi!, mid!, low!, idle!]) await addStock(server.app, a.org.id, { productMasterId: id, locationId: location.id }, { ON_HAND: 100 });
    // Of 1000 in all: 850 ranked before nothing (A), 120 after 85 % (B), 30 after 97 % (C).
    await ship(a, hi!, location.id, 85); // 850
    await ship(a, mid!, location.id, 60); // 120
    await ship(a, low!, location.id, 30); // 30 (no cost: units)
    const before = await server.app.prisma.stockTransaction.count();

    const res = await post('/api/inventory/cycle-count/abc', { reclassify: { locationId: location.id, periodDays: 30 } });
    expect(res.status).toBe(200);
    expect(res.body.reclassification).toMatchObject({ locationId: location.id, productsRanked: 4, changed: 4, countA: 1, countB: 1, countC: 2 });
    const classes = await server.app.prisma.inventoryLevel.findMany({ where: { locationId: location.id }, select: { productMasterId: true, abcClass: true } });
    expect(Object.fromEntries(classes.map((l) => [l.productMasterId, l.abcClass]))).toEqual({ [hi!]: 'A', [mid!]: 'B', [low!]: 'C', [idle!]: 'C' });
    expect(await server.app.prisma.stockTransaction.count()).toBe(before);

    const again = await post('/api/inventory/cycle-count/abc', { reclassify: { locationId: location.id } });
    expect(again.body.reclassification.changed).toBe(0);
  });

  it('refuses a foreign or unknown location in the body with 400 naming it, and changes nothing', async () => {
    for (const locationId of [b.warehouse.id, 'nope']) {
      const res = await post('/api/inventory/cycle-count/abc', { aPercent: 60, bPercent: 30, cPercent: 10, reclassify: { locationId } });
      expect(res.status).toBe(400);
      expect(res.body.details['reclassify.locationId']).toBeDefined();
    }
    expect((await get('/api/inventory/cycle-count/abc')).body.config.aPercent).toBe(80);
  });
});

describe('the count schedule (mode all-products)', () => {
  it('answers last and next count dates by class, never counted due today, with counts over every page', async () => {
    const location = await newLocation(a);
    const [p1, p2, p3] = await Promise.all(['SCH-1', 'SCH-2', 'SCH-3'].map((sku) => createProduct(server, a.key, `${sku}-${n++}`)));
    await addStock(server.app, a.org.id, { productMasterId: p1!, locationId: location.id, binCode: 'A-01' }, { ON_HAND: 4 });
    await addStock(server.app, a.org.id, { productMasterId: p1!, locationId: location.id, lotCode: 'L1' }, { ON_HAND: 6 });
    await addStock(server.app, a.org.id, { productMasterId: p2!, locationId: location.id }, { ON_HAND: 3 });
    // p3 has a level and no stock; p1 was counted 10 days ago (A: every 30 days), p2 100 days ago (B: every 90 days).
    await server.app.prisma.inventoryLevel.createMany({
      data: [
        { organizationId: a.org.id, locationId: location.id, productMasterId: p1!, abcClass: 'A', lastCountedAt: daysAgo(10) },
        { organizationId: a.org.id, locationId: location.id, productMasterId: p2!, abcClass: 'B', lastCountedAt: daysAgo(100) },
        { organizationId: a.org.id, locationId: location.id, productMasterId: p3! },
      ],
    });
    const res = await get(`/api/inventory/cycle-count?locationId=${location.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ type: 'all-products', count: 3, overdueCount: 2, pagination: { page: 1, pageSize: 50, total: 3, totalPages: 1 } });
    const rows = res.body.products;
    expect(rows.map((r: any) => r.productMasterId)).toEqual([p2, p3, p1]);
    const byId = Object.fromEntries(rows.map((r: any) => [r.productMasterId, r]));
    expect(byId[p1!]).toMatchObject({ locationId: location.id, abcClass: 'A', currentQty: 10, isOverdue: false, lastCountedDate: daysAgo(10).toISOString().slice(0, 10), nextCountDate: new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10) });
    expect(byId[p2!]).toMatchObject({ abcClass: 'B', currentQty: 3, isOverdue: true, nextCountDate: daysAgo(10).toISOString().slice(0, 10) });
    expect(byId[p3!]).toMatchObject({ abcClass: null, currentQty: 0, isOverdue: true, lastCountedDate: null, nextCountDate: today() });
    expect(Object.keys(byId[p1!]).sort()).toEqual(['abcClass', 'currentQty', 'isOverdue', 'lastCountedDate', 'locationId', 'nextCountDate', 'productMasterId', 'productName', 'sku'].sort());

    const overdue = await get(`/api/inventory/cycle-count?locationId=${location.id}&showOverdueOnly=true&limit=1&page=2`);
    expect(overdue.body).toMatchObject({ count: 2, overdueCount: 2, pagination: { page: 2, pageSize: 1, totalPages: 2 } });
    expect(overdue.body.products.map((r: any) => r.productMasterId)).toEqual([p3]);
    const classA = await get(`/api/inventory/cycle-count?locationId=${location.id}&abcClass=a`);
    expect(classA.body.products.map((r: any) => r.productMasterId)).toEqual([p1]);
    const bin = await server.app.prisma.bin.findFirstOrThrow({ where: { locationId: location.id, code: 'A-01' } });
    expect((await get(`/api/inventory/cycle-count?locationId=${location.id}&binId=${bin.id}`)).body.products.map((r: any) => r.productMasterId)).toEqual([p1]);
    const sku = rows[0].sku as string;
    expect((await get(`/api/inventory/cycle-count?locationId=${location.id}&search=${sku.toLowerCase()}`)).body.count).toBe(1);

    const data = await graphqlData(
      server,
      a.key,
      `query ($l: ID!) { cycleCountProducts(locationId: $l, first: 2) { totalCount overdueCount edges { node { productMasterId product { id } location { id } } } pageInfo { hasNextPage } } }`,
      { l: location.id },
    );
    expect(data.cycleCountProducts.totalCount).toBe(3);
    expect(data.cycleCountProducts.overdueCount).toBe(2);
    expect(data.cycleCountProducts.edges.map((e: any) => e.node.product.id)).toEqual([p2, p3]);
    expect(data.cycleCountProducts.pageInfo.hasNextPage).toBe(true);
  });

  it('refuses a missing locationId naming it, an unknown mode, and foreign filter ids (404)', async () => {
    const missing = await get('/api/inventory/cycle-count');
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatch(/locationId/);
    expect((await get('/api/inventory/cycle-count?mode=all-products')).status).toBe(400);
    const unknownMode = await get(`/api/inventory/cycle-count?locationId=${a.warehouse.id}&mode=everything`);
    expect(unknownMode.status).toBe(400);
    expect(unknownMode.body.details.mode).toBeDefined();
    expect((await get(`/api/inventory/cycle-count?locationId=${a.warehouse.id}&color=red`)).status).toBe(400);
    expect((await get(`/api/inventory/cycle-count?locationId=${b.warehouse.id}`)).status).toBe(404);
    expect((await get(`/api/inventory/cycle-count?locationId=nope`)).status).toBe(404);
    const categoryB = await server.app.prisma.category.create({ data: { organizationId: b.org.id, name: `Cat ${n++}` } });
    expect((await get(`/api/inventory/cycle-count?locationId=${a.warehouse.id}&categoryId=${categoryB.id}`)).status).toBe(404);
  });
});

describe('permissions', () => {
  it('answers 401 without credentials and 403 without inventory.cyclecount on every path', async () => {
    const reader = await a.keyWith(['inventory:read']);
    const paths: [string, string, unknown?][] = [
      ['GET', `/api/inventory/cycle-count?locationId=${a.warehouse.id}`],
      ['GET', '/api/inventory/cycle-count?mode=abc-config'],
      ['GET', '/api/inventory/cycle-count/abc'],
      ['POST', '/api/inventory/cycle-count/abc', { aFrequencyDays: 3 }],
    ];
    for (const [method, path, body] of paths) {
      expect((await server.call(method as 'GET', path, { body })).status, path).toBe(401);
      expect((await server.call(method as 'GET', path, { token: reader, body })).status, path).toBe(403);
    }
    const counter = await a.keyWith(['inventory:write']);
    expect((await get('/api/inventory/cycle-count/abc', counter)).status).toBe(200);
    expect((await get('/api/inventory/cycle-count/abc')).body.config.aFrequencyDays).toBe(30);
  });
});
