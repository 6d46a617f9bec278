import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocationFor } from '../../../src/services/admin/admin.js';
import { createTenant, type Tenant } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';
import { addStock } from '../../support/stock.js';
import { startServerWithTwoTenants } from '../../support/two-tenants.js';
import { countStatements } from '../../support/statement-count.js';

let server: TestServer;
let a: Tenant;
let b: Tenant;
let widget: { id: string };
let gadget: { id: string };
let store: { id: string };
const lines: Record<string, { id: string; lotId: string | null; binId: string | null }> = {};

const product = async (token: string, sku: string, name: string) => {
  const res = await server.call('POST', '/api/products', { token, body: { sku, name } });
  expect(res.status).toBe(201);
  return res.body as { id: string };
};

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants());
  widget = await product(a.key, 'WID-1', 'Blue Widget');
  gadget = await product(a.key, 'GAD-1', 'Red Gadget');
  store = await createLocationFor(server.operator, { organizationId: a.org.id, code: 'ST1', name: 'Store' });
  lines.plain = await addStock(server.app, a.org.id, { productMasterId: widget.id, locationId: a.warehouse.id }, { ON_HAND: 10, RESERVED: 3, ON_HOLD: 1 });
  lines.lotted = await addStock(
    server.app,
    a.org.id,
    { productMasterId: widget.id, locationId: a.warehouse.id, lotCode: 'L1', expiryDate: '2031-05-06', binCode: 'B1' },
    { ON_HAND: 7, PICKED: 2 },
  );
  lines.store = await addStock(server.app, a.org.id, { productMasterId: gadget.id, locationId: store.id }, { ON_HAND: 4 });
});
afterAll(() => server?.close());

const ITEM_KEYS = ['binId', 'createdAt', 'expiryDate', 'id', 'locationId', 'lotId', 'productMasterId', 'quantityAvailable', 'quantityOnHand', 'quantityReserved', 'updatedAt'];
const ids = (list: { id: string }[]) => list.map((item) => item.id);

describe('GET /api/inventory', () => {
  it('serves both variants in one body: items + pagination and data', async () => {
    const res = await server.call('GET', '/api/inventory', { token: a.key });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'items', 'pagination']);
    expect(res.body.data).toEqual(res.body.items);
    expect(res.body.pagination).toEqual({ page: 1, pageSize: 20, total: 3, totalPages: 1 });
    expect(ids(res.body.items)).toEqual([lines.plain!.id, lines.lotted!.id, lines.store!.id]);
    for (const item of res.body.items) expect(Object.keys(item).sort()).toEqual(ITEM_KEYS);
  });

  it('names quantities in the list naming, with null lot, bin and expiry when the line has none', async () => {
    const { body } = await server.call('GET', '/api/inventory', { token: a.key });
    const plain = body.items.find((i: any) => i.id === lines.plain!.id);
    expect(plain).toMatchObject({ productMasterId: widget.id, locationId: a.warehouse.id, quantityOnHand: 10, quantityReserved: 3, quantityAvailable: 6, lotId: null, binId: null, expiryDate: null });
    expect(new Date(plain.createdAt).toISOString()).toBe(plain.createdAt);
    const lotted = body.items.find((i: any) => i.id === lines.lotted!.id);
    expect(lotted).toMatchObject({ quantityOnHand: 7, quantityReserved: 0, quantityAvailable: 5, lotId: lines.lotted!.lotId, binId: lines.lotted!.binId, expiryDate: '2031-05-06' });
  });

  it('filters by location, product, lot, bin and q (SKU or name, any case)', async () => {
    const get = async (query: string) => {
      const res = await server.call('GET', `/api/inventory?${query}`, { token: a.key });
      expect(res.status).toBe(200);
      return ids(res.body.items);
    };
    expect(await get(`locationId=${store.id}`)).toEqual([lines.store!.id]);
    expect(await get(`productMasterId=${widget.id}`)).toEqual([lines.plain!.id, lines.lotted!.id]);
    expect(await get(`lotId=${lines.lotted!.lotId}`)).toEqual([lines.lotted!.id]);
    expect(await get(`binId=${lines.lotted!.binId}`)).toEqual([lines.lotted!.id]);
    expect(await get('q=gad-')).toEqual([lines.store!.id]);
    expect(await get('q=blue')).toEqual([lines.plain!.id, lines.lotted!.id]);
    expect(await get(`q=widget&locationId=${store.id}`)).toEqual([]);
    const none = await server.call('GET', '/api/inventory?q=nothing-like-this', { token: a.key });
    expect(none.body).toEqual({ items: [], data: [], pagination: { page: 1, pageSize: 20, total: 0, totalPages: 0 } });
  });

  it('pages with page and limit: default 20, up to 200', async () => {
    const org = await createTenant(server.app.prisma);
    const p = await product(org.key, 'MANY', 'Many lots');
    const made: string[] = [];
    for (let i = 0; i < 23; i++) {
      made.push((await addStock(server.app, org.org.id, { productMasterId: p.id, locationId: org.warehouse.id, lotCode: `LOT-${String(i).padStart(2, '0')}` }, { ON_HAND: 1 })).id);
    }
    const first = await server.call('GET', '/api/inventory', { token: org.key });
    expect(first.body.items).toHaveLength(20);
    expect(first.body.pagination).toEqual({ page: 1, pageSize: 20, total: 23, totalPages: 2 });
    const second = await server.call('GET', '/api/inventory?page=2', { token: org.key });
    expect(ids(second.body.items)).toEqual(made.slice(20));
    const small = await server.call('GET', '/api/inventory?page=3&limit=5', { token: org.key });
    expect(ids(small.body.data)).toEqual(made.slice(10, 15));
    expect(small.body.pagination).toEqual({ page: 3, pageSize: 5, total: 23, totalPages: 5 });
    const max = await server.call('GET', '/api/inventory?limit=200', { token: org.key });
    expect(max.status).toBe(200);
    expect(ids(max.body.items)).toEqual(made);
    const beyond = await server.call('GET', '/api/inventory?page=9', { token: org.key });
    expect(beyond.body.items).toEqual([]);
  });

  it('answers 400 with details for bad page or limit', async () => {
    for (const [query, field] of [['limit=201', 'limit'], ['limit=0', 'limit'], ['limit=ten', 'limit'], ['page=0', 'page'], ['page=abc', 'page']]) {
      const res = await server.call('GET', `/api/inventory?${query}`, { token: a.key });
      expect(res.status, query).toBe(400);
      expect(res.body.details[field!], query).toBeDefined();
    }
  });

  it('needs credentials and inventory.read', async () => {
    expect((await server.call('GET', '/api/inventory')).status).toBe(401);
    const forecastOnly = await a.keyWith(['forecast:read']);
    const refused = await server.call('GET', '/api/inventory', { token: forecastOnly });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('INSUFFICIENT_SCOPE');
    const reader = await a.keyWith(['inventory:read']);
    expect((await server.call('GET', '/api/inventory', { token: reader })).status).toBe(200);
  });

  it('keeps each organization to its own lines; foreign filter ids are 404', async () => {
    const list = await server.call('GET', '/api/inventory', { token: b.key });
    expect(list.body.items).toEqual([]);
    for (const query of [`productMasterId=${widget.id}`, `locationId=${a.warehouse.id}`, `lotId=${lines.lotted!.lotId}`, `binId=${lines.lotted!.binId}`, 'locationId=unknown']) {
      const res = await server.call('GET', `/api/inventory?${query}`, { token: b.key });
      expect(res.status, query).toBe(404);
      expect(res.body.code).toBe('NOT_FOUND');
    }
    const own = await server.call('GET', `/api/inventory?productMasterId=${widget.id}`, { token: a.key });
    expect(own.body.items).toHaveLength(2);
  });
});

describe('GraphQL stockLines and stockLine', () => {
  const CONNECTION = `query ($locationId: ID, $productMasterId: ID, $lotId: ID, $binId: ID, $search: String, $first: Int, $after: String) {
    stockLines(locationId: $locationId, productMasterId: $productMasterId, lotId: $lotId, binId: $binId, search: $search, first: $first, after: $after) {
      totalCount pageInfo { hasNextPage endCursor }
      edges { node { id qtyOnHand qtyAvailable quantityAvailable product { sku } location { name } lot { code } bin { code } } }
    }
  }`;

  it('pages a Relay connection with the related product, location, lot and bin', async () => {
    const first = await server.graphql(CONNECTION, { productMasterId: widget.id, first: 1 }, a.key);
    const conn = first.body.data.stockLines;
    expect(conn.totalCount).toBe(2);
    expect(conn.pageInfo.hasNextPage).toBe(true);
    expect(conn.edges[0].node).toEqual({ id: lines.plain!.id, qtyOnHand: 10, qtyAvailable: 6, quantityAvailable: 6, product: { sku: 'WID-1' }, location: { name: 'Main warehouse' }, lot: null, bin: null });
    const next = await server.graphql(CONNECTION, { productMasterId: widget.id, first: 1, after: conn.pageInfo.endCursor }, a.key);
    expect(next.body.data.stockLines.edges[0].node).toMatchObject({ id: lines.lotted!.id, lot: { code: 'L1' }, bin: { code: 'B1' } });
    const filtered = await server.graphql(CONNECTION, { search: 'gadget', locationId: store.id }, a.key);
    expect(filtered.body.data.stockLines.edges.map((e: any) => e.node.id)).toEqual([lines.store!.id]);
    const byLotAndBin = await server.graphql(CONNECTION, { lotId: lines.lotted!.lotId, binId: lines.lotted!.binId }, a.key);
    expect(byLotAndBin.body.data.stockLines.totalCount).toBe(1);
  });

  it('reads one line by id; another organization\'s is null', async () => {
    const query = `query ($id: ID!) { stockLine(id: $id) { id quantityOnHand expiryDate product { sku } } }`;
    const own = await server.graphql(query, { id: lines.lotted!.id }, a.key);
    expect(own.body.data.stockLine).toEqual({ id: lines.lotted!.id, quantityOnHand: 7, expiryDate: '2031-05-06', product: { sku: 'WID-1' } });
    const foreign = await server.graphql(query, { id: lines.lotted!.id }, b.key);
    expect(foreign.body).toEqual({ data: { stockLine: null } });
    const list = await server.graphql(`{ stockLines { totalCount edges { node { id } } } }`, {}, b.key);
    expect(list.body.data.stockLines).toEqual({ totalCount: 0, edges: [] });
    const foreignFilter = await server.graphql(CONNECTION, { productMasterId: widget.id }, b.key);
    expect(foreignFilter.body.errors[0].extensions.code).toBe('NOT_FOUND');
    const page = await server.graphql(`query ($l: ID) { stockLinesPage(locationId: $l) { total } }`, { l: store.id }, b.key);
    expect(page.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });

  it('needs inventory.read', async () => {
    const forecastOnly = await a.keyWith(['forecast:read']);
    const res = await server.graphql(`{ stockLines { totalCount } }`, {}, forecastOnly);
    expect(res.body.errors[0].extensions.code).toBe('INSUFFICIENT_SCOPE');
  });
});

describe('query counts', () => {
  let small: { id: string };
  let large: { id: string };

  beforeAll(async () => {
    small = await createLocationFor(server.operator, { organizationId: a.org.id, code: 'QC2', name: 'Two lines' });
    large = await createLocationFor(server.operator, { organizationId: a.org.id, code: 'QC20', name: 'Twenty lines' });
    for (const [location, count] of [[small, 2], [large, 20]] as const) {
      for (let i = 0; i < count; i++) {
        const p = await product(a.key, `QC-${location.id}-${i}`, `Counted ${i}`);
        await addStock(server.app, a.org.id, { productMasterId: p.id, locationId: location.id, lotCode: `QL${i}`, expiryDate: '2032-01-01', binCode: `QB${i}` }, { ON_HAND: i + 1 });
      }
    }
  });

  const counted = async (run: () => Promise<unknown>) => {
    const { statements, sql, result } = await countStatements(server, run);
    return { queries: statements, sql, result };
  };

  it('GraphQL stockLines with product, location, lot and bin makes the same number of queries for 2 and 20 lines', async () => {
    const query = `query ($l: ID) { stockLines(locationId: $l, first: 50) { totalCount edges { node { id product { sku } location { name } lot { code } bin { code } } } } }`;
    const two = await counted(() => server.graphql(query, { l: small.id }, a.key));
    const twenty = await counted(() => server.graphql(query, { l: large.id }, a.key));
    const edges = (r: any) => r.result.body.data.stockLines.edges;
    expect(edges(two)).toHaveLength(2);
    expect(edges(twenty)).toHaveLength(20);
    expect(edges(twenty).every((e: any) => e.node.lot.code.startsWith('QL') && e.node.bin.code.startsWith('QB') && e.node.location.name === 'Twenty lines')).toBe(true);
    expect(twenty.queries).toBe(two.queries);
    // location check, lines, count, and one each for products, locations, lots and bins (the key lookup is not counted)
    expect(twenty.queries).toBeLessThanOrEqual(7);
  });

  it('GET /api/inventory makes the same number of queries for 2 and 20 items', async () => {
    const two = await counted(() => server.call('GET', `/api/inventory?locationId=${small.id}`, { token: a.key }));
    const twenty = await counted(() => server.call('GET', `/api/inventory?locationId=${large.id}`, { token: a.key }));
    expect((two.result as any).body.items).toHaveLength(2);
    expect((twenty.result as any).body.items.every((i: any) => i.expiryDate === '2032-01-01')).toBe(true);
    expect((twenty.result as any).body.items).toHaveLength(20);
    expect(twenty.queries).toBe(two.queries);
    // The location check, the page with its lots' expiry and the count in one statement (the key lookup is not counted).
    expect(twenty.queries, twenty.sql.join('\n')).toBe(1);
    const whole = await counted(() => server.call('GET', '/api/inventory?limit=200', { token: a.key }));
    expect((whole.result as any).body.pagination.total).toBe((whole.result as any).body.items.length);
    expect(whole.queries).toBe(1);
  });

  it('answers a known location without lines with an empty page, in one statement', async () => {
    const empty = await createLocationFor(server.operator, { organizationId: a.org.id, code: 'QC0', name: 'No lines' });
    const res = await counted(() => server.call('GET', `/api/inventory?locationId=${empty.id}&page=2`, { token: a.key }));
    expect((res.result as any).status).toBe(200);
    expect((res.result as any).body).toEqual({ items: [], data: [], pagination: { page: 2, pageSize: 20, total: 0, totalPages: 0 } });
    expect(res.queries).toBe(1);
  });

  it('GraphQL stockLinesPage with relations selected loads them for 2 and 20 lines alike', async () => {
    const query = `query ($l: ID) { stockLinesPage(locationId: $l, limit: 50) { total items { id expiryDate product { sku } lot { code } bin { code } } } }`;
    const two = await counted(() => server.graphql(query, { l: small.id }, a.key));
    const twenty = await counted(() => server.graphql(query, { l: large.id }, a.key));
    const items = (r: any) => r.result.body.data.stockLinesPage.items;
    expect(items(two)).toHaveLength(2);
    expect(items(twenty)).toHaveLength(20);
    expect(items(twenty).every((i: any) => i.expiryDate === '2032-01-01' && i.lot.code.startsWith('QL') && i.bin.code.startsWith('QB') && i.product.sku.startsWith('QC-'))).toBe(true);
    expect((twenty.result as any).body.data.stockLinesPage.total).toBe(20);
    expect(twenty.queries).toBe(two.queries);
  });
});
