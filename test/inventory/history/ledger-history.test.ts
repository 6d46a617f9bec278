import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type Tenant } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';
import { addStock } from '../../support/stock.js';
import { startServerWithTwoTenants } from '../../support/two-tenants.js';

// GET /api/inventory/adjustments: the stock ledger history, its filters, pagination and query count.
let server: TestServer;
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants());
});
afterAll(() => server?.close());

const ENTRY_KEYS = ['actorType', 'bucket', 'comment', 'createdAt', 'createdBy', 'deltaQty', 'id', 'inventoryItemId', 'locationId', 'productMasterId', 'qtyAfter', 'qtyBefore', 'reasonCode', 'reasonCodeId', 'rootCause', 'sourceId', 'sourceType', 'transactionType'];

const adjust = (body: unknown, token = a.key) => server.call('POST', '/api/inventory/adjustments', { token, body });
const adjustBy = (body: unknown, token = a.key) => server.call('POST', '/api/inventory/adjust', { token, body });

describe('GET /api/inventory/adjustments', () => {
  it('lists ledger rows newest first with every filter and both pagination shapes', async () => {
    const org = await createTenant(server.app.prisma);
    const p1 = (await server.call('POST', '/api/products', { token: org.key, body: { sku: 'H-1', name: 'One' } })).body.id;
    const p2 = (await server.call('POST', '/api/products', { token: org.key, body: { sku: 'H-2', name: 'Two' } })).body.id;
    const store = (await server.graphql('mutation { createLocation(input: { code: "ST1", name: "Store" }) { ... on Location { id } } }', {}, org.key)).body.data.createLocation.id;
    const l1 = await addStock(server.app, org.org.id, { productMasterId: p1, locationId: org.warehouse.id }, { ON_HAND: 100, RESERVED: 1 });
    const l2 = await addStock(server.app, org.org.id, { productMasterId: p2, locationId: org.warehouse.id }, { ON_HAND: 100 });
    const l3 = await addStock(server.app, org.org.id, { productMasterId: p1, locationId: store }, { ON_HAND: 100 });
    for (let i = 1; i <= 3; i++) await adjustBy({ inventoryItemId: l1.id, delta: -i, reasonCodeId: 'LOST' }, org.key);
    await adjustBy({ inventoryItemId: l2.id, delta: 4, reasonCodeId: 'FOUND', comment: 'behind shelf' }, org.key);
    await adjust({ inventoryItemId: l3.id, newQtyOnHand: 90, reasonCodeId: 'DAMAGED' }, org.key);
    // dates: the three receipts on 2026-01-10, 11, 12
    const receipts = await server.app.prisma.stockTransaction.findMany({ where: { organizationId: org.org.id, transactionType: 'RECEIPT', bucket: 'ON_HAND' }, orderBy: { id: 'asc' } });
    for (const [i, row] of receipts.entries()) {
      await server.app.prisma.stockTransaction.update({ where: { id: row.id }, data: { createdAt: new Date(`2026-01-1${i}T23:30:00.000Z`) } });
    }
    const list = async (query: string) => {
      const res = await server.call('GET', `/api/inventory/adjustments${query}`, { token: org.key });
      expect(res.status, query).toBe(200);
      return res.body;
    };

    const all = await list('');
    expect(all.total).toBe(8);
    expect(all.entries.map((e: any) => e.transactionType)).toEqual(['ADJUSTMENT', 'ADJUSTMENT', 'ADJUSTMENT', 'ADJUSTMENT', 'ADJUSTMENT', 'RECEIPT', 'RECEIPT', 'RECEIPT']);
    expect(all.entries.slice(0, 5).map((e: any) => e.deltaQty)).toEqual([-10, 4, -3, -2, -1]);
    expect(Object.keys(all.entries[0]).sort()).toEqual(ENTRY_KEYS);
    expect(all.entries[1]).toMatchObject({ inventoryItemId: l2.id, qtyBefore: 100, qtyAfter: 104, reasonCode: 'FOUND', comment: 'behind shelf', bucket: 'ON_HAND' });
    expect(all.pagination).toEqual({ limit: 50, offset: 0, hasMore: false, page: 1, pageSize: 50, total: 8, totalPages: 1 });

    expect((await list(`?inventoryItemId=${l1.id}`)).entries.map((e: any) => e.deltaQty)).toEqual([-3, -2, -1, 100]);
    expect((await list(`?productMasterId=${p1}`)).total).toBe(6);
    expect((await list(`?locationId=${store}`)).entries.map((e: any) => e.inventoryItemId)).toEqual([l3.id, l3.id]);
    expect((await list(`?productMasterId=${p1}&locationId=${org.warehouse.id}`)).total).toBe(4);
    expect((await list('?transactionType=RECEIPT')).total).toBe(3);
    expect((await list('?transactionType=receipt,ADJUSTMENT')).total).toBe(8);
    expect((await list('?bucket=ALL')).total).toBe(9);
    expect((await list('?bucket=reserved')).entries.map((e: any) => [e.bucket, e.deltaQty])).toEqual([['RESERVED', 1]]);

    expect((await list('?startDate=2026-01-11&endDate=2026-01-11')).entries.map((e: any) => e.inventoryItemId)).toEqual([l2.id]);
    expect((await list('?startDate=2026-01-11&endDate=2026-01-12')).total).toBe(2);
    expect((await list('?endDate=2026-01-10')).total).toBe(1);
    expect((await list('?startDate=2026-01-13')).total).toBe(5);
    expect((await list('?startDate=2026-01-11T23:30:00.000Z&endDate=2026-01-12T23:29:59.999Z')).total).toBe(1);

    const page = await list('?limit=3&offset=3');
    expect(page.entries.map((e: any) => e.deltaQty)).toEqual([-2, -1, 100]);
    expect(page.pagination).toEqual({ limit: 3, offset: 3, hasMore: true, page: 2, pageSize: 3, total: 8, totalPages: 3 });
    const last = await list('?limit=3&offset=6');
    expect(last.entries).toHaveLength(2);
    expect(last.pagination.hasMore).toBe(false);
    expect((await list('?offset=100')).entries).toEqual([]);
    expect((await list('?limit=500')).entries).toHaveLength(8);

    for (const [query, field] of [['?limit=501', 'limit'], ['?limit=0', 'limit'], ['?limit=abc', 'limit'], ['?offset=-1', 'offset'], ['?startDate=yesterday', 'startDate'],
      ['?endDate=2026-02-30x', 'endDate'], ['?startDate=2026-02-02&endDate=2026-02-01', 'endDate'], ['?bucket=SIDEWAYS', 'bucket']]) {
      const res = await server.call('GET', `/api/inventory/adjustments${query}`, { token: org.key });
      expect(res.status, query).toBe(400);
      expect(Object.keys(res.body.details), query).toContain(field);
    }

    // GraphQL: the same rows as a connection and as a page
    const gql = await server.graphql(
      `query ($p: ID) { stockTransactions(first: 2, productMasterId: $p) { totalCount pageInfo { hasNextPage endCursor } edges { node { deltaQty } } }
        stockTransactionHistory(productMasterId: $p, limit: 2) { total hasMore entries { deltaQty } } }`,
      { p: p1 },
      org.key,
    );
    expect(gql.body.data.stockTransactions.totalCount).toBe(6);
    expect(gql.body.data.stockTransactions.edges.map((e: any) => e.node.deltaQty)).toEqual([-10, -3]);
    expect(gql.body.data.stockTransactionHistory).toEqual({ total: 6, hasMore: true, entries: [{ deltaQty: -10 }, { deltaQty: -3 }] });
    const next = await server.graphql(
      `query ($p: ID, $after: String) { stockTransactions(first: 10, after: $after, productMasterId: $p) { edges { node { deltaQty } } } }`,
      { p: p1, after: gql.body.data.stockTransactions.pageInfo.endCursor },
      org.key,
    );
    expect(next.body.data.stockTransactions.edges.map((e: any) => e.node.deltaQty)).toEqual([-2, -1, 100, 100]);

    // another organization sees none of it: filtering on this one's line is 404, as for an unknown id
    const foreign = await server.call('GET', `/api/inventory/adjustments?inventoryItemId=${l1.id}`, { token: b.key });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ code: 'NOT_FOUND' });
    const bAll = await server.call('GET', '/api/inventory/adjustments?bucket=ALL&limit=500', { token: b.key });
    const orgRows = new Set(all.entries.map((e: any) => e.id));
    expect(bAll.body.entries.some((e: any) => orgRows.has(e.id))).toBe(false);
    const bGql = await server.graphql(`query ($id: ID) { stockTransactions(inventoryItemId: $id) { totalCount } stockTransactionHistory(inventoryItemId: $id) { total } }`, { id: l1.id }, b.key);
    expect(bGql.body.errors.map((e: any) => e.extensions.code)).toContain('NOT_FOUND');
  });

  it('answers a page in the same number of queries for 2 or 20 entries', async () => {
    const org = await createTenant(server.app.prisma);
    const product = (await server.call('POST', '/api/products', { token: org.key, body: { sku: 'QC', name: 'Counted' } })).body.id;
    const line = await addStock(server.app, org.org.id, { productMasterId: product, locationId: org.warehouse.id }, { ON_HAND: 100 });
    for (let i = 0; i < 20; i++) await adjustBy({ inventoryItemId: line.id, delta: 1, reasonCodeId: 'FOUND' }, org.key);
    const count = async (limit: number) => {
      server.queries.length = 0;
      const res = await server.call('GET', `/api/inventory/adjustments?limit=${limit}&transactionType=ADJUSTMENT`, { token: org.key });
      expect(res.body.entries).toHaveLength(limit);
      return server.queries.length;
    };
    const small = await count(2);
    const large = await count(20);
    expect(large).toBe(small);
    // the API key lookup, the count and the page
    expect(large).toBeLessThanOrEqual(3);
  });
});
