import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocationFor } from '../../../src/services/admin/admin.js';
import { INVALID_QUANTITIES, isCheckViolation } from '../../../src/services/inventory/levels/levels.js';
import type { Tenant } from '../../support/fixtures.js';
import { runWithPermissions } from '../../support/graphql.js';
import type { TestServer } from '../../support/server.js';
import { startServerWithTwoTenants } from '../../support/two-tenants.js';

let server: TestServer;
let a: Tenant;
let b: Tenant;
let productA: string;
let productB: string;
let locationB: string;
let n = 0;

const LEVEL_KEYS = [
  'abcClass', 'comments', 'createdAt', 'expectedLeadTimeDays', 'forecastPeriodDays', 'forecastQuantity', 'id', 'locationId',
  'maxQuantity', 'minQuantity', 'preferredBinLocationId', 'product', 'productMaster', 'productMasterId', 'reorderQuantity',
  'replenishmentLocationId', 'replenishmentPeriodDays', 'status', 'updatedAt',
];

async function newProduct(token: string) {
  const res = await server.call('POST', '/api/products', { token, body: { sku: `LVL-${n++}`, name: `Level product ${n}` } });
  expect(res.status).toBe(201);
  return res.body as { id: string; sku: string; name: string };
}

const newLocation = (organizationId: string) => createLocationFor(server.operator, { organizationId, code: `L${n++}`, name: `Location ${n}` });

const post = (token: string, body: unknown) => server.call('POST', '/api/inventory-levels', { token, body });

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants());
  productA = (await newProduct(a.key)).id;
  productB = (await newProduct(b.key)).id;
  locationB = b.warehouse.id;
});
afterAll(() => server?.close());

describe('POST /api/inventory-levels', () => {
  it('creates a level with every documented field, then updates the same level', async () => {
    const product = await newProduct(a.key);
    const bin = await server.app.prisma.bin.create({ data: { organizationId: a.org.id, locationId: a.warehouse.id, code: 'A-01' } });
    const source = await newLocation(a.org.id);
    const created = await post(a.key, {
      productMasterId: product.id,
      locationId: a.warehouse.id,
      minQuantity: 5,
      reorderQuantity: 10,
      maxQuantity: 50,
      abcClass: 'A',
      expectedLeadTimeDays: 7,
      replenishmentPeriodDays: 14,
      forecastPeriodDays: 30,
      forecastQuantity: 12.5,
      preferredBinLocationId: bin.id,
      replenishmentLocationId: source.id,
      comments: 'fast mover',
    });
    expect(created.status).toBe(200);
    expect(Object.keys(created.body).sort()).toEqual(LEVEL_KEYS);
    expect(created.body).toMatchObject({
      productMasterId: product.id,
      locationId: a.warehouse.id,
      minQuantity: 5,
      reorderQuantity: 10,
      maxQuantity: 50,
      status: 'Supported',
      abcClass: 'A',
      expectedLeadTimeDays: 7,
      replenishmentPeriodDays: 14,
      forecastPeriodDays: 30,
      forecastQuantity: 12.5,
      preferredBinLocationId: bin.id,
      replenishmentLocationId: source.id,
      comments: 'fast mover',
      product: { id: product.id, sku: product.sku, name: product.name },
      productMaster: { id: product.id, globalSku: product.sku, productName: product.name },
    });

    const again = await post(a.key, { productMasterId: product.id, locationId: a.warehouse.id, maxQuantity: 60, status: 'Discontinued', abcClass: null });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: created.body.id, minQuantity: 5, reorderQuantity: 10, maxQuantity: 60, status: 'Discontinued', abcClass: null, comments: 'fast mover' });
    expect(await server.app.prisma.inventoryLevel.count({ where: { productMasterId: product.id } })).toBe(1);
  });

  it('takes the deprecated productId instead of productMasterId', async () => {
    const product = await newProduct(a.key);
    const legacy = await post(a.key, { productId: product.id, locationId: a.warehouse.id, maxQuantity: 3 });
    expect(legacy.status).toBe(200);
    expect(legacy.body).toMatchObject({ productMasterId: product.id, minQuantity: 0, reorderQuantity: 0, maxQuantity: 3 });

    const both = await post(a.key, { productId: product.id, productMasterId: product.id, locationId: a.warehouse.id, reorderQuantity: 2 });
    expect(both.status).toBe(200);
    expect(both.body).toMatchObject({ id: legacy.body.id, reorderQuantity: 2, maxQuantity: 3 });

    const other = await newProduct(a.key);
    const differ = await post(a.key, { productId: other.id, productMasterId: product.id, locationId: a.warehouse.id });
    expect(differ.status).toBe(400);
    expect(differ.body.details.productId).toEqual(['Must equal productMasterId when both are given']);

    const neither = await post(a.key, { locationId: a.warehouse.id });
    expect(neither.status).toBe(400);
    expect(neither.body.details.productMasterId).toBeDefined();
  });

  it('refuses quantities out of order on create and on update (merged with the stored values)', async () => {
    const product = await newProduct(a.key);
    const bad = await post(a.key, { productMasterId: product.id, locationId: a.warehouse.id, minQuantity: 10, reorderQuantity: 5, maxQuantity: 20 });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: INVALID_QUANTITIES, details: { reorderQuantity: ['Must be at least minQuantity (10)'] } });

    // reorder and max default to 0 on creation, so a minimum alone is out of order.
    const minOnly = await post(a.key, { productMasterId: product.id, locationId: a.warehouse.id, minQuantity: 5 });
    expect(minOnly.status).toBe(400);
    expect(minOnly.body.error).toBe(INVALID_QUANTITIES);
    expect(await server.app.prisma.inventoryLevel.count({ where: { productMasterId: product.id } })).toBe(0);

    const ok = await post(a.key, { productMasterId: product.id, locationId: a.warehouse.id, minQuantity: 2, reorderQuantity: 5, maxQuantity: 10 });
    expect(ok.status).toBe(200);
    const lowerMax = await post(a.key, { productMasterId: product.id, locationId: a.warehouse.id, maxQuantity: 4 });
    expect(lowerMax.status).toBe(400);
    expect(lowerMax.body).toMatchObject({ error: INVALID_QUANTITIES, details: { maxQuantity: ['Must be at least reorderQuantity (5)'] } });
    const stored = await server.app.prisma.inventoryLevel.findUniqueOrThrow({ where: { id: ok.body.id } });
    expect([stored.minQuantity, stored.reorderQuantity, stored.maxQuantity]).toEqual([2, 5, 10]);
  });

  it('validates every field with details', async () => {
    const product = await newProduct(a.key);
    const base = { productMasterId: product.id, locationId: a.warehouse.id };
    const cases: [Record<string, unknown>, string][] = [
      [{ minQuantity: -1 }, 'minQuantity'],
      [{ maxQuantity: 1.5 }, 'maxQuantity'],
      [{ reorderQuantity: 'ten' }, 'reorderQuantity'],
      [{ abcClass: 'D' }, 'abcClass'],
      [{ expectedLeadTimeDays: -2 }, 'expectedLeadTimeDays'],
      [{ forecastPeriodDays: 2.5 }, 'forecastPeriodDays'],
      [{ forecastQuantity: -0.5 }, 'forecastQuantity'],
      [{ status: '' }, 'status'],
      [{ unknownField: 1 }, 'unknownField'],
    ];
    for (const [extra, field] of cases) {
      const res = await post(a.key, { ...base, ...extra });
      expect(res.status, field).toBe(400);
      expect(res.body.details?.[field], field).toBeDefined();
    }
    const missingLocation = await post(a.key, { productMasterId: product.id });
    expect(missingLocation.status).toBe(400);
    expect(missingLocation.body.details.locationId).toEqual(['Required']);
  });

  it('accepts only a bin of the level’s location and a replenishment location of the organization', async () => {
    const product = await newProduct(a.key);
    const elsewhere = await newLocation(a.org.id);
    const otherBin = await server.app.prisma.bin.create({ data: { organizationId: a.org.id, locationId: elsewhere.id, code: `B${n++}` } });
    const foreignBin = await server.app.prisma.bin.create({ data: { organizationId: b.org.id, locationId: locationB, code: `B${n++}` } });
    const base = { productMasterId: product.id, locationId: a.warehouse.id };
    for (const binId of [otherBin.id, foreignBin.id, 'no-such-bin']) {
      const res = await post(a.key, { ...base, preferredBinLocationId: binId });
      expect(res.status).toBe(400);
      expect(res.body.details.preferredBinLocationId).toEqual(['Bin not found at this location']);
    }
    for (const locationId of [locationB, 'no-such-location']) {
      const res = await post(a.key, { ...base, replenishmentLocationId: locationId });
      expect(res.status).toBe(400);
      expect(res.body.details.replenishmentLocationId).toEqual(['Location not found']);
    }
    expect(await server.app.prisma.inventoryLevel.count({ where: { productMasterId: product.id } })).toBe(0);
  });

  it('answers 404 for an unknown or foreign product or location', async () => {
    const cases = [
      { productMasterId: 'nope', locationId: a.warehouse.id, message: 'Product not found' },
      { productMasterId: productB, locationId: a.warehouse.id, message: 'Product not found' },
      { productMasterId: productA, locationId: 'nope', message: 'Location not found' },
      { productMasterId: productA, locationId: locationB, message: 'Location not found' },
    ];
    for (const { message, ...body } of cases) {
      const res = await post(a.key, body);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ error: message, code: 'NOT_FOUND' });
    }
    expect(await server.app.prisma.inventoryLevel.count({ where: { OR: [{ productMasterId: productB }, { locationId: locationB }] } })).toBe(0);
  });

  it('needs credentials and inventory.write', async () => {
    const body = { productMasterId: productA, locationId: a.warehouse.id };
    expect((await post('', body)).status).toBe(401);
    const reader = await post(await a.keyWith(['inventory:read']), body);
    expect(reader.status).toBe(403);
    expect(reader.body.code).toBe('INSUFFICIENT_SCOPE');
    const writer = await post(await a.keyWith(['inventory:write']), body);
    expect(writer.status).toBe(200);
  });

  it('many concurrent first writes for one product and location end in one level', async () => {
    const product = await newProduct(a.key);
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => post(a.key, { productMasterId: product.id, locationId: a.warehouse.id, maxQuantity: 100 + i })),
    );
    const responses = results.map((r) => (r.status === 'fulfilled' ? r.value : null));
    expect(responses.map((r) => r?.status)).toEqual(Array(20).fill(200));
    expect(new Set(responses.map((r) => r!.body.id)).size).toBe(1);
    expect(await server.app.prisma.inventoryLevel.count({ where: { productMasterId: product.id } })).toBe(1);
  });
});

describe('PATCH and DELETE /api/inventory-levels/:id', () => {
  async function level(min: number, reorder: number, max: number) {
    const product = await newProduct(a.key);
    const res = await post(a.key, { productMasterId: product.id, locationId: a.warehouse.id, minQuantity: min, reorderQuantity: reorder, maxQuantity: max });
    expect(res.status).toBe(200);
    return res.body;
  }
  const patch = (token: string, id: string, body: unknown) => server.call('PATCH', `/api/inventory-levels/${id}`, { token, body });

  it('changes the given fields and keeps the others', async () => {
    const created = await level(1, 5, 10);
    const res = await patch(a.key, created.id, { reorderQuantity: 6, status: 'Review', abcClass: 'B', comments: 'checked', forecastQuantity: 3 });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(LEVEL_KEYS);
    expect(res.body).toMatchObject({ id: created.id, minQuantity: 1, reorderQuantity: 6, maxQuantity: 10, status: 'Review', abcClass: 'B', comments: 'checked', forecastQuantity: 3 });
    const cleared = await patch(a.key, created.id, { comments: null, abcClass: null });
    expect(cleared.body).toMatchObject({ comments: null, abcClass: null, status: 'Review' });
  });

  it('an empty change ({}) answers the level as it is (200), and 404 only for a level that does not exist', async () => {
    const created = await level(1, 5, 10);
    const res = await patch(a.key, created.id, {});
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(LEVEL_KEYS);
    expect(res.body).toMatchObject({ id: created.id, minQuantity: 1, reorderQuantity: 5, maxQuantity: 10, updatedAt: created.updatedAt });
    const empty = await patch(a.key, created.id, undefined);
    expect(empty.status).toBe(200);
    expect((await patch(b.key, created.id, {})).status).toBe(404);
    expect((await patch(a.key, 'no-such-level', {})).status).toBe(404);
  });

  it('checks the invariant on the merged values', async () => {
    const created = await level(2, 5, 10);
    const res = await patch(a.key, created.id, { minQuantity: 6 });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: INVALID_QUANTITIES, details: { reorderQuantity: ['Must be at least minQuantity (6)'] } });
    const tooLow = await patch(a.key, created.id, { maxQuantity: 4 });
    expect(tooLow.status).toBe(400);
    const together = await patch(a.key, created.id, { minQuantity: 6, reorderQuantity: 8 });
    expect(together.status).toBe(200);
    expect(together.body).toMatchObject({ minQuantity: 6, reorderQuantity: 8, maxQuantity: 10 });
    const nullQuantity = await patch(a.key, created.id, { minQuantity: null });
    expect(nullQuantity.status).toBe(400);
    expect(nullQuantity.body.details.minQuantity).toBeDefined();
  });

  it('concurrent changes that are valid alone but not together never break the invariant or answer 500', async () => {
    const created = await level(0, 10, 20);
    const requests = Array.from({ length: 16 }, (_, i) => patch(a.key, created.id, i % 2 ? { minQuantity: 8 } : { reorderQuantity: 5 }));
    const results = await Promise.allSettled(requests);
    const statuses = results.map((r) => (r.status === 'fulfilled' ? r.value.status : 0));
    expect(statuses.every((s) => s === 200 || s === 400)).toBe(true);
    expect(statuses).toContain(200);
    for (const r of results) if (r.status === 'fulfilled' && r.value.status === 400) expect(r.value.body.error).toBe(INVALID_QUANTITIES);
    const stored = await server.app.prisma.inventoryLevel.findUniqueOrThrow({ where: { id: created.id } });
    expect(stored.minQuantity <= stored.reorderQuantity && stored.reorderQuantity <= stored.maxQuantity).toBe(true);
  });

  it('recognises the database CHECK violation that backs the invariant up', async () => {
    const created = await level(0, 1, 2);
    const error = await server.app.prisma.inventoryLevel.update({ where: { id: created.id }, data: { minQuantity: 5 } }).catch((e: unknown) => e);
    expect(isCheckViolation(error)).toBe(true);
    const other = await server.app.prisma.inventoryLevel.create({ data: { organizationId: a.org.id, productMasterId: created.productMasterId, locationId: a.warehouse.id } }).catch((e: unknown) => e);
    expect(isCheckViolation(other)).toBe(false);
  });

  it('deletes a level once', async () => {
    const created = await level(0, 0, 0);
    const res = await server.call('DELETE', `/api/inventory-levels/${created.id}`, { token: a.key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'Inventory level deleted' });
    expect(await server.app.prisma.inventoryLevel.count({ where: { id: created.id } })).toBe(0);
    const again = await server.call('DELETE', `/api/inventory-levels/${created.id}`, { token: a.key });
    expect(again.status).toBe(404);
    expect((await patch(a.key, created.id, { minQuantity: 0 })).status).toBe(404);
  });

  it('another organization can neither change nor delete a level (404) and it stays as it was', async () => {
    const created = await level(1, 2, 3);
    const changed = await patch(b.key, created.id, { maxQuantity: 99 });
    expect(changed.status).toBe(404);
    expect(changed.body.error).toBe('Inventory level not found');
    const deleted = await server.call('DELETE', `/api/inventory-levels/${created.id}`, { token: b.key });
    expect(deleted.status).toBe(404);
    const stored = await server.app.prisma.inventoryLevel.findUniqueOrThrow({ where: { id: created.id } });
    expect(stored.maxQuantity).toBe(3);
    expect((await patch(a.key, 'no-such-level', { maxQuantity: 1 })).status).toBe(404);
  });

  it('needs inventory.write', async () => {
    const created = await level(0, 0, 1);
    const reader = await a.keyWith(['inventory:read']);
    expect((await patch(reader, created.id, { maxQuantity: 2 })).status).toBe(403);
    expect((await server.call('DELETE', `/api/inventory-levels/${created.id}`, { token: reader })).status).toBe(403);
  });
});

describe('GET /api/products/:id/inventory-levels', () => {
  let product: { id: string; sku: string; name: string };
  const locations: { id: string; code: string; name: string }[] = [];

  beforeAll(async () => {
    product = await newProduct(a.key);
    for (let i = 0; i < 10; i++) locations.push(await newLocation(a.org.id));
  });

  const levelsOf = (token: string, id: string) => server.call('GET', `/api/products/${id}/inventory-levels`, { token });

  it('lists the product’s levels with product, productMaster and location', async () => {
    const empty = await levelsOf(a.key, product.id);
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ data: [] });
    for (const location of locations.slice(0, 2)) {
      expect((await post(a.key, { productMasterId: product.id, locationId: location.id, maxQuantity: 5 })).status).toBe(200);
    }
    const res = await levelsOf(a.key, product.id);
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(2);
    expect(Object.keys(res.body.data[0]).sort()).toEqual([...LEVEL_KEYS, 'location'].sort());
    expect(res.body.data.map((l: { location: unknown }) => l.location)).toEqual(
      locations.slice(0, 2).map(({ id, code, name }) => ({ id, code, name })),
    );
    expect(res.body.data[0]).toMatchObject({ product: { id: product.id, sku: product.sku }, productMaster: { id: product.id, globalSku: product.sku } });
  });

  it('makes the same number of queries for 2 and for 10 levels', async () => {
    const other = await newProduct(a.key);
    for (const location of locations.slice(0, 2)) await post(a.key, { productMasterId: other.id, locationId: location.id });
    for (const location of locations) await post(a.key, { productMasterId: product.id, locationId: location.id });

    server.queries.length = 0;
    const two = await levelsOf(a.key, other.id);
    const twoQueries = server.queries.length;
    server.queries.length = 0;
    const ten = await levelsOf(a.key, product.id);
    const tenQueries = server.queries.length;
    expect(two.body.data).toHaveLength(2);
    expect(ten.body.data).toHaveLength(10);
    expect(tenQueries).toBe(twoQueries);
    expect(tenQueries).toBeLessThanOrEqual(6);
  });

  it('answers 404 for an unknown or foreign product', async () => {
    expect((await levelsOf(a.key, 'nope')).status).toBe(404);
    const foreign = await levelsOf(b.key, product.id);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe('Product not found');
  });

  it('needs products.read and inventory.read', async () => {
    const forecastOnly = await levelsOf(await a.keyWith(['forecast:read']), product.id);
    expect(forecastOnly.status).toBe(403);
    expect(forecastOnly.body.code).toBe('INSUFFICIENT_SCOPE');
    expect((await levelsOf(await a.keyWith(['inventory:read']), product.id)).status).toBe(200);
    const viewer = await a.userWith('VIEWER');
    const signIn = await server.call('POST', '/api/auth/sign-in', { body: { email: viewer.email, password: viewer.password } });
    expect((await levelsOf(signIn.body.token, product.id)).status).toBe(200);

    // No scope or role grants one of the two without the other, so the rule is checked with exact permission sets.
    const query = 'query ($id: ID!) { productInventoryLevels(productId: $id) { id } }';
    const onlyProducts = await runWithPermissions(server.app, a.org, ['products.read'], query, { id: product.id });
    expect(onlyProducts.errors?.[0]?.extensions?.code).toBe('INSUFFICIENT_SCOPE');
    const onlyInventory = await runWithPermissions(server.app, a.org, ['inventory.read'], query, { id: product.id });
    expect(onlyInventory.errors?.[0]?.extensions?.code).toBe('INSUFFICIENT_SCOPE');
    const both = await runWithPermissions(server.app, a.org, ['products.read', 'inventory.read'], query, { id: product.id });
    expect(both.errors).toBeUndefined();
    expect((both.data?.productInventoryLevels as unknown[]).length).toBeGreaterThan(0);
  });
});
