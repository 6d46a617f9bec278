import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tenant } from '../support/fixtures.js';
import type { TestServer } from '../support/server.js';
import { startServerWithTwoTenants } from '../support/two-tenants.js';
import { graphqlRefusal } from '../support/api.js';
import { REFUSAL } from '../support/graphql.js';

let server: TestServer;
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants());
});
afterAll(() => server?.close());

describe('REST /api/products', () => {
  it('creates, reads, lists and updates a product', async () => {
    const created = await server.call('POST', '/api/products', { token: a.key, body: { sku: 'SKU-1', name: 'Widget', description: 'Blue' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ sku: 'SKU-1', name: 'Widget', description: 'Blue', organizationId: a.org.id });
    expect(Object.keys(created.body).sort()).toEqual(['createdAt', 'description', 'id', 'name', 'organizationId', 'sku', 'updatedAt']);

    const read = await server.call('GET', `/api/products/${created.body.id}`, { token: a.key });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);

    const patched = await server.call('PATCH', `/api/products/${created.body.id}`, { token: a.key, body: { name: 'Widget 2', description: null } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id: created.body.id, sku: 'SKU-1', name: 'Widget 2', description: null });

    const list = await server.call('GET', '/api/products?search=widget', { token: a.key });
    expect(list.status).toBe(200);
    expect(list.body.data.map((p: { id: string }) => p.id)).toContain(created.body.id);
    expect(list.body.meta).toMatchObject({ page: 1, limit: 50 });
  });

  it('pages with page and limit and reports totals', async () => {
    for (let i = 0; i < 5; i++) {
      await server.call('POST', '/api/products', { token: a.key, body: { sku: `PAGE-${i}`, name: `Paged ${i}` } });
    }
    const page2 = await server.call('GET', '/api/products?search=PAGE-&limit=2&page=2', { token: a.key });
    expect(page2.status).toBe(200);
    expect(page2.body.meta).toEqual({ page: 2, limit: 2, total: 5, totalPages: 3 });
    expect(page2.body.data.map((p: { sku: string }) => p.sku)).toEqual(['PAGE-2', 'PAGE-1']);
  });

  it('answers 400 with details for bad input', async () => {
    const missing = await server.call('POST', '/api/products', { token: a.key, body: { name: 'No sku' } });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ error: expect.any(String), details: { sku: ['Required'] } });

    const wrongType = await server.call('POST', '/api/products', { token: a.key, body: { sku: 5, name: '' } });
    expect(wrongType.status).toBe(400);
    expect(Object.keys(wrongType.body.details)).toContain('sku');

    const blank = await server.call('POST', '/api/products', { token: a.key, body: { sku: '  ', name: 'x' } });
    expect(blank.status).toBe(400);
    expect(blank.body.details.sku).toBeDefined();

    await server.call('POST', '/api/products', { token: a.key, body: { sku: 'DUP', name: 'first' } });
    const dup = await server.call('POST', '/api/products', { token: a.key, body: { sku: 'DUP', name: 'second' } });
    expect(dup.status).toBe(400);
    expect(dup.body.details.sku[0]).toMatch(/already exists/);

    const notJson = await server.call('POST', '/api/products', { token: a.key, body: '{oops' });
    expect(notJson.status).toBe(400);

    const limit = await server.call('GET', '/api/products?limit=101', { token: a.key });
    expect(limit.status).toBe(400);
    expect(limit.body.details.limit).toBeDefined();
    const page = await server.call('GET', '/api/products?page=abc', { token: a.key });
    expect(page.status).toBe(400);
    expect(page.body.details.page).toBeDefined();
  });

  it('answers a query value of the wrong type in our words, naming the parameter (not GraphQL\'s)', async () => {
    const limit = await server.call('GET', '/api/products?limit=abc', { token: a.key });
    expect(limit.status).toBe(400);
    expect(limit.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { limit: ['Must be an integer from 1 to 100'] } });
    expect(JSON.stringify(limit.body)).not.toContain('cannot represent');
    const both = await server.call('GET', '/api/products?page=0&limit=1.5', { token: a.key });
    expect(both.body.details).toEqual({ page: ['Must be an integer of at least 1'], limit: ['Must be an integer from 1 to 100'] });
    // Past what a GraphQL Int holds: still our words, naming the parameter.
    const huge = await server.call('GET', '/api/products?page=2147483648', { token: a.key });
    expect(huge.status).toBe(400);
    expect(huge.body.details).toEqual({ page: ['At most 2147483647'] });
  });

  it('the same SKU may exist in two organizations', async () => {
    const inA = await server.call('POST', '/api/products', { token: a.key, body: { sku: 'SHARED', name: 'A' } });
    const inB = await server.call('POST', '/api/products', { token: b.key, body: { sku: 'SHARED', name: 'B' } });
    expect([inA.status, inB.status]).toEqual([201, 201]);
  });

  it('keeps each organization to its own products', async () => {
    const mine = await server.call('POST', '/api/products', { token: a.key, body: { sku: 'PRIVATE', name: 'A only' } });
    const id = mine.body.id;
    expect((await server.call('GET', `/api/products/${id}`, { token: b.key })).status).toBe(404);
    const patch = await server.call('PATCH', `/api/products/${id}`, { token: b.key, body: { name: 'stolen' } });
    expect(patch.status).toBe(404);
    expect(patch.body).toEqual({ error: 'Product not found', code: 'NOT_FOUND' });
    const list = await server.call('GET', '/api/products?search=PRIVATE', { token: b.key });
    expect(list.body.data).toEqual([]);
    const gql = await server.graphql(`query ($id: ID!) { product(id: $id) { id } products(search: "PRIVATE") { totalCount } }`, { id }, b.key);
    expect(gql.body).toEqual({ data: { product: null, products: { totalCount: 0 } } });
    const gqlList = await server.graphql(`{ products(search: "PRIVATE") { totalCount edges { node { id } } } }`, {}, b.key);
    expect(gqlList.body.data.products).toEqual({ totalCount: 0, edges: [] });
    const again = await server.call('GET', `/api/products/${id}`, { token: a.key });
    expect(again.body.name).toBe('A only');
  });

  it('answers 404 for an unknown id', async () => {
    const res = await server.call('GET', '/api/products/nope', { token: a.key });
    expect(res.status).toBe(404);
  });
});

describe('GraphQL products', () => {
  it('pages a Relay connection with a total count', async () => {
    for (let i = 0; i < 3; i++) await server.call('POST', '/api/products', { token: a.key, body: { sku: `REL-${i}`, name: `Relay ${i}` } });
    const first = await server.graphql(
      `{ products(first: 2, search: "REL-") { totalCount pageInfo { hasNextPage endCursor } edges { node { sku globalSku productName } } } }`,
      {},
      a.key,
    );
    expect(first.body.data.products.totalCount).toBe(3);
    expect(first.body.data.products.edges.map((e: any) => e.node.sku)).toEqual(['REL-2', 'REL-1']);
    expect(first.body.data.products.edges[0].node.globalSku).toBe('REL-2');
    const next = await server.graphql(
      `query ($after: String) { products(first: 2, after: $after, search: "REL-") { pageInfo { hasNextPage } edges { node { sku } } } }`,
      { after: first.body.data.products.pageInfo.endCursor },
      a.key,
    );
    expect(next.body.data.products.edges.map((e: any) => e.node.sku)).toEqual(['REL-0']);
    expect(next.body.data.products.pageInfo.hasNextPage).toBe(false);
  });

  it('gives one unit cost however a product is read: a page, a lookup by SKU, the connection, by id', async () => {
    const costs = [0.1, 0.0001, 2.5, 1234567890.1234, 99999999.9999, 0.3];
    for (const [i, unitCost] of costs.entries()) {
      const created = await server.call('POST', '/api/products', { token: b.key, body: { sku: `COST-${i}`, name: `Cost ${i}`, unitCost } });
      expect(created.status).toBe(201);
    }
    const read = await server.graphql(
      `{ productsPage(limit: 100) { items { sku unitCost } } products(first: 100) { edges { node { id sku unitCost } } } bySku: productsPage(sku: "cost-3") { items { sku unitCost } } }`,
      {},
      b.key,
    );
    const bySku = (rows: { sku: string; unitCost: number | null }[]) => Object.fromEntries(rows.filter((r) => r.sku.startsWith('COST-')).map((r) => [r.sku, r.unitCost]));
    const expected = Object.fromEntries(costs.map((cost, i) => [`COST-${i}`, cost]));
    expect(bySku(read.body.data.productsPage.items)).toEqual(expected);
    expect(bySku(read.body.data.products.edges.map((e: any) => e.node))).toEqual(expected);
    expect(read.body.data.bySku.items).toEqual([{ sku: 'COST-3', unitCost: 1234567890.1234 }]);
    for (const edge of read.body.data.products.edges.filter((e: any) => e.node.sku.startsWith('COST-'))) {
      const one = await server.graphql(`query ($id: ID!) { product(id: $id) { unitCost } }`, { id: edge.node.id }, b.key);
      expect(one.body.data.product.unitCost).toBe(expected[edge.node.sku]);
    }
  });

  it('pages the connection alike whether the page is read alone or with a relation (a direct statement, or Prisma)', async () => {
    for (let i = 0; i < 7; i++) await server.call('POST', '/api/products', { token: b.key, body: { sku: `WIN-${i}`, name: `Window ${i}` } });
    const page = async (args: string, withRelation: boolean) => {
      const answer = await server.graphql(
        `{ products(${args}) { totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor } edges { cursor node { id sku unitCost createdAt ${withRelation ? 'categoryName' : ''} } } } }`,
        {},
        b.key,
      );
      expect(answer.body.errors, JSON.stringify(answer.body.errors)).toBeUndefined();
      const connection = answer.body.data.products;
      for (const edge of connection.edges) delete edge.node.categoryName;
      return connection;
    };
    const all = await page('first: 100', false);
    expect(all.edges.length).toBeGreaterThanOrEqual(7);
    const ids = all.edges.map((e: any) => e.node.id);
    expect([...ids].sort().reverse()).toEqual(ids);
    const cursorAt = (index: number) => all.edges[index].cursor;
    const cases = ['first: 3', 'first: 100', 'first: 0', 'last: 2', 'last: 0', 'last: 100', `first: 3, after: "${cursorAt(2)}"`, `first: 2, after: "${cursorAt(ids.length - 1)}"`,
      `last: 2, before: "${cursorAt(4)}"`, `last: 3, before: "${cursorAt(0)}"`, `after: "${cursorAt(1)}"`];
    for (const args of cases) expect(await page(args, false), args).toEqual(await page(args, true));
    expect((await page(`first: 3, after: "${cursorAt(2)}"`, false)).edges.map((e: any) => e.node.id)).toEqual(ids.slice(3, 6));
    expect((await page(`last: 2, before: "${cursorAt(4)}"`, false)).edges.map((e: any) => e.node.id)).toEqual(ids.slice(2, 4));
    expect((await page('last: 2', false)).edges.map((e: any) => e.node.id)).toEqual(ids.slice(-2));
  });

  it('creates and updates through mutations', async () => {
    const created = await server.graphql(`mutation { createProduct(input: { sku: "GQL-1", name: "From GraphQL", unitCost: 2.5 }) { ... on Product { id sku unitCost } } }`, {}, a.key);
    expect(created.body.data.createProduct).toMatchObject({ sku: 'GQL-1', unitCost: 2.5 });
    const updated = await server.graphql(
      `mutation ($id: ID!) { updateProduct(id: $id, input: { name: "Renamed" }) { ... on Product { name sku } } }`,
      { id: created.body.data.createProduct.id },
      a.key,
    );
    expect(updated.body.data.updateProduct).toEqual({ name: 'Renamed', sku: 'GQL-1' });
    const bad = await graphqlRefusal(server, a.key, `mutation { createProduct(input: { sku: "", name: "x" }) { ... on Product { id } ${REFUSAL} } }`);
    expect(bad).toMatchObject({ type: 'ValidationError', code: 'VALIDATION_ERROR', details: { sku: ['Required'] } });
  });
});

describe('query counts', () => {
  it('lists a page of products in a fixed number of queries', async () => {
    for (let i = 0; i < 12; i++) await server.call('POST', '/api/products', { token: a.key, body: { sku: `QC-${i}`, name: `Counted ${i}` } });
    const count = async (path: string) => {
      server.queries.length = 0;
      const res = await server.call('GET', path, { token: a.key });
      expect(res.status).toBe(200);
      return server.queries.length;
    };
    // A search past its page: the API key lookup, the page and the count, whatever the page size.
    const small = await count('/api/products?search=QC-&limit=2');
    expect(small).toBeLessThanOrEqual(3);
    // No filter: the page with the organization's counter in one statement, whatever the page size.
    expect(await count('/api/products?limit=12')).toBe(small - 1);
    expect(await count('/api/products?limit=2')).toBe(small - 1);
    // A search whose matches all fit on the page is its own total: no count.
    expect(await count('/api/products?search=QC-&limit=12')).toBe(small - 1);
    expect(await count('/api/products?search=QC-11&limit=1')).toBe(small - 1);
    // The totals are the same either way, and past the end the count tells them.
    const meta = async (path: string) => (await server.call('GET', path, { token: a.key })).body.meta;
    expect(await meta('/api/products?search=QC-&limit=2')).toEqual({ page: 1, limit: 2, total: 12, totalPages: 6 });
    expect(await meta('/api/products?search=QC-&limit=12')).toEqual({ page: 1, limit: 12, total: 12, totalPages: 1 });
    expect(await meta('/api/products?search=QC-&limit=5&page=3')).toEqual({ page: 3, limit: 5, total: 12, totalPages: 3 });
    expect(await meta('/api/products?search=QC-&limit=5&page=4')).toEqual({ page: 4, limit: 5, total: 12, totalPages: 3 });
    expect(await meta('/api/products?search=QC-11&limit=1')).toEqual({ page: 1, limit: 1, total: 1, totalPages: 1 });
    // Unfiltered, past the end: no products, the organization's total all the same.
    const all = (await server.call('GET', '/api/products?limit=100', { token: a.key })).body.meta.total;
    const beyond = await server.call('GET', '/api/products?limit=5&page=999', { token: a.key });
    expect(beyond.body).toEqual({ data: [], meta: { page: 999, limit: 5, total: all, totalPages: Math.ceil(all / 5) } });
    expect(await meta('/api/products?search=nothing-like-it')).toEqual({ page: 1, limit: 50, total: 0, totalPages: 0 });
  });
});

describe('search', () => {
  it('treats % and _ in the search text literally', async () => {
    await server.call('POST', '/api/products', { token: a.key, body: { sku: 'PCT_1', name: '100% cotton' } });
    await server.call('POST', '/api/products', { token: a.key, body: { sku: 'PCTX1', name: 'plain' } });
    const pct = await server.call('GET', '/api/products?search=100%25', { token: a.key });
    expect(pct.body.data.map((p: { sku: string }) => p.sku)).toEqual(['PCT_1']);
    expect(pct.body.meta.total).toBe(1);
    const underscore = await server.call('GET', '/api/products?search=PCT_', { token: a.key });
    expect(underscore.body.data.map((p: { sku: string }) => p.sku)).toEqual(['PCT_1']);
    expect(underscore.body.meta.total).toBe(1);
  });
});
