import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocationFor } from '../../src/services/admin/admin.js';
import { graphqlData, graphqlError } from '../support/api.js';
import type { Tenant } from '../support/fixtures.js';
import { runWithPermissions } from '../support/graphql.js';
import type { TestServer } from '../support/server.js';
import { addStock } from '../support/stock.js';
import { countStatements } from '../support/statement-count.js';
import { startServerWithTwoTenants } from '../support/two-tenants.js';

// Product.stock: a product list with its stock by location, lot and bin in one request.
let server: TestServer;
let a: Tenant;
let b: Tenant;
let store: { id: string };
let theirLocation: { id: string };
const products: { id: string; sku: string }[] = [];
// A cached key lookup that expires between two counted requests would add a query to one of them.
const EVERY_REQUEST_LOOKS_UP_ITS_KEY = { API_KEY_CACHE_SECONDS: '0' };

const PAGE = `query ($first: Int, $search: String, $locationId: ID) {
  products(first: $first, search: $search) { edges { node { id sku
    stock(first: 10, locationId: $locationId) { totalCount edges { node {
      id qtyOnHand qtyReserved qtyAvailable expiryDate lot { code expiryDate } bin { code } location { code } product { sku } } } } } } } }`;

type Page = { products: { edges: { node: { id: string; sku: string; stock: { totalCount: number; edges: { node: any }[] } } }[] } };

const counted = async (run: () => Promise<Page>) => {
  const { statements, result } = await countStatements(server, run);
  return { queries: statements, data: result };
};

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants(EVERY_REQUEST_LOOKS_UP_ITS_KEY));
  store = await createLocationFor(server.operator, { organizationId: a.org.id, code: 'ST1', name: 'Store' });
  theirLocation = b.warehouse;
  for (let i = 0; i < 50; i++) {
    const sku = `PS-${String(i).padStart(2, '0')}`;
    const product = await server.app.prisma.productMaster.create({ data: { organizationId: a.org.id, sku, name: `Stocked ${i}` } });
    products.push({ id: product.id, sku });
    // Every product: a plain line at the warehouse, and a lot in a bin at the store.
    await addStock(server.app, a.org.id, { productMasterId: product.id, locationId: a.warehouse.id }, { ON_HAND: 10 + i, RESERVED: 2 });
    await addStock(server.app, a.org.id, { productMasterId: product.id, locationId: store.id, lotCode: `L${i}`, expiryDate: '2031-05-06', binCode: `B${i}` }, { ON_HAND: 5, ON_HOLD: 1 });
  }
  // Another organization's stock at its own location, with the same SKUs.
  for (let i = 0; i < 2; i++) {
    const product = await server.app.prisma.productMaster.create({ data: { organizationId: b.org.id, sku: `PS-${i}`, name: `Theirs ${i}` } });
    await addStock(server.app, b.org.id, { productMasterId: product.id, locationId: theirLocation.id }, { ON_HAND: 999 });
  }
});
afterAll(() => server?.close());

describe('Product.stock', () => {
  it('lists each product’s stock by location, lot and bin with availability', async () => {
    const { products: page } = (await graphqlData(server, a.key, PAGE, { first: 50, search: 'PS-' })) as Page;
    expect(page.edges).toHaveLength(50);
    for (const { node } of page.edges) {
      const i = Number(node.sku.slice(3));
      expect(node.stock.totalCount).toBe(2);
      expect(node.stock.edges.map((e) => e.node)).toEqual([
        expect.objectContaining({ qtyOnHand: 10 + i, qtyReserved: 2, qtyAvailable: 8 + i, expiryDate: null, lot: null, bin: null, location: { code: 'WH1' }, product: { sku: node.sku } }),
        expect.objectContaining({ qtyOnHand: 5, qtyReserved: 0, qtyAvailable: 4, expiryDate: '2031-05-06', lot: { code: `L${i}`, expiryDate: '2031-05-06' }, bin: { code: `B${i}` }, location: { code: 'ST1' } }),
      ]);
    }
  });

  it('a page of 50 products with stock makes as many SQL queries as a page of 2', async () => {
    const two = await counted(() => graphqlData(server, a.key, PAGE, { first: 2, search: 'PS-' }));
    const fifty = await counted(() => graphqlData(server, a.key, PAGE, { first: 50, search: 'PS-' }));
    expect(two.data.products.edges).toHaveLength(2);
    expect(fifty.data.products.edges).toHaveLength(50);
    expect(fifty.data.products.edges.every(({ node }) => node.stock.edges.length === 2)).toBe(true);
    expect(fifty.queries).toBe(two.queries);
    // products, their stock lines with counts, then one each for locations, products, lots and bins (the key lookup is not counted)
    expect(fifty.queries).toBeLessThanOrEqual(8);
  });

  it('a page of 50 products with each stock entry\'s location and product makes as many SQL queries as a page of 5', async () => {
    const five = await counted(() => graphqlData(server, a.key, PAGE, { first: 5, search: 'PS-' }));
    const fifty = await counted(() => graphqlData(server, a.key, PAGE, { first: 50, search: 'PS-' }));
    expect(five.data.products.edges).toHaveLength(5);
    expect(fifty.data.products.edges).toHaveLength(50);
    expect(fifty.data.products.edges.every(({ node }) => node.stock.edges.every((e) => e.node.location.code && e.node.product.sku === node.sku))).toBe(true);
    expect(fifty.queries).toBe(five.queries);
  });

  it('counts each product\'s lines over all pages, reading the lines of the page\'s products only', async () => {
    const query = `query ($locationId: ID) { products(first: 3, search: "PS-") { edges { node { sku
      all: stock(first: 1) { totalCount edges { node { id } } } here: stock(first: 1, locationId: $locationId) { totalCount } } } } }`;
    const { statements, sql, result } = await countStatements(server, () => graphqlData(server, a.key, query, { locationId: store.id }));
    const page = result as { products: { edges: { node: { all: { totalCount: number; edges: unknown[] }; here: { totalCount: number } } }[] } };
    expect(page.products.edges.map(({ node }) => [node.all.totalCount, node.all.edges.length, node.here.totalCount])).toEqual([
      [2, 1, 1],
      [2, 1, 1],
      [2, 1, 1],
    ]);
    // Every read of stock lines is narrowed to the page's products (by a list of their keys, or each key of
    // that list in a lateral subquery that reads a page of lines): none groups the organization's lines.
    const lineReads = sql.filter((statement) => /FROM ("public"\.)?"?stock_lines"?/.test(statement));
    expect(lineReads.length).toBeGreaterThanOrEqual(2);
    const narrowed = (statement: string) => /"productMasterId" IN \(/.test(statement) || (/unnest\(/.test(statement) && /"productMasterId" = (p\.id|parent\.parent_id)/.test(statement));
    expect(lineReads.filter((statement) => !narrowed(statement))).toEqual([]);
    // And the lines themselves are read a page per product, not all of them.
    const pages = lineReads.filter((statement) => !/COUNT\(/i.test(statement));
    expect(pages.length).toBeGreaterThan(0);
    expect(pages.filter((statement) => !/LIMIT/.test(statement))).toEqual([]);
    expect(statements).toBeLessThanOrEqual(6);
  });

  it('reads no page of lines when only the totals are asked for, and still refuses a bad cursor', async () => {
    const query = `{ products(first: 3, search: "PS-") { edges { node { sku stock(first: 10) { __typename totalCount } } } } }`;
    const { sql, result } = await countStatements(server, () => graphqlData(server, a.key, query));
    const page = result as { products: { edges: { node: { stock: { totalCount: number } } }[] } };
    expect(page.products.edges.map(({ node }) => node.stock.totalCount)).toEqual([2, 2, 2]);
    const lineReads = sql.filter((statement) => /FROM ("public"\.)?"?stock_lines"?/.test(statement));
    expect(lineReads.filter((statement) => !/COUNT\(/i.test(statement))).toEqual([]);
    expect(lineReads).toHaveLength(1);
    const withEdges = await countStatements(server, () => graphqlData(server, a.key, query.replace('totalCount', 'totalCount edges { node { id } }')));
    expect(withEdges.sql.filter((statement) => /FROM ("public"\.)?"?stock_lines"?/.test(statement) && !/COUNT\(/i.test(statement))).toHaveLength(1);
    const bad = await graphqlError(server, a.key, `{ products(first: 1) { edges { node { stock(first: 1, after: "not a cursor") { totalCount } } } } }`);
    expect(bad.code).toBe('VALIDATION_ERROR');
  });

  it('pages each product\'s lines by cursor both ways, as Relay asks', async () => {
    const paged = await server.app.prisma.productMaster.create({ data: { organizationId: a.org.id, sku: 'PAGED', name: 'Paged' } });
    for (let i = 1; i <= 5; i++) await addStock(server.app, a.org.id, { productMasterId: paged.id, locationId: a.warehouse.id, binCode: `PG${i}` }, { ON_HAND: i });
    const ids = (await server.app.prisma.stockLine.findMany({ where: { productMasterId: paged.id }, orderBy: { id: 'asc' }, select: { id: true } })).map((l) => l.id);
    const query = `query ($first: Int, $last: Int, $after: String, $before: String) { products(first: 1, sku: "PAGED") { edges { node {
      stock(first: $first, last: $last, after: $after, before: $before) { totalCount edges { cursor node { id } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } } } } }`;
    type Stock = { totalCount: number; edges: { cursor: string; node: { id: string } }[]; pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null } };
    const page = async (variables: Record<string, unknown>) => {
      const data = (await graphqlData(server, a.key, query, variables)) as { products: { edges: { node: { stock: Stock } }[] } };
      const stock = data.products.edges[0]!.node.stock;
      expect(stock.totalCount).toBe(5);
      return { ids: stock.edges.map((e) => e.node.id), next: stock.pageInfo.hasNextPage, previous: stock.pageInfo.hasPreviousPage, info: stock.pageInfo, edges: stock.edges };
    };
    const first = await page({ first: 2 });
    expect([first.ids, first.next, first.previous]).toEqual([ids.slice(0, 2), true, false]);
    expect(first.info.endCursor).toBe(first.edges[1]!.cursor);
    const second = await page({ first: 2, after: first.info.endCursor });
    expect([second.ids, second.next, second.previous]).toEqual([ids.slice(2, 4), true, true]);
    const third = await page({ first: 2, after: second.info.endCursor });
    expect([third.ids, third.next, third.previous]).toEqual([ids.slice(4), false, true]);
    const end = await page({ last: 2 });
    expect([end.ids, end.next, end.previous]).toEqual([ids.slice(3), false, true]);
    const before = await page({ last: 2, before: end.info.startCursor });
    expect([before.ids, before.next, before.previous]).toEqual([ids.slice(1, 3), true, true]);
    const start = await page({ last: 2, before: before.info.startCursor });
    expect([start.ids, start.next, start.previous]).toEqual([ids.slice(0, 1), true, false]);
    const all = await page({ last: 10 });
    expect([all.ids, all.next, all.previous]).toEqual([ids, false, false]);
    const none = await page({ first: 0 });
    expect([none.ids, none.next, none.info.startCursor]).toEqual([[], true, null]);
    const byDefault = await page({});
    expect([byDefault.ids, byDefault.next]).toEqual([ids, false]);
    const refused = await graphqlError(server, a.key, query, { first: 2, after: 'not-a-cursor' });
    expect(refused).toMatchObject({ code: 'VALIDATION_ERROR', details: { after: [expect.any(String)] } });
  });

  it('filters by location', async () => {
    const { products: page } = (await graphqlData(server, a.key, PAGE, { first: 3, search: 'PS-', locationId: store.id })) as Page;
    for (const { node } of page.edges) {
      expect(node.stock.totalCount).toBe(1);
      expect(node.stock.edges.map((e) => e.node.location.code)).toEqual(['ST1']);
    }
  });

  it('never shows another organization’s stock', async () => {
    const ours = (await graphqlData(server, a.key, PAGE, { first: 50, search: 'PS-' })) as Page;
    const lines = ours.products.edges.flatMap(({ node }) => node.stock.edges.map((e) => e.node));
    expect(lines).toHaveLength(100);
    expect(lines.some((line) => line.qtyOnHand === 999)).toBe(false);
    // Their location as a filter: nothing of ours is there.
    const filtered = (await graphqlData(server, a.key, PAGE, { first: 2, search: 'PS-', locationId: theirLocation.id })) as Page;
    expect(filtered.products.edges.map(({ node }) => node.stock.totalCount)).toEqual([0, 0]);
    // And they see only their own.
    const theirs = (await graphqlData(server, b.key, PAGE, { first: 50, search: 'PS-' })) as Page;
    expect(theirs.products.edges).toHaveLength(2);
    expect(theirs.products.edges.flatMap(({ node }) => node.stock.edges.map((e) => [e.node.qtyOnHand, e.node.location.code]))).toEqual([
      [999, 'WH1'],
      [999, 'WH1'],
    ]);
  });

  it('needs inventory.read as reading stock lines does', async () => {
    const query = '{ products(first: 1) { edges { node { sku stock { totalCount } } } } }';
    const refused = await runWithPermissions(server.app, a.org, ['products.read'], query);
    expect(refused.errors?.[0]?.extensions?.code).toBe('INSUFFICIENT_SCOPE');
    const allowed = await runWithPermissions(server.app, a.org, ['products.read', 'inventory.read'], query);
    expect(allowed.errors).toBeUndefined();
  });
});
