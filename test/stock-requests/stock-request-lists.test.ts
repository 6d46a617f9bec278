import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocationFor } from '../../src/services/admin/admin.js';
import { createProduct } from '../support/api.js';
import type { Tenant } from '../support/fixtures.js';
import { today } from '../support/planning.js';
import type { TestServer } from '../support/server.js';
import { addStock } from '../support/stock.js';
import { startServerWithTwoTenants } from '../support/two-tenants.js';

// The lists and helpers of stock requests over REST: the list's requester and date filters, /by-category,
// /dashboard, /filters, /pending-approvals, /products/search and /products/stocklist, each on real data,
// with who may call it, tenant isolation and refused parameters.
let server: TestServer;
let a: Tenant;
let b: Tenant;
const loc = {} as Record<'CAT' | 'DASH' | 'PEND' | 'LIST' | 'STOCK', string>;
const product = {} as Record<'P1' | 'P2' | 'P3', string>;
let theirProduct: string;
let theirRequest: string;

const call = (path: string, token = a.key) => server.call('GET', path, { token });
const send = (method: string, path: string, body: unknown, token = a.key) => server.call(method, path, { token, body });
const signIn = async (tenant: Tenant, role: 'ADMIN' | 'MANAGER' | 'PLANNER' | 'VIEWER') => {
  const user = await tenant.userWith(role);
  const token = (await server.call('POST', '/api/auth/sign-in', { body: { email: user.email, password: user.password } })).body.token as string;
  return { id: user.id as string, token };
};
const create = async (requestingLocationId: string, lines: [string, number][], extra: Record<string, unknown> = {}, token = a.key, supplyingLocationId = a.warehouse.id) => {
  const res = await send(
    'POST',
    '/api/stock-requests',
    { requestingLocationId, supplyingLocationId, neededBy: '2031-01-01', lines: lines.map(([productMasterId, quantityRequested]) => ({ productMasterId, quantityRequested })), ...extra },
    token,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; requesterId: string };
};
const move = async (id: string, path: string, body: unknown = {}, token = a.key) => {
  const res = await send('POST', `/api/stock-requests/${id}/${path}`, body, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};
const ids = (body: { data: { id: string }[] }) => body.data.map((r) => r.id);

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants());
  for (const code of ['CAT', 'DASH', 'PEND', 'LIST', 'STOCK'] as const) loc[code] = (await createLocationFor(server.operator, { organizationId: a.org.id, code: `W-${code}`, name: `Ward ${code}` })).id;
  const db = server.app.prisma;
  const [drugs, dressings] = await Promise.all(['Drugs', 'Dressings'].map((name) => db.category.create({ data: { organizationId: a.org.id, name } })));
  for (const [tag, category] of [['P1', drugs], ['P2', dressings], ['P3', null]] as const) {
    product[tag] = await createProduct(server, a.key, `SRL-${tag}`, `Lists ${tag}`);
    if (category) await db.productMaster.update({ where: { id: product[tag] }, data: { categoryId: category.id } });
  }
  // The other organization: a product of the same SKU, a category of the same name, requests of its own.
  theirProduct = await createProduct(server, b.key, 'SRL-P1', 'Lists P1');
  const theirCategory = await db.category.create({ data: { organizationId: b.org.id, name: 'Drugs' } });
  await db.productMaster.update({ where: { id: theirProduct }, data: { categoryId: theirCategory.id } });
  const theirWard = await createLocationFor(server.operator, { organizationId: b.org.id, code: 'W-B', name: 'Their ward' });
  theirRequest = (await create(theirWard.id, [[theirProduct, 99]], {}, b.key, b.warehouse.id)).id;
  await move(theirRequest, 'submit', {}, b.key);
});
afterAll(() => server?.close());

describe('static paths and the list', () => {
  it('routes the static paths before /{id}: an id that is not one is still 404', async () => {
    expect((await call('/api/stock-requests/not-a-uuid')).status).toBe(404);
    for (const path of ['by-category', 'dashboard', 'filters', 'pending-approvals']) expect((await call(`/api/stock-requests/${path}`)).status, path).toBe(200);
    expect((await call(`/api/stock-requests/products/search?requestingLocationId=${loc.LIST}&supplyingLocationId=${a.warehouse.id}`)).status).toBe(200);
    expect((await call(`/api/stock-requests/products/stocklist?requestingLocationId=${loc.LIST}`)).status).toBe(200);
  });

  it('filters the list by requester and by the creation day, both ends included', async () => {
    const manager = await signIn(a, 'MANAGER');
    const byKey = await create(loc.LIST, [[product.P1, 1]]);
    const byManager = await create(loc.LIST, [[product.P1, 2]], {}, manager.token);
    const base = `/api/stock-requests?requestingLocationId=${loc.LIST}`;
    expect(ids((await call(`${base}&requesterId=${manager.id}`)).body)).toEqual([byManager.id]);
    expect(ids((await call(`${base}&requesterId=${byKey.requesterId}`)).body)).toEqual([byKey.id]);
    expect((await call(`${base}&requesterId=nobody`)).body.total).toBe(0);
    expect(ids((await call(`${base}&from=${today()}&to=${today()}`)).body)).toEqual([byManager.id, byKey.id]);
    expect((await call(`${base}&to=2020-01-01`)).body.total).toBe(0);
    expect((await call(`${base}&from=2200-01-01`)).body.total).toBe(0);
  });

  it('refuses bad list parameters with 400 naming them', async () => {
    const cases: [string, string][] = [
      ['from=2026-02-30', 'from'],
      ['to=yesterday', 'to'],
      ['from=2026-05-02&to=2026-05-01', 'to'],
      ['from=2000-01-01&to=2030-01-01', 'to'],
      ['requester=x', 'requester'],
    ];
    for (const [query, field] of cases) {
      const res = await call(`/api/stock-requests?${query}`);
      expect(res.status, query).toBe(400);
      expect(Object.keys(res.body.details), query).toContain(field);
    }
  });
});

describe('GET /api/stock-requests/by-category', () => {
  it("sums requested, approved and fulfilled units by the product's category, with the list's filters, never another organization's", async () => {
    const first = await create(loc.CAT, [[product.P1, 10], [product.P2, 4]], { priority: 'HIGH' });
    await create(loc.CAT, [[product.P1, 5], [product.P3, 2]]);
    await move(first.id, 'submit');
    await move(first.id, 'approve', { lines: [{ productMasterId: product.P1, quantityApproved: 8 }] });

    const all = await call(`/api/stock-requests/by-category?requestingLocationId=${loc.CAT}`);
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    expect(all.body.data).toEqual(all.body.categories);
    const row = (name: string | null) => all.body.data.find((r: any) => r.categoryName === name);
    expect(all.body.data.map((r: any) => r.categoryName)).toEqual(['Dressings', 'Drugs', null]);
    expect(row('Drugs')).toMatchObject({ requestCount: 2, lineCount: 2, quantityRequested: 15, quantityApproved: 8, quantityFulfilled: 0 });
    expect(row('Dressings')).toMatchObject({ requestCount: 1, lineCount: 1, quantityRequested: 4, quantityApproved: 4, quantityFulfilled: 0 });
    expect(row(null)).toMatchObject({ categoryId: null, requestCount: 1, quantityRequested: 2, quantityApproved: 0 });

    const approved = await call(`/api/stock-requests/by-category?requestingLocationId=${loc.CAT}&status=approved&priority=high&from=${today()}`);
    expect(approved.body.data.map((r: any) => [r.categoryName, r.quantityRequested, r.quantityApproved])).toEqual([['Dressings', 4, 4], ['Drugs', 10, 8]]);
    expect((await call(`/api/stock-requests/by-category?requestingLocationId=${loc.CAT}&search=SR-999999`)).body.data).toEqual([]);

    // The whole organization: their 99 units of their "Drugs" are never in it.
    const whole = await call('/api/stock-requests/by-category');
    expect(whole.body.data.every((r: any) => r.quantityRequested < 99)).toBe(true);
    const theirs = await call('/api/stock-requests/by-category', b.key);
    expect(theirs.body.data).toEqual([expect.objectContaining({ categoryName: 'Drugs', quantityRequested: 99, requestCount: 1 })]);
  });

  it("answers 404 for another organization's location and 400 naming a bad parameter", async () => {
    expect((await call(`/api/stock-requests/by-category?requestingLocationId=${b.warehouse.id}`)).status).toBe(404);
    expect((await call(`/api/stock-requests/by-category?supplyingLocationId=${b.warehouse.id}`)).status).toBe(404);
    for (const [query, field] of [['status=sent', 'status'], ['to=2026-13-01', 'to'], ['limit=5', 'limit']]) {
      const res = await call(`/api/stock-requests/by-category?${query}`);
      expect(res.status, query).toBe(400);
      expect(Object.keys(res.body.details)).toContain(field);
    }
  });
});

describe('GET /api/stock-requests/dashboard', () => {
  it('counts by status, overdue, and the median approval time; fulfilment time is null until fulfilment is served', async () => {
    const db = server.app.prisma;
    const overdueDraft = await create(loc.DASH, [[product.P1, 1]], { neededBy: '2020-01-01' });
    const submitted = await create(loc.DASH, [[product.P1, 1]]);
    await move(submitted.id, 'submit');
    const hours = [2, 4, 9];
    for (const h of hours) {
      const { id } = await create(loc.DASH, [[product.P1, 1]]);
      await move(id, 'submit');
      await move(id, 'approve');
      const approvedAt = (await db.stockRequest.findUniqueOrThrow({ where: { id } })).approvedAt!;
      await db.stockRequest.update({ where: { id }, data: { submittedAt: new Date(approvedAt.getTime() - h * 3_600_000) } });
    }
    const cancelledLate = await create(loc.DASH, [[product.P1, 1]], { neededBy: '2020-01-01' });
    await move(cancelledLate.id, 'status', { status: 'CANCELLED' });

    const res = await call(`/api/stock-requests/dashboard?locationId=${loc.DASH}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      total: 6,
      byStatus: [
        { status: 'DRAFT', count: 1 },
        { status: 'SUBMITTED', count: 1 },
        { status: 'APPROVED', count: 3 },
        { status: 'REJECTED', count: 0 },
        { status: 'PARTIALLY_FULFILLED', count: 0 },
        { status: 'FULFILLED', count: 0 },
        { status: 'CANCELLED', count: 1 },
      ],
      overdue: 1,
      approvedCount: 3,
      medianApprovalHours: 4,
      fulfilledCount: 0,
      medianFulfilmentHours: null,
    });
    expect(overdueDraft.id).toBeTruthy();

    const before = await call(`/api/stock-requests/dashboard?locationId=${loc.DASH}&to=2020-01-01`);
    expect(before.body).toMatchObject({ total: 0, overdue: 0, medianApprovalHours: null });
    // The other organization sees only its own request.
    const theirs = await call('/api/stock-requests/dashboard', b.key);
    expect(theirs.body).toMatchObject({ total: 1, overdue: 0, approvedCount: 0 });
    expect(theirs.body.byStatus.find((s: any) => s.status === 'SUBMITTED').count).toBe(1);
  });

  it('refuses a foreign location (404) and bad parameters (400 naming them)', async () => {
    expect((await call(`/api/stock-requests/dashboard?locationId=${b.warehouse.id}`)).status).toBe(404);
    for (const [query, field] of [['from=2026-02-30', 'from'], ['from=1990-01-01&to=2026-01-01', 'to'], ['status=draft', 'status']]) {
      const res = await call(`/api/stock-requests/dashboard?${query}`);
      expect(res.status, query).toBe(400);
      expect(Object.keys(res.body.details)).toContain(field);
    }
  });
});

describe('GET /api/stock-requests/filters', () => {
  it("lists every status and priority, and the locations and requesters the organization's requests name", async () => {
    const viewer = await signIn(a, 'VIEWER');
    const res = await call('/api/stock-requests/filters', viewer.token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.statuses).toEqual(['DRAFT', 'SUBMITTED', 'APPROVED', 'REJECTED', 'PARTIALLY_FULFILLED', 'FULFILLED', 'CANCELLED']);
    expect(res.body.priorities).toEqual(['LOW', 'NORMAL', 'HIGH', 'URGENT']);
    const codes = res.body.requestingLocations.map((l: any) => l.code);
    expect(codes).toEqual([...codes].sort());
    expect(codes).toEqual(expect.arrayContaining(['W-CAT', 'W-DASH', 'W-LIST']));
    expect(codes).not.toContain('W-B');
    expect(res.body.supplyingLocations).toEqual([{ id: a.warehouse.id, code: 'WH1', name: 'Main warehouse' }]);
    expect(res.body.requesters).toEqual(expect.arrayContaining([expect.objectContaining({ requesterType: 'API_KEY', name: 'all' })]));
    const theirs = await call('/api/stock-requests/filters', b.key);
    expect(theirs.body.requestingLocations.map((l: any) => l.code)).toEqual(['W-B']);
    expect(theirs.body.requesters).toHaveLength(1);
    expect((await call('/api/stock-requests/filters?status=draft')).status).toBe(400);
  });
});

describe('GET /api/stock-requests/pending-approvals', () => {
  it('answers the SUBMITTED requests the caller may approve: not their own unless a tenant administrator, most urgent first', async () => {
    const [m1, m2, admin, planner] = [await signIn(a, 'MANAGER'), await signIn(a, 'MANAGER'), await signIn(a, 'ADMIN'), await signIn(a, 'PLANNER')];
    const own = await create(loc.PEND, [[product.P1, 1]], { priority: 'LOW' }, m1.token);
    const urgent = await create(loc.PEND, [[product.P1, 1]], { priority: 'URGENT' }, m2.token);
    const normal = await create(loc.PEND, [[product.P1, 1]], {}, m2.token);
    const draft = await create(loc.PEND, [[product.P1, 1]], {}, m2.token);
    for (const r of [own, normal, urgent]) await move(r.id, 'submit', {}, r === own ? m1.token : m2.token);
    const pending = (token: string) => call(`/api/stock-requests/pending-approvals?requestingLocationId=${loc.PEND}`, token);

    const forM1 = await pending(m1.token);
    expect(forM1.status, JSON.stringify(forM1.body)).toBe(200);
    expect(ids(forM1.body)).toEqual([urgent.id, normal.id]);
    expect(forM1.body).toMatchObject({ total: 2, limit: 50, offset: 0 });
    expect(ids((await pending(m2.token)).body)).toEqual([own.id]);
    expect(ids((await pending(admin.token)).body)).toEqual([urgent.id, normal.id, own.id]);
    expect(ids((await pending(a.key)).body)).toEqual([urgent.id, normal.id, own.id]);
    expect(ids((await call(`/api/stock-requests/pending-approvals?requestingLocationId=${loc.PEND}&limit=1&offset=1`, admin.token)).body)).toEqual([normal.id]);
    expect(ids((await pending(admin.token)).body)).not.toContain(draft.id);

    // What the list offers, the approval accepts; the requester is still refused their own.
    expect((await send('POST', `/api/stock-requests/${urgent.id}/approve`, {}, m1.token)).status).toBe(200);
    expect((await send('POST', `/api/stock-requests/${own.id}/approve`, {}, m1.token)).status).toBe(403);
    expect(ids((await pending(m1.token)).body)).toEqual([normal.id]);

    expect((await pending(planner.token)).status).toBe(403);
    expect((await pending(await a.keyWith(['inventory:write']))).status).toBe(403);
    expect(ids((await pending(await a.keyWith(['inventory:*']))).body)).toEqual([normal.id, own.id]);
    // Another organization's requests are never offered, nor its locations accepted.
    expect(ids((await call('/api/stock-requests/pending-approvals?limit=100')).body)).not.toContain(theirRequest);
    expect((await call(`/api/stock-requests/pending-approvals?supplyingLocationId=${b.warehouse.id}`)).status).toBe(404);
    for (const [query, field] of [['limit=101', 'limit'], ['offset=-1', 'offset'], ['status=draft', 'status']]) {
      const res = await call(`/api/stock-requests/pending-approvals?${query}`);
      expect(res.status, query).toBe(400);
      expect(Object.keys(res.body.details)).toContain(field);
    }
  });
});

describe('GET /api/stock-requests/products/search', () => {
  it('finds the products by SKU or name with their stock on hand and available at both locations', async () => {
    await addStock(server.app, a.org.id, { productMasterId: product.P1, locationId: a.warehouse.id }, { ON_HAND: 30, RESERVED: 5 });
    await addStock(server.app, a.org.id, { productMasterId: product.P1, locationId: loc.STOCK }, { ON_HAND: 3 });
    await addStock(server.app, b.org.id, { productMasterId: theirProduct, locationId: b.warehouse.id }, { ON_HAND: 500 });
    const base = `/api/stock-requests/products/search?requestingLocationId=${loc.STOCK}&supplyingLocationId=${a.warehouse.id}`;
    const res = await call(`${base}&search=srl-`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ requestingLocationId: loc.STOCK, supplyingLocationId: a.warehouse.id, total: 3, limit: 20, offset: 0 });
    expect(res.body.data).toEqual(res.body.products);
    expect(res.body.data.map((p: any) => [p.sku, p.supplyingOnHand, p.supplyingAvailable, p.requestingOnHand, p.requestingAvailable])).toEqual([
      ['SRL-P1', 30, 25, 3, 3],
      ['SRL-P2', 0, 0, 0, 0],
      ['SRL-P3', 0, 0, 0, 0],
    ]);
    expect((await call(`${base}&search=LISTS%20P2`)).body.data.map((p: any) => p.productMasterId)).toEqual([product.P2]);
    expect((await call(`${base}&search=%25`)).body.total).toBe(0);
    const page = await call(`${base}&search=SRL&limit=1&offset=1`);
    expect(page.body).toMatchObject({ total: 3, limit: 1, offset: 1 });
    expect(page.body.data.map((p: any) => p.sku)).toEqual(['SRL-P2']);
  });

  it('needs stockrequests.read and products.read, answers 404 for foreign locations and 400 naming bad parameters', async () => {
    const base = `/api/stock-requests/products/search?requestingLocationId=${loc.STOCK}&supplyingLocationId=${a.warehouse.id}`;
    expect((await call(base, await a.keyWith(['inventory:read']))).status).toBe(200);
    const refused = await call(base, await a.keyWith(['forecast:read']));
    expect(refused.status).toBe(403);
    expect((await call(`/api/stock-requests/products/search?requestingLocationId=${loc.STOCK}&supplyingLocationId=${b.warehouse.id}`)).status).toBe(404);
    expect((await call(`/api/stock-requests/products/search?requestingLocationId=${b.warehouse.id}&supplyingLocationId=${a.warehouse.id}`)).status).toBe(404);
    const missing = await call(`/api/stock-requests/products/search?supplyingLocationId=${a.warehouse.id}`);
    expect(missing.status).toBe(400);
    expect(missing.body.error).toContain('requestingLocationId is required');
    for (const [query, field] of [['limit=101', 'limit'], [`search=${'x'.repeat(201)}`, 'search'], ['q=x', 'q']]) {
      const res = await call(`${base}&${query}`);
      expect(res.status, query).toBe(400);
      expect(Object.keys(res.body.details)).toContain(field);
    }
  });
});

describe('GET /api/stock-requests/products/stocklist', () => {
  it("lists the products with a level at the location, their stock, and the projection's suggested quantity up to the maximum", async () => {
    const db = server.app.prisma;
    const ward = (await createLocationFor(server.operator, { organizationId: a.org.id, code: 'W-USUAL', name: 'Usual ward' })).id;
    await db.inventoryLevel.create({ data: { organizationId: a.org.id, productMasterId: product.P1, locationId: ward, reorderQuantity: 10, maxQuantity: 50 } });
    await db.inventoryLevel.create({ data: { organizationId: a.org.id, productMasterId: product.P2, locationId: ward, reorderQuantity: 2, maxQuantity: 8 } });
    await addStock(server.app, a.org.id, { productMasterId: product.P1, locationId: ward }, { ON_HAND: 3 });
    await addStock(server.app, a.org.id, { productMasterId: product.P2, locationId: ward }, { ON_HAND: 6 });

    const res = await call(`/api/stock-requests/products/stocklist?requestingLocationId=${ward}&supplyingLocationId=${a.warehouse.id}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ requestingLocationId: ward, supplyingLocationId: a.warehouse.id, total: 2, limit: 100, offset: 0 });
    const [p1, p2] = res.body.data;
    // No demand: the projection stays at 3, below the reorder point today; 47 more bring it to the maximum.
    expect(p1).toMatchObject({ sku: 'SRL-P1', reorderQuantity: 10, maxQuantity: 50, requestingOnHand: 3, requestingAvailable: 3, supplyingOnHand: 30, supplyingAvailable: 25, suggestedQuantity: 47 });
    expect(['ORDER', 'MOVE']).toContain(p1.action);
    expect(p1.reason).toContain('47 units');
    expect(p2).toMatchObject({ sku: 'SRL-P2', requestingOnHand: 6, suggestedQuantity: 0, action: null, needBy: null, reason: null });
    // The planning recommendations of the location say the same.
    const planning = await call(`/api/planning/recommendations?locationId=${ward}`);
    expect(planning.body.data?.[0] ?? planning.body[0]).toMatchObject({ productMasterId: product.P1, quantity: 47 });

    const bare = await call(`/api/stock-requests/products/stocklist?requestingLocationId=${ward}&limit=1&offset=1`);
    expect(bare.body).toMatchObject({ supplyingLocationId: null, total: 2 });
    expect(bare.body.data).toEqual([expect.objectContaining({ sku: 'SRL-P2', supplyingOnHand: null, supplyingAvailable: null })]);
    expect((await call(`/api/stock-requests/products/stocklist?requestingLocationId=${loc.PEND}`)).body).toMatchObject({ total: 0, data: [] });
  });

  it('answers 404 for foreign locations and 400 naming bad parameters', async () => {
    expect((await call(`/api/stock-requests/products/stocklist?requestingLocationId=${b.warehouse.id}`)).status).toBe(404);
    expect((await call(`/api/stock-requests/products/stocklist?requestingLocationId=${loc.STOCK}&supplyingLocationId=${b.warehouse.id}`)).status).toBe(404);
    expect((await call('/api/stock-requests/products/stocklist', b.key)).status).toBe(400);
    for (const [query, field] of [['limit=201', 'limit'], ['offset=x', 'offset'], ['search=x', 'search']]) {
      const res = await call(`/api/stock-requests/products/stocklist?requestingLocationId=${loc.STOCK}&${query}`);
      expect(res.status, query).toBe(400);
      expect(Object.keys(res.body.details)).toContain(field);
    }
  });
});
