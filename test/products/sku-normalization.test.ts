import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct } from '../support/api.js';
import type { Tenant } from '../support/fixtures.js';
import { importRows } from '../support/import.js';
import type { TestServer } from '../support/server.js';
import { startServerWithTwoTenants } from '../support/two-tenants.js';

// A SKU is trimmed NFC text without control or invisible characters, unique per organization whatever its case.
let server: TestServer;
let a: Tenant;
let b: Tenant;

const TAKEN = ['A product with this SKU already exists (SKUs are compared without regard to case)'];
const INVISIBLE = ['Must not contain control or invisible characters (such as a zero-width space)'];

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants({ IMPORT_WORKERS: '1', IMPORT_POLL_MS: '20' }));
});
afterAll(() => server?.close());

const create = (sku: string, token = a.key) => server.call('POST', '/api/products', { token, body: { sku, name: `Product ${sku}` } });

async function healthy() {
  expect((await fetch(`${server.url}/health`, { signal: AbortSignal.timeout(5000) })).status).toBe(200);
}

describe('creating and renaming products', () => {
  it('a SKU differing only by case is the same SKU: 400 on sku', async () => {
    await createProduct(server, a.key, 'Case-1');
    for (const sku of ['case-1', 'CASE-1', ' Case-1 ']) {
      const res = await create(sku);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Validation failed', code: 'VALIDATION_ERROR', details: { sku: TAKEN } });
    }
    // Another organization has its own SKUs.
    expect((await create('case-1', b.key)).status).toBe(201);
    await healthy();
  });

  it('zero-width, BOM, soft hyphen and control characters are refused', async () => {
    for (const sku of ['ZW\u200b1', 'B\ufeffOM', 'SOFT\u00adHY', 'TAB\t1', 'JOIN\u200d1', 'DIR\u202e1']) {
      const res = await create(sku);
      expect(res.status).toBe(400);
      expect(res.body.details).toEqual({ sku: INVISIBLE });
    }
    await healthy();
  });

  it('composed and decomposed accents are one SKU (stored NFC)', async () => {
    const composed = await create('CAF\u00c9-1');
    expect(composed.status).toBe(201);
    expect(composed.body.sku).toBe('CAF\u00c9-1');
    const decomposed = await create('CAFE\u0301-1');
    expect(decomposed.status).toBe(400);
    expect(decomposed.body.details).toEqual({ sku: TAKEN });
  });

  it('renaming to another product\'s SKU in another case is refused; to its own SKU in another case is allowed', async () => {
    const first = await createProduct(server, a.key, 'REN-A');
    const second = await createProduct(server, a.key, 'REN-B');
    const clash = await server.call('PATCH', `/api/products/${second}`, { token: a.key, body: { sku: 'ren-a' } });
    expect(clash.status).toBe(400);
    expect(clash.body.details).toEqual({ sku: TAKEN });
    const own = await server.call('PATCH', `/api/products/${first}`, { token: a.key, body: { sku: 'ren-a' } });
    expect(own.status).toBe(200);
    expect(own.body.sku).toBe('ren-a');
  });
});

describe('catalog import', () => {
  it('a row spelling an existing SKU in another case is rejected; the same spelling updates', async () => {
    await createProduct(server, a.key, 'IMP-Case');
    const job = await importRows(server, a.key, 'catalog', [{ externalId: 'OTHER' }, { externalId: 'imp-case', name: 'Other case' }, { externalId: 'IMP\u200bZW' }]);
    expect(job.errors).toEqual([
      { row: 2, field: 'externalId', message: `${TAKEN[0]}: IMP-Case` },
      { row: 3, field: 'externalId', message: INVISIBLE[0] },
    ]);
    expect((await importRows(server, a.key, 'catalog', [{ externalId: 'IMP-Case', name: 'Same spelling' }])).rejectedRows).toBe(0);
    const products = await server.app.prisma.productMaster.findMany({ where: { organizationId: a.org.id, sku: { startsWith: 'IMP', mode: 'insensitive' } } });
    expect(products.map((p) => [p.sku, p.name])).toEqual([['IMP-Case', 'Same spelling']]);
  });

  it('a row in another case is rejected whether or not it names a category, and creates none', async () => {
    await createProduct(server, a.key, 'CAT-Case');
    await createProduct(server, a.key, 'Bare-Case');
    // A category that exists: the upsert itself finds the rows in another case.
    expect((await importRows(server, a.key, 'catalog', [{ externalId: 'CAT-KNOWN', category: 'Known' }])).rejectedRows).toBe(0);
    const known = await importRows(server, a.key, 'catalog', [
      { externalId: 'cat-case', name: 'Other case', category: 'Known' },
      { externalId: 'bare-case' }, // no name: the upsert that keeps names
      { externalId: 'CAT-KNOWN-2', category: 'Known' },
    ]);
    expect(known.errors).toEqual([
      { row: 1, field: 'externalId', message: `${TAKEN[0]}: CAT-Case` },
      { row: 2, field: 'externalId', message: `${TAKEN[0]}: Bare-Case` },
    ]);
    // A new category: named only by a refused row, it is not created; named by a written row, it is.
    const fresh = await importRows(server, a.key, 'catalog', [
      { externalId: 'CAT-CASE', category: 'Only refused' },
      { externalId: 'CAT-NEW', category: 'Written' },
    ]);
    expect(fresh.errors).toEqual([{ row: 1, field: 'externalId', message: `${TAKEN[0]}: CAT-Case` }]);
    const categories = await server.app.prisma.category.findMany({ where: { organizationId: a.org.id, name: { in: ['Known', 'Only refused', 'Written'] } } });
    expect(categories.map((c) => c.name).sort()).toEqual(['Known', 'Written']);
    const products = await server.app.prisma.productMaster.findMany({
      where: { organizationId: a.org.id, sku: { in: ['CAT-Case', 'Bare-Case', 'CAT-KNOWN-2', 'CAT-NEW'] } },
      include: { category: true },
    });
    expect(new Map(products.map((p) => [p.sku, [p.name, p.category?.name ?? null]]))).toEqual(
      new Map([
        ['CAT-Case', ['Product CAT-Case', null]],
        ['Bare-Case', ['Product Bare-Case', null]],
        ['CAT-KNOWN-2', ['CAT-KNOWN-2', 'Known']],
        ['CAT-NEW', ['CAT-NEW', 'Written']],
      ]),
    );
  });

  it('two spellings of a new SKU in one request make one product, spelled by the last row', async () => {
    const job = await importRows(server, a.key, 'catalog', [{ externalId: 'new-sku', name: 'first' }, { externalId: 'NEW-SKU', name: 'last' }]);
    expect(job.rejectedRows).toBe(0);
    const products = await server.app.prisma.productMaster.findMany({ where: { organizationId: a.org.id, sku: { equals: 'new-sku', mode: 'insensitive' } } });
    expect(products.map((p) => [p.sku, p.name])).toEqual([['NEW-SKU', 'last']]);
  });

  it('an inventory row finds a product by its SKU in another Unicode form', async () => {
    await createProduct(server, a.key, 'N\u00c9-STOCK');
    const job = await importRows(server, a.key, 'inventory', [{ sku: 'NE\u0301-STOCK', locationCode: 'WH1', onHand: 4 }]);
    expect(job.rejectedRows).toBe(0);
    const line = await server.app.prisma.stockLine.findFirstOrThrow({ where: { organizationId: a.org.id, productMaster: { sku: 'N\u00c9-STOCK' } } });
    expect(line.qtyOnHand).toBe(4);
  });
});
