import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlData, graphqlError, graphqlRefusal } from '../support/api.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import type { TestServer } from '../support/server.js';
import { startServerWithTwoTenants } from '../support/two-tenants.js';
import { REFUSAL } from '../support/graphql.js';

let server: TestServer;
let a: Tenant;
let b: Tenant;
const tokens: Record<'manager' | 'viewer' | 'adminWrite' | 'inventoryRead', string> = {} as never;

async function signIn(tenant: Tenant, role: 'MANAGER' | 'VIEWER') {
  const user = await tenant.userWith(role);
  const res = await server.call('POST', '/api/auth/sign-in', { body: { email: user.email, password: user.password } });
  expect(res.status).toBe(200);
  return res.body.token as string;
}

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants());
  tokens.manager = await signIn(a, 'MANAGER');
  tokens.viewer = await signIn(a, 'VIEWER');
  tokens.adminWrite = await a.keyWith(['admin:write']);
  tokens.inventoryRead = await a.keyWith(['inventory:read']);
});
afterAll(() => server?.close());

const gql = (token: string, query: string, variables: Record<string, unknown> = {}) => graphqlData(server, token, query, variables);

const gqlError = (token: string | undefined, query: string, variables: Record<string, unknown> = {}) => graphqlError(server, token, query, variables);

/** What differs between the three tables; the CRUD tests below run over each. */
const tables = [
  {
    name: 'Location', one: 'location', many: 'locations', fields: 'id code name type',
    create: (tag: string) => ({ code: `L-${tag}`, name: `Store ${tag}`, type: 'store' }),
    created: (tag: string) => ({ code: `L-${tag}`, name: `Store ${tag}`, type: 'STORE' }),
    change: { name: 'Renamed store' },
    unique: 'code',
  },
  {
    name: 'Channel', one: 'channel', many: 'channels', fields: 'id name type channelType',
    create: (tag: string) => ({ name: `Web ${tag}`, type: 'online' }),
    created: (tag: string) => ({ name: `Web ${tag}`, type: 'ONLINE', channelType: 'ONLINE' }),
    change: { type: 'marketplace' },
    unique: 'name',
  },
  {
    name: 'Category', one: 'category', many: 'categories', fields: 'id name',
    create: (tag: string) => ({ name: `Tools ${tag}` }),
    created: (tag: string) => ({ name: `Tools ${tag}` }),
    change: { name: 'Renamed tools' },
    unique: 'name',
  },
] as const;

const ops = (t: (typeof tables)[number]) => ({
  create: `mutation ($input: ${t.name}CreateInput!) { create${t.name}(input: $input) { ... on ${t.name} { ${t.fields} } ${REFUSAL} } }`,
  update: `mutation ($id: ID!, $input: ${t.name}UpdateInput!) { update${t.name}(id: $id, input: $input) { ... on ${t.name} { ${t.fields} } ${REFUSAL} } }`,
  remove: `mutation ($id: ID!) { delete${t.name}(id: $id) { ... on ${t.name} { ${t.fields} } ${REFUSAL} } }`,
  get: `query ($id: ID!) { ${t.one}(id: $id) { ${t.fields} } }`,
  list: `query ($search: String) { ${t.many}(search: $search, first: 100) { edges { node { ${t.fields} } } } }`,
});

describe.each(tables)('GraphQL $many', (t) => {
  const op = ops(t);

  it.each([['a MANAGER session', 'manager'], ['an admin:write API key', 'adminWrite']] as const)(
    'creates, reads, updates and deletes as %s',
    async (_who, who) => {
      const token = tokens[who];
      const tag = `${t.one}-${who}`;
      const created = (await gql(token, op.create, { input: t.create(tag) }))[`create${t.name}`];
      expect(created).toMatchObject(t.created(tag));

      // admin:write grants no reads, so read back with the all-scopes key.
      expect((await gql(a.key, op.get, { id: created.id }))[t.one]).toEqual(created);
      expect((await gql(a.key, op.list, { search: tag }))[t.many].edges).toEqual([{ node: created }]);

      const updated = (await gql(token, op.update, { id: created.id, input: t.change }))[`update${t.name}`];
      const changed = Object.fromEntries(Object.entries(t.change).map(([k, v]) => [k, k === 'type' ? v.toUpperCase() : v]));
      expect(updated).toEqual({ ...created, ...changed, ...('type' in t.change ? { channelType: 'MARKETPLACE' } : {}) });

      const deleted = (await gql(token, op.remove, { id: created.id }))[`delete${t.name}`];
      expect(deleted).toEqual(updated);
      expect((await gql(a.key, op.get, { id: created.id }))[t.one]).toBeNull();
      expect((await graphqlRefusal(server, token, op.remove, { id: created.id })).code).toBe('NOT_FOUND');
    },
  );

  it('refuses writes to a VIEWER session and an inventory:read key, and everything without credentials', async () => {
    const input = t.create(`${t.one}-denied`);
    expect((await gqlError(tokens.viewer, op.create, { input })).code).toBe('FORBIDDEN');
    expect((await gqlError(tokens.inventoryRead, op.create, { input })).code).toBe('INSUFFICIENT_SCOPE');
    expect((await gqlError(undefined, op.list)).code).toBe('MISSING_AUTHORIZATION');

    const existing = (await gql(a.key, op.create, { input }))[`create${t.name}`];
    for (const [token, code] of [[tokens.viewer, 'FORBIDDEN'], [tokens.inventoryRead, 'INSUFFICIENT_SCOPE']]) {
      expect((await gqlError(token, op.update, { id: existing.id, input: t.change })).code).toBe(code);
      expect((await gqlError(token, op.remove, { id: existing.id })).code).toBe(code);
      // Reading is allowed to both.
      expect((await gql(token!, op.get, { id: existing.id }))[t.one]).toEqual(existing);
    }
  });

  it(`answers VALIDATION_ERROR with details for a duplicate or blank ${t.unique}`, async () => {
    const input = t.create(`${t.one}-dup`);
    const first = (await gql(a.key, op.create, { input }))[`create${t.name}`];
    const dup = await graphqlRefusal(server, a.key, op.create, { input: { ...input, [t.unique]: ` ${input[t.unique as keyof typeof input]} ` } });
    expect(dup).toMatchObject({ code: 'VALIDATION_ERROR', details: { [t.unique]: [expect.stringMatching(/already exists/)] } });

    const other = (await gql(a.key, op.create, { input: t.create(`${t.one}-other`) }))[`create${t.name}`];
    const clash = await graphqlRefusal(server, a.key, op.update, { id: other.id, input: { [t.unique]: first[t.unique] } });
    expect(clash).toMatchObject({ code: 'VALIDATION_ERROR', details: { [t.unique]: [expect.stringMatching(/already exists/)] } });

    const blank = await graphqlRefusal(server, a.key, op.create, { input: { ...input, [t.unique]: '  ' } });
    expect(blank).toMatchObject({ code: 'VALIDATION_ERROR', details: { [t.unique]: ['Required'] } });

    // The same value is free in another organization.
    expect((await gql(b.key, op.create, { input }))[`create${t.name}`]).toMatchObject(t.created(`${t.one}-dup`));
  });

  it('keeps each organization to its own rows', async () => {
    const mine = (await gql(a.key, op.create, { input: t.create(`${t.one}-private`) }))[`create${t.name}`];
    expect((await gql(b.key, op.get, { id: mine.id }))[t.one]).toBeNull();
    expect((await graphqlRefusal(server, b.key, op.update, { id: mine.id, input: t.change })).code).toBe('NOT_FOUND');
    expect((await graphqlRefusal(server, b.key, op.remove, { id: mine.id })).code).toBe('NOT_FOUND');
    expect((await gql(b.key, op.get, { id: 'no-such-id' }))[t.one]).toBeNull();

    const theirs = (await gql(b.key, op.list, {}))[t.many].edges.map(({ node }: { node: { id: string } }) => node.id);
    expect(theirs).not.toContain(mine.id);
    expect((await gql(a.key, op.get, { id: mine.id }))[t.one]).toEqual(mine);
  });
});

describe('defaults and order', () => {
  it('defaults the type, and lists in code or name order', async () => {
    const c = await createTenant(server.app.prisma);
    const location = await gql(c.key, `mutation { createLocation(input: { code: "A0", name: "First" }) { ... on Location { type } } }`);
    expect(location.createLocation.type).toBe('WAREHOUSE');
    const channel = await gql(c.key, `mutation { createChannel(input: { name: "Zeta" }) { ... on Channel { type channelType } } }`);
    expect(channel.createChannel).toEqual({ type: 'OTHER', channelType: 'OTHER' });
    await gql(c.key, `mutation { createChannel(input: { name: "Alpha" }) { ... on Channel { id } } }`);

    const lists = await gql(c.key, `{ locations { totalCount edges { node { code } } } channels { totalCount edges { node { name } } } }`);
    expect(lists.locations.edges.map((e: { node: { code: string } }) => e.node.code)).toEqual(['A0', 'WH1']);
    expect(lists.locations.totalCount).toBe(2);
    expect(lists.channels.edges.map((e: { node: { name: string } }) => e.node.name)).toEqual(['Alpha', 'Zeta']);
  });

  it('needs products.read for categories and inventory.read for locations', async () => {
    const forecastOnly = await a.keyWith(['forecast:read']);
    expect((await gqlError(forecastOnly, '{ categories { totalCount } }')).code).toBe('INSUFFICIENT_SCOPE');
    expect((await gqlError(forecastOnly, '{ locations { edges { node { id } } } }')).code).toBe('INSUFFICIENT_SCOPE');
    expect((await gqlError(tokens.adminWrite, '{ channels { edges { node { id } } } }')).code).toBe('INSUFFICIENT_SCOPE');
  });
});

describe('GET /api/inventory/locations', () => {
  it('lists the locations under both keys, with search on code or name', async () => {
    const c = await createTenant(server.app.prisma);
    const store = await gql(c.key, `mutation { createLocation(input: { code: "ST-9", name: "Harbour Store", type: "STORE" }) { ... on Location { id } } }`);
    const res = await server.call('GET', '/api/inventory/locations', { token: c.key });
    expect(res.status).toBe(200);
    const all = [
      { id: store.createLocation.id, code: 'ST-9', name: 'Harbour Store', type: 'STORE' },
      { id: c.warehouse.id, code: 'WH1', name: 'Main warehouse', type: 'WAREHOUSE' },
    ];
    expect(res.body).toEqual({ locations: all, data: all });

    const byName = await server.call('GET', '/api/inventory/locations?search=harbour', { token: c.key });
    expect(byName.body.locations).toEqual([all[0]]);
    const byCode = await server.call('GET', '/api/inventory/locations?search=wh', { token: c.key });
    expect(byCode.body.data).toEqual([all[1]]);
    const none = await server.call('GET', '/api/inventory/locations?search=nothing', { token: c.key });
    expect(none.body).toEqual({ locations: [], data: [] });
  });

  it('needs inventory.read and shows only the caller\'s organization', async () => {
    expect((await server.call('GET', '/api/inventory/locations')).status).toBe(401);
    const denied = await server.call('GET', '/api/inventory/locations', { token: tokens.adminWrite });
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe('INSUFFICIENT_SCOPE');

    const viewer = await server.call('GET', '/api/inventory/locations', { token: tokens.viewer });
    expect(viewer.status).toBe(200);
    expect(viewer.body.locations.map((l: { id: string }) => l.id)).toContain(a.warehouse.id);
    const other = await server.call('GET', '/api/inventory/locations', { token: b.key });
    expect(other.body.locations.map((l: { id: string }) => l.id)).not.toContain(a.warehouse.id);
  });
});

describe('product categories', () => {
  it('shows a product\'s category and leaves products uncategorised when it is deleted', async () => {
    const category = (await gql(tokens.manager, `mutation { createCategory(input: { name: "Paint" }) { ... on Category { id } } }`)).createCategory;
    const product = await server.call('POST', '/api/products', { token: a.key, body: { sku: 'PAINT-1', name: 'Red', categoryId: category.id } });
    expect(product.status).toBe(201);
    const read = `query ($id: ID!) { product(id: $id) { category { id name } categoryName } }`;
    expect((await gql(a.key, read, { id: product.body.id })).product).toEqual({ category: { id: category.id, name: 'Paint' }, categoryName: 'Paint' });

    const withProducts = await gql(a.key, `query ($id: ID!) { category(id: $id) { products { totalCount edges { node { sku } } } } }`, { id: category.id });
    expect(withProducts.category.products).toEqual({ totalCount: 1, edges: [{ node: { sku: 'PAINT-1' } }] });

    await gql(tokens.manager, `mutation ($id: ID!) { deleteCategory(id: $id) { ... on Category { id } } }`, { id: category.id });
    expect((await gql(a.key, read, { id: product.body.id })).product).toEqual({ category: null, categoryName: null });
  });
});

describe('query counts', () => {
  /** SQL statements the server ran for one GraphQL request. */
  async function countQueries(token: string, query: string) {
    server.queries.length = 0;
    const data = await gql(token, query);
    return { count: server.queries.length, data };
  }

  it('reads products with their categories in a fixed number of queries', async () => {
    const c = await createTenant(server.app.prisma);
    for (let i = 0; i < 10; i++) {
      const cat = (await gql(c.key, `mutation ($name: String!) { createCategory(input: { name: $name }) { ... on Category { id } } }`, { name: `Cat ${i}` })).createCategory;
      await server.call('POST', '/api/products', { token: c.key, body: { sku: `QCAT-${i}`, name: `P ${i}`, categoryId: cat.id } });
    }
    const productsQuery = (n: number) => `{ products(first: ${n}) { edges { node { sku category { name } categoryName } } } }`;
    const small = await countQueries(c.key, productsQuery(2));
    const large = await countQueries(c.key, productsQuery(10));
    expect(large.data.products.edges).toHaveLength(10);
    expect(large.data.products.edges.every((e: any) => e.node.categoryName === e.node.category.name)).toBe(true);
    expect(small.count).toBeGreaterThan(0);
    expect(large.count).toBe(small.count);

    const categoriesQuery = (search: string) => `{ categories(search: "${search}") { edges { node { name products(first: 5) { totalCount edges { node { sku categoryName } } } } } } }`;
    const one = await countQueries(c.key, categoriesQuery('Cat 1'));
    const ten = await countQueries(c.key, categoriesQuery('Cat'));
    expect(one.data.categories.edges).toHaveLength(1);
    expect(ten.data.categories.edges).toHaveLength(10);
    expect(ten.data.categories.edges[3].node.products).toEqual({ totalCount: 1, edges: [{ node: { sku: 'QCAT-3', categoryName: 'Cat 3' } }] });
    expect(ten.count).toBe(one.count);
    // Their totals count the products of the categories shown only, never grouping the whole catalog.
    server.queries.length = 0;
    await gql(c.key, categoriesQuery('Cat'));
    // (by a list of their keys, each key of that list in a lateral subquery that reads a page, or the page's own product ids).
    const productReads = server.queries.filter((sql) => /FROM ("public"\.)?"?product_masters"?/.test(sql));
    expect(productReads.length).toBeGreaterThan(0);
    const narrowed = (sql: string) => /"categoryId" IN \(|"product_masters"\."id" IN \(/.test(sql) || (/unnest\(/.test(sql) && /"categoryId" = parent\.parent_id[\s\S]*LIMIT/.test(sql));
    expect(productReads.filter((sql) => !narrowed(sql))).toEqual([]);
    // And a category's products are read a page at a time, not all of them.
    const byCategory = productReads.filter((sql) => /"categoryId" IN \(|"categoryId" = parent\.parent_id/.test(sql) && !/COUNT\(/i.test(sql));
    expect(byCategory.length).toBeGreaterThan(0);
    expect(byCategory.filter((sql) => !/LIMIT/.test(sql))).toEqual([]);
  });

  it('pages a category\'s products newest first, both ways', async () => {
    const c = await createTenant(server.app.prisma);
    const cat = (await gql(c.key, `mutation { createCategory(input: { name: "Paged" }) { ... on Category { id } } }`)).createCategory;
    for (let i = 0; i < 5; i++) await server.call('POST', '/api/products', { token: c.key, body: { sku: `PG-${i}`, name: `P ${i}`, categoryId: cat.id } });
    const ids = (await server.app.prisma.productMaster.findMany({ where: { organizationId: c.org.id }, orderBy: { id: 'desc' }, select: { id: true } })).map((p) => p.id);
    const query = `query ($first: Int, $last: Int, $after: String, $before: String) { categories(search: "Paged") { edges { node {
      products(first: $first, last: $last, after: $after, before: $before) { totalCount edges { node { id } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } } } } }`;
    const page = async (variables: Record<string, unknown>) => {
      const products = (await gql(c.key, query, variables)).categories.edges[0].node.products;
      expect(products.totalCount).toBe(5);
      return { ids: products.edges.map((e: any) => e.node.id), next: products.pageInfo.hasNextPage, previous: products.pageInfo.hasPreviousPage, info: products.pageInfo };
    };
    const first = await page({ first: 2 });
    expect([first.ids, first.next, first.previous]).toEqual([ids.slice(0, 2), true, false]);
    const second = await page({ first: 2, after: first.info.endCursor });
    expect([second.ids, second.next, second.previous]).toEqual([ids.slice(2, 4), true, true]);
    const third = await page({ first: 2, after: second.info.endCursor });
    expect([third.ids, third.next]).toEqual([ids.slice(4), false]);
    const end = await page({ last: 2 });
    expect([end.ids, end.next, end.previous]).toEqual([ids.slice(3), false, true]);
    const before = await page({ last: 2, before: end.info.startCursor });
    expect([before.ids, before.next, before.previous]).toEqual([ids.slice(1, 3), true, true]);
  });
});
