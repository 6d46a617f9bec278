import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorContext } from '../../src/context.js';
import { Prisma } from '../../src/generated/prisma/client.js';
import { createLocationFor } from '../../src/services/admin/admin.js';
import { type ColumnSample, productSearch, rarePiece } from '../../src/services/search.js';
import type { Tenant } from '../support/fixtures.js';
import type { TestServer } from '../support/server.js';
import { addStock } from '../support/stock.js';
import { startServerWithTwoTenants } from '../support/two-tenants.js';

// A product search (`search=`) led by the term's rare piece (src/services/search.ts) answers exactly what a plain
// case-insensitive substring match answers: the same rows, in the same order, with the same totals, on every list
// that searches products. The catalog shares a prefix (`LEAD-`) as generated SKUs do, and is analyzed, so that the
// planner's sample marks the prefix's trigrams common and the digits rare: the searches below are led.
let server: TestServer;
let a: Tenant;
let b: Tenant;

const CATALOG = 240;
/** The catalog's numbers: spread like real SKUs' (no two share more than chance lets them). */
const catalogNumber = (i: number) => String(((i + 1) * 104_729) % 999_983).padStart(6, '0');
/** Products besides the catalog, each for a case a lead could get wrong. */
const TRICKY = [
  { sku: 'PCT_1', name: '100% cotton, spare of LEAD-000077' }, // the term in the name only
  { sku: 'OTHER-000077', name: 'Other' }, // the rare piece without the term
  { sku: 'lead-000077-b', name: 'Lowercase twin' }, // the term in another case
  { sku: 'CAFÉ-0001', name: 'Crème brûlée ÉCLAIR' },
  { sku: 'X_Y%Z', name: 'Literal wildcards' },
  { sku: 'XAYBZ', name: 'What X_Y% would match as a pattern' },
  { sku: 'AB', name: 'ab' },
  { sku: 'ZEB-1', name: 'Zebra striped, fits LEAD-000123' },
  { sku: 'LEAD000077', name: 'No hyphen' },
  { sku: 'LEAD-000077', name: 'Lead product 000077' },
  { sku: 'LEAD-000123', name: 'Lead product 000123' },
  // A lead that is rare in the sample but not in the answer: QX7Z is in ten products, LEAD-QX7Z in one.
  { sku: 'LEAD-QX7Z', name: 'Lead product QX7Z' },
  ...Array.from({ length: 9 }, (_, i) => ({ sku: `OTHER-QX7Z-${i}`, name: `Other QX7Z ${i}` })),
];
const TERMS = [
  'LEAD-QX7Z', 'lead-qx7z', 'QX7Z', 'LEAD-000077', 'lead-000077', 'Lead-000077', 'EAD-00007', '000077', '-000077', 'LEAD-000077-B', 'OTHER-000077', 'LEAD000077',
  'LEAD-000123', 'LEAD-0001', 'LEAD-00012', 'LEAD-1047', 'product 10', 'ad product 20', 'LEAD-', 'LEAD', 'LE', 'L', '%', '_', 'X_Y%', '100%', '100% cotton', 'Crème',
  'CRÈME', 'é', 'zebra', 'Lead product 77', 'product 7', 'ZZZ-NOTHING-999999', 'a\\b',
];

const get = async (path: string, tenant = a) => {
  const res = await server.call('GET', path, { token: tenant.key });
  expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body;
};

/** The organization's products whose SKU or name contains `term` without regard to case, newest first: no pattern, no index. */
async function plainMatch(term: string, order: 'newest' | 'sku' = 'newest'): Promise<string[]> {
  const rows = await server.app.prisma.$queryRaw<{ id: string }[]>`
    SELECT id FROM product_masters
    WHERE "organizationId" = ${a.org.id} AND (strpos(lower(sku), lower(${term})) > 0 OR strpos(lower(name), lower(${term})) > 0)
    ORDER BY ${order === 'newest' ? Prisma.sql`id DESC` : Prisma.sql`sku COLLATE "C", id`}`;
  return rows.map((r) => r.id);
}

const stocked = new Set<string>();
let store: { id: string };

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants());
  const db = server.app.prisma;
  await db.productMaster.createMany({
    data: Array.from({ length: CATALOG }, (_, i) => ({ organizationId: a.org.id, sku: `LEAD-${catalogNumber(i)}`, name: `Lead product ${catalogNumber(i)}` })),
  });
  for (const p of TRICKY) await db.productMaster.create({ data: { organizationId: a.org.id, ...p } });
  // Another organization's products with the same SKUs: never in a's answers.
  await db.productMaster.createMany({ data: ['LEAD-000077', 'LEAD-000123', 'X_Y%Z'].map((sku) => ({ organizationId: b.org.id, sku, name: 'Theirs' })) });
  // Stock at the warehouse for the tricky products and every seventh of the catalog.
  const mine = await db.productMaster.findMany({ where: { organizationId: a.org.id }, select: { id: true, sku: true } });
  for (const p of mine) {
    if (p.sku.startsWith('LEAD-') && Number(p.sku.slice(5)) % 7 !== 0 && !p.sku.startsWith('LEAD-000')) continue;
    await addStock(server.app, a.org.id, { productMasterId: p.id, locationId: a.warehouse.id }, { ON_HAND: 3 });
    stocked.add(p.id);
  }
  store = await createLocationFor(server.operator, { organizationId: a.org.id, code: 'ST1', name: 'Store' });
  await db.$executeRawUnsafe('ANALYZE product_masters');
});
afterAll(() => server?.close());

describe('product search led by the rare piece of the term', () => {
  it('leads with the rare piece once the catalog is analyzed (the cases below go through the led path)', async () => {
    const ctx = operatorContext(server.app.prisma, 'test');
    expect(await productSearch(ctx, 'LEAD-000077')).toEqual({ term: 'LEAD-000077', skuLead: '000077', nameLead: '000077' });
    expect(await productSearch(ctx, ' lead-000077-b ')).toMatchObject({ term: 'lead-000077-b', skuLead: '000077' });
    expect(await productSearch(ctx, 'LEAD-QX7Z')).toMatchObject({ skuLead: 'QX7Z' });
    // All common, too short, or not ASCII: the term alone.
    expect(await productSearch(ctx, 'LEAD-')).toEqual({ term: 'LEAD-', skuLead: null, nameLead: null });
    expect(await productSearch(ctx, 'LE')).toEqual({ term: 'LE', skuLead: null, nameLead: null });
    expect(await productSearch(ctx, 'CAFÉ-000077')).toEqual({ term: 'CAFÉ-000077', skuLead: null, nameLead: null });
    expect(await productSearch(ctx, '000077')).toEqual({ term: '000077', skuLead: null, nameLead: null });
    expect(await productSearch(ctx, '  ')).toBeNull();
  });

  it.each(TERMS)('GET /api/products?search=%s answers what a plain substring match does, page and total', async (term) => {
    const expected = await plainMatch(term);
    const q = encodeURIComponent(term);
    const all = await get(`/api/products?search=${q}&limit=100`);
    expect(all.data.map((p: { id: string }) => p.id)).toEqual(expected.slice(0, 100));
    expect(all.meta.total).toBe(expected.length);
    // A page that fills: the total is counted.
    const two = await get(`/api/products?search=${q}&limit=2&page=2`);
    expect(two.data.map((p: { id: string }) => p.id)).toEqual(expected.slice(2, 4));
    expect(two.meta.total).toBe(expected.length);
  });

  it.each(TERMS)('GraphQL products(search: %s) pages through the same products, with the same totalCount', async (term) => {
    const expected = await plainMatch(term);
    const seen: string[] = [];
    let after: string | null = null;
    for (;;) {
      const res = await server.graphql(
        `query ($search: String, $after: String) { products(first: 100, after: $after, search: $search) { totalCount pageInfo { hasNextPage endCursor } edges { node { id } } } }`,
        { search: term, after },
        a.key,
      );
      expect(res.body.errors).toBeUndefined();
      const page = res.body.data.products;
      expect(page.totalCount).toBe(expected.length);
      seen.push(...page.edges.map((e: { node: { id: string } }) => e.node.id));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect(seen).toEqual(expected);
  });

  it.each(TERMS)('the inventory list and the channel-location page with search=%s hold the stocked products of that match', async (term) => {
    const expected = new Set((await plainMatch(term)).filter((id) => stocked.has(id)));
    const q = encodeURIComponent(term);
    const lines = await get(`/api/inventory?locationId=${a.warehouse.id}&q=${q}&limit=100`);
    expect(new Set(lines.items.map((l: { productMasterId: string }) => l.productMasterId))).toEqual(expected);
    expect(lines.pagination.total).toBe(expected.size);
    const page = await get(`/api/inventory/channel-location?locationId=${a.warehouse.id}&search=${q}&limit=100`);
    expect(new Set(page.products.map((p: { productMasterId: string }) => p.productMasterId))).toEqual(expected);
    expect(page.pagination.total).toBe(expected.size);
  });

  it.each(TERMS)('the products a location may ask for with search=%s are the same, by SKU, with the same total', async (term) => {
    const expected = await plainMatch(term, 'sku');
    const page = await get(
      `/api/stock-requests/products/search?requestingLocationId=${a.warehouse.id}&supplyingLocationId=${store.id}&search=${encodeURIComponent(term)}&limit=100`,
    );
    expect(page.products.map((p: { productMasterId: string }) => p.productMasterId)).toEqual(expected.slice(0, 100));
    expect(page.total).toBe(expected.length);
  });

  it('answers another organization its own products only', async () => {
    const theirs = await get('/api/products?search=LEAD-000077', b);
    expect(theirs.data.map((p: { sku: string }) => p.sku)).toEqual(['LEAD-000077']);
    expect(theirs.meta.total).toBe(1);
  });
});

describe('the rare piece of a term', () => {
  // A sample of four values, each standing for a quarter of the rows.
  const sample: ColumnSample = ['sku-100200', 'sku-300400', 'sku-500600', 'sku-700800'].map((value) => ({ value, share: 0.25 }));

  it('is the longest run of trigrams the sample does not show common, without regard to case', () => {
    expect(rarePiece('SKU-123456', sample)).toBe('123456');
    expect(rarePiece('sku-123456', sample)).toBe('123456');
    // 100 and 002 are in the sample: the piece after them.
    expect(rarePiece('SKU-1002777', sample)).toBe('02777');
    expect(rarePiece('xy-sku-123456-zz', sample)).toBe('123456');
  });

  it('is none without a sample, when it would be the whole term, with fewer than two distinct trigrams, or outside printable ASCII', () => {
    expect(rarePiece('SKU-123456', undefined)).toBeNull();
    expect(rarePiece('SKU-123456', [])).toBeNull();
    expect(rarePiece('123456', sample)).toBeNull();
    expect(rarePiece('SKU-777777', sample)).toBeNull();
    expect(rarePiece('SKU-12', sample)).toBeNull();
    expect(rarePiece('SKU', sample)).toBeNull();
    expect(rarePiece('SKÜ-123456', sample)).toBeNull();
    expect(rarePiece('ΣKU-123456', sample)).toBeNull();
  });
});

describe('the statements of a led search', () => {
  it('put the rare piece first in each column’s condition, where the trigram scan starts', async () => {
    server.queries.length = 0;
    await get('/api/products?search=LEAD-000077&limit=1');
    const reads = server.queries.filter((sql) => /ILIKE/.test(sql));
    // The page (Prisma) and its total (SQL): each column's lead, then the term.
    expect(reads).toHaveLength(2);
    for (const sql of reads) {
      expect(sql).toMatch(/sku"? ILIKE .+ AND \S*sku"? ILIKE .+ OR .*name"? ILIKE .+ AND \S*name"? ILIKE /);
    }
  });
});

describe('a lookup by exact SKU (`sku=`, `products(sku:)`, `productBySku`)', () => {
  // SKU → the SKU found, or null: any case, never a substring or a LIKE pattern, never another organization's.
  const CASES: [string, string | null][] = [
    ['LEAD-000077', 'LEAD-000077'],
    ['lead-000077', 'LEAD-000077'],
    [' LEAD-000077 ', 'LEAD-000077'],
    ['LEAD-000077-B', 'lead-000077-b'],
    ['LEAD-00007', null],
    ['X_Y%Z', 'X_Y%Z'],
    ['x_y%z', 'X_Y%Z'],
    ['X_Y%', null],
    ['X_Y_Z', null],
    ['CAFÉ-0001', 'CAFÉ-0001'],
    ['ZZZ-NOTHING-999999', null],
  ];

  it.each(CASES)('GET /api/products?sku=%s finds %s alone, with its total', async (sku, found) => {
    const page = await get(`/api/products?sku=${encodeURIComponent(sku)}`);
    expect(page.data.map((p: { sku: string }) => p.sku)).toEqual(found ? [found] : []);
    expect(page.meta).toEqual({ page: 1, limit: 50, total: found ? 1 : 0, totalPages: found ? 1 : 0 });
  });

  it.each(CASES)('GraphQL productBySku(%s) and products(sku:) find %s', async (sku, found) => {
    const res = await server.graphql(
      `query ($sku: String!) { productBySku(sku: $sku) { sku } products(first: 5, sku: $sku) { totalCount edges { node { sku } } } }`,
      { sku },
      a.key,
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.productBySku?.sku ?? null).toBe(found);
    expect(res.body.data.products).toEqual({ totalCount: found ? 1 : 0, edges: found ? [{ node: { sku: found } }] : [] });
  });

  it('answers another organization its own product, and narrows a search (both apply)', async () => {
    expect((await get('/api/products?sku=LEAD-000077', b)).data.map((p: { name: string }) => p.name)).toEqual(['Theirs']);
    expect((await get('/api/products?sku=lead-000123&search=product')).meta.total).toBe(1);
    expect((await get('/api/products?sku=LEAD-000123&search=000077')).data).toEqual([]);
    const theirs = await server.graphql('query { productBySku(sku: "x_y%z") { name } }', {}, b.key);
    expect(theirs.body.data.productBySku).toEqual({ name: 'Theirs' });
    // Past the only page: no product, the total still 1.
    expect((await get('/api/products?sku=LEAD-000077&page=2')).meta).toMatchObject({ page: 2, total: 1 });
  });

  it('reads the SKU by the unique index on the organization and lower(sku): an equality, never ILIKE, in one statement', async () => {
    await get('/api/products?sku=LEAD-000077');
    server.queries.length = 0;
    await get('/api/products?sku=LEAD-000077');
    expect(server.queries.filter((sql) => /ILIKE/.test(sql))).toEqual([]);
    expect(server.queries.some((sql) => /lower\(sku\) = lower\(\$\d+\)/.test(sql))).toBe(true);
    // The row is its own total: no count after it (the API key is cached by the first request).
    expect(server.queries).toHaveLength(1);
  });
});
