import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemContext } from '../../src/context.js';
import { categoriesByIds, channelsByIds, locationsByIds, productsByIds } from '../../src/services/master-data/records-by-id.js';
import { binsByIds, lotsByIds, stockLinesByIds } from '../../src/services/inventory/records-by-id.js';
import type { Tenant } from '../support/fixtures.js';
import type { TestServer } from '../support/server.js';
import { addStock } from '../support/stock.js';
import { startServerWithTwoTenants } from '../support/two-tenants.js';

// The loaders behind every link field read by one direct statement on PostgreSQL (src/services/rows-by-ids.ts): each must
// give what Prisma's findMany of the model gives, field for field and type for type, and only the caller's rows.
let server: TestServer;
let a: Tenant;
let b: Tenant;
const ids: Record<string, { ours: string[]; theirs: string[] }> = {};

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants());
  const prisma = server.app.prisma;
  const made = async (tenant: Tenant, n: number) => {
    const category = await prisma.category.create({ data: { organizationId: tenant.org.id, name: `Cat ${n}` } });
    const channel = await prisma.channel.create({ data: { organizationId: tenant.org.id, name: `Web ${n}`, type: 'ONLINE' } });
    const product = await prisma.productMaster.create({
      data: { organizationId: tenant.org.id, sku: `RBI-${n}`, name: `Ids ${n}`, description: 'ü ∑', categoryId: category.id, unitCost: '12.3456', minShelfLifeDays: 7 },
    });
    const bare = await prisma.productMaster.create({ data: { organizationId: tenant.org.id, sku: `RBI-${n}-BARE`, name: 'No cost' } });
    const lined = await addStock(server.app, tenant.org.id, { productMasterId: product.id, locationId: tenant.warehouse.id, lotCode: `L${n}`, expiryDate: '2031-05-06', binCode: `B${n}` }, { ON_HAND: 9, RESERVED: 2 });
    const undated = await addStock(server.app, tenant.org.id, { productMasterId: bare.id, locationId: tenant.warehouse.id, lotCode: `U${n}` }, { ON_HAND: 1 });
    const lines = await prisma.stockLine.findMany({ where: { id: { in: [lined.id, undated.id] } } });
    return {
      product: [product.id, bare.id],
      location: [tenant.warehouse.id],
      category: [category.id],
      channel: [channel.id],
      bin: lines.flatMap((line) => (line.binId ? [line.binId] : [])),
      lot: lines.flatMap((line) => (line.lotId ? [line.lotId] : [])),
      stockLine: lines.map((line) => line.id),
    };
  };
  const [ours, theirs] = [await made(a, 1), await made(b, 2)];
  for (const kind of Object.keys(ours) as (keyof typeof ours)[]) ids[kind] = { ours: ours[kind], theirs: theirs[kind] };
});
afterAll(() => server?.close());

describe('records by id for link fields', () => {
  const cases = {
    product: [productsByIds, 'productMaster'],
    location: [locationsByIds, 'location'],
    category: [categoriesByIds, 'category'],
    channel: [channelsByIds, 'channel'],
    bin: [binsByIds, 'bin'],
    lot: [lotsByIds, 'lot'],
    stockLine: [stockLinesByIds, 'stockLine'],
  } as const;
  for (const [kind, [load, model]] of Object.entries(cases)) {
    it(`read ${kind}s as findMany reads them, and none of another organization`, async () => {
      const ctx = systemContext(server.app, { organization: a.org, actor: { type: 'apiKey', id: 'test' }, origin: 'test' });
      const wanted = [...ids[kind]!.ours, ...ids[kind]!.theirs, 'no-such-id'];
      const byId = <T extends { id: string }>(rows: T[]) => [...rows].sort((x, y) => x.id.localeCompare(y.id));
      const read = byId(await (load as (c: typeof ctx, i: string[]) => Promise<{ id: string }[]>)(ctx, wanted));
      const delegate = server.app.prisma[model] as unknown as { findMany(args: object): Promise<{ id: string }[]> };
      const expected = byId(await delegate.findMany({ where: { organizationId: a.org.id, id: { in: wanted } } }));
      expect(read.map((row) => row.id)).toEqual(ids[kind]!.ours.slice().sort());
      expect(read).toEqual(expected);
      for (const [i, row] of read.entries()) {
        for (const [field, value] of Object.entries(expected[i]!)) {
          expect(Object.prototype.toString.call((row as Record<string, unknown>)[field]), `${kind}.${field}`).toBe(Object.prototype.toString.call(value));
        }
        expect(Object.keys(row).sort()).toEqual(Object.keys(expected[i]!).sort());
      }
    });
  }
});
