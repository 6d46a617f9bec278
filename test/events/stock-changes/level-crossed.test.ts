import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tenant } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';
import { startServerWithTwoTenants } from '../../support/two-tenants.js';
import { addStock } from '../../support/stock.js';

// stock.level_crossed (docs/events.md): written by the ledger's statements, in their transaction, when a product's
// available units at a location cross a threshold of its inventory level.
let server: TestServer;
let a: Tenant;
let b: Tenant;
let n = 0;

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants());
});
afterAll(() => server?.close());

const call = (method: string, path: string, body: unknown, tenant = a) => server.call(method, path, { token: tenant.key, body });

/** A product with one line of `onHand` units at the tenant's warehouse and a level min 10, reorder 20, max 50. */
async function leveled(onHand: number, tenant = a, level = { minQuantity: 10, reorderQuantity: 20, maxQuantity: 50 }) {
  const sku = `LX-${++n}`;
  const product = (await call('POST', '/api/products', { sku, name: sku }, tenant)).body.id as string;
  const line = await addStock(server.app, tenant.org.id, { productMasterId: product, locationId: tenant.warehouse.id }, { ON_HAND: onHand });
  const set = await call('POST', '/api/inventory-levels', { productMasterId: product, locationId: tenant.warehouse.id, ...level }, tenant);
  expect(set.status, JSON.stringify(set.body)).toBe(200);
  return { product, line: line.id, level: set.body.id as string };
}

const adjust = async (line: string, delta: number, tenant = a) => {
  const res = await call('POST', '/api/inventory/adjust', { inventoryItemId: line, delta, reasonCodeId: 'COUNT_CORRECTION' }, tenant);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};

const crossings = async (product: string) =>
  (await server.app.prisma.domainEvent.findMany({ where: { type: 'stock.level_crossed', productId: product }, orderBy: { id: 'asc' } })).map((e) => {
    const p = e.payload as any;
    return [p.level, p.direction, p.availableBefore, p.availableAfter];
  });

describe('stock.level_crossed', () => {
  it('is written when available falls below the reorder point and the minimum, and when it is back, with the level and both sides', async () => {
    const { product, line, level } = await leveled(25);
    await adjust(line, -3); // 22: above the reorder point still
    expect(await crossings(product)).toEqual([]);
    await adjust(line, -4); // 18: below the reorder point
    await adjust(line, -10); // 8: below the minimum
    await adjust(line, 30); // 38: back above both at once
    expect(await crossings(product)).toEqual([
      ['REORDER_POINT', 'DOWN', 22, 18],
      ['MIN', 'DOWN', 18, 8],
      ['MIN', 'UP', 8, 38],
      ['REORDER_POINT', 'UP', 8, 38],
    ]);
    const [event] = await server.app.prisma.domainEvent.findMany({ where: { type: 'stock.level_crossed', productId: product }, take: 1 });
    expect(event).toMatchObject({ organizationId: a.org.id, locationId: a.warehouse.id, subjectId: level });
    expect(event!.payload).toMatchObject({ inventoryLevelId: level, productId: product, locationId: a.warehouse.id, threshold: 20 });
    // In the change's own transaction, beside its stock.changed event.
    const changed = await server.app.prisma.domainEvent.findFirst({ where: { type: 'stock.changed', txid: event!.txid } });
    expect(changed?.productId).toBe(product);
  });

  it('counts what is available, not what is on hand: a reservation or a hold crosses too; the maximum crosses up and back down', async () => {
    const { product, line } = await leveled(45);
    await addStock(server.app, a.org.id, { productMasterId: product, locationId: a.warehouse.id }, { RESERVED: 30 }, 'RESERVATION');
    await adjust(line, 20); // available 15 -> 35
    await adjust(line, 20); // 35 -> 55: above the maximum
    await adjust(line, -10); // 55 -> 45: back at or below it
    expect(await crossings(product)).toEqual([
      ['REORDER_POINT', 'DOWN', 45, 15],
      ['REORDER_POINT', 'UP', 15, 35],
      ['MAX', 'UP', 35, 55],
      ['MAX', 'DOWN', 55, 45],
    ]);
  });

  it('is not written without a level, for thresholds of 0, for a refused change, or into another organization', async () => {
    const sku = `LX-${++n}`;
    const bare = (await call('POST', '/api/products', { sku, name: sku })).body.id as string;
    const bareLine = await addStock(server.app, a.org.id, { productMasterId: bare, locationId: a.warehouse.id }, { ON_HAND: 5 });
    await adjust(bareLine.id, -4);
    expect(await crossings(bare)).toEqual([]);
    const zero = await leveled(5, a, { minQuantity: 0, reorderQuantity: 0, maxQuantity: 0 });
    await adjust(zero.line, -5);
    expect(await crossings(zero.product)).toEqual([]);
    const { product, line } = await leveled(12);
    const refused = await call('POST', '/api/inventory/adjust', { inventoryItemId: line, delta: -13, reasonCodeId: 'COUNT_CORRECTION' });
    expect(refused.status).toBe(400);
    expect(await crossings(product)).toEqual([]);
    const theirs = await leveled(12, b);
    await adjust(theirs.line, -5, b);
    const events = await server.app.prisma.domainEvent.findMany({ where: { type: 'stock.level_crossed', productId: theirs.product } });
    expect(events.map((e) => e.organizationId)).toEqual([b.org.id]);
  });

  it('leaves units of an expired lot out on both sides', async () => {
    const { product, line } = await leveled(30);
    await addStock(server.app, a.org.id, { productMasterId: product, locationId: a.warehouse.id, lotCode: 'OLD', expiryDate: '2020-01-01' }, { ON_HAND: 100 });
    await adjust(line, -15); // usable 30 -> 15: below the reorder point, whatever the expired lot holds
    expect(await crossings(product)).toEqual([['REORDER_POINT', 'DOWN', 30, 15]]);
  });
});
