import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct } from '../../support/api.js';
import type { Tenant } from '../../support/fixtures.js';
import { expectLedgerBalanced } from '../../support/ledger-balance.js';
import type { TestServer } from '../../support/server.js';
import { addStock } from '../../support/stock.js';
import { startServerWithTwoTenants } from '../../support/two-tenants.js';

let server: TestServer;
let a: Tenant;
let b: Tenant;
let product: string;
const line: Record<string, string> = {};
let lotOld: string;

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants());
  product = await createProduct(server, a.key, 'EXP-1');
  await server.app.prisma.productMaster.update({ where: { id: product }, data: { unitCost: 2.5 } });
  const at = { productMasterId: product, locationId: a.warehouse.id };
  const old = await addStock(server.app, a.org.id, { ...at, lotCode: 'OLD', expiryDate: day(-10) }, { ON_HAND: 10, RESERVED: 2 });
  line.old = old.id;
  lotOld = old.lotId!;
  line.recent = (await addStock(server.app, a.org.id, { ...at, lotCode: 'RECENT', expiryDate: day(-1) }, { ON_HAND: 4 })).id;
  line.fresh = (await addStock(server.app, a.org.id, { ...at, lotCode: 'FRESH', expiryDate: day(60) }, { ON_HAND: 6 })).id;
  const foreignProduct = await createProduct(server, b.key, 'EXP-1');
  line.foreign = (await addStock(server.app, b.org.id, { productMasterId: foreignProduct, locationId: b.warehouse.id, lotCode: 'B', expiryDate: day(-5) }, { ON_HAND: 3 })).id;
}, 60_000);
afterAll(() => server?.close());

const get = (query = '', token = a.key) => server.call('GET', `/api/inventory/expired${query}`, { token });
const post = (path: string, body: unknown, token = a.key) => server.call('POST', `/api/inventory/expired/${path}`, { token, body });
const snapshot = () => server.app.prisma.stockLine.findMany({ orderBy: { id: 'asc' } });

describe('expired stock: GET /api/inventory/expired', () => {
  it('lists lines of expired lots, oldest first, with totals in units and value', async () => {
    const res = await get();
    expect(res.status).toBe(200);
    expect(res.body.data.map((l: any) => [l.lotCode, l.daysExpired, l.qtyOnHand, l.qtyAvailable, l.value])).toEqual([
      ['OLD', 10, 10, 8, 25],
      ['RECENT', 1, 4, 4, 10],
    ]);
    expect(res.body.totals).toEqual({ lines: 2, units: 14, expiredUnits: 0, value: 35 });
    expect(res.body.pagination).toEqual({ limit: 100, offset: 0, total: 2, hasMore: false });
  });

  it('filters by asOf, minDaysExpired, lot, location and product; pages', async () => {
    expect((await get(`?minDaysExpired=5`)).body.data.map((l: any) => l.lotCode)).toEqual(['OLD']);
    expect((await get(`?asOf=${day(-5)}`)).body.data.map((l: any) => l.lotCode)).toEqual(['OLD']);
    expect((await get(`?asOf=${day(61)}`)).body.totals.lines).toBe(3);
    expect((await get(`?lotId=${lotOld}&locationId=${a.warehouse.id}&productMasterId=${product}`)).body.totals.lines).toBe(1);
    const page = await get('?limit=1&offset=1');
    expect(page.body).toMatchObject({ data: [{ lotCode: 'RECENT' }], pagination: { total: 2, hasMore: false } });
  });

  it('404 for foreign filter ids, 400 for bad parameters, 403 without inventory.read', async () => {
    expect((await get(`?locationId=${b.warehouse.id}`)).status).toBe(404);
    expect((await get('?lotId=unknown')).status).toBe(404);
    expect((await get('?asOf=2026-02-30')).status).toBe(400);
    expect((await get('?limit=501')).status).toBe(400);
    expect((await get('?colour=red')).status).toBe(400);
    expect((await get('', await a.keyWith(['reports:read']))).status).toBe(403);
    expect((await get('', await a.keyWith(['inventory:read']))).status).toBe(200);
  });
});

describe('expired stock: actions', () => {
  it('refuses, changing nothing: unexpired lines, foreign ids, non-admin force, too many units, no permission', async () => {
    const before = await snapshot();
    const refused = async (path: string, body: unknown, field: string, token = a.key) => {
      const res = await post(path, body, token);
      expect(res.status, field).toBe(400);
      expect(res.body.details, field).toHaveProperty([field]);
    };
    await refused('mark-expired', { lines: [{ stockLineId: line.old }, { stockLineId: line.fresh }] }, 'lines.1.stockLineId');
    await refused('mark-expired', { lines: [{ stockLineId: line.foreign }] }, 'lines.0.stockLineId');
    await refused('mark-consumed', { lines: [{ stockLineId: line.old, quantity: 11 }] }, 'lines.0.quantity');
    await refused('mark-expired', { lotId: lotOld, locationId: b.warehouse.id }, 'locationId');
    await refused('mark-expired', {}, 'lines');
    await refused('mark-expired', { lines: [{ stockLineId: line.old }], reasonCodeId: 'NOPE' }, 'reasonCodeId');
    const writer = await a.keyWith(['inventory:write', 'inventory:read']);
    const forced = await post('mark-expired', { lines: [{ stockLineId: line.fresh }], force: true }, writer);
    expect(forced.status).toBe(403);
    expect(forced.body.code).toBe('FORBIDDEN');
    expect((await post('mark-expired', { lines: [{ stockLineId: line.old }] }, await a.keyWith(['inventory:read']))).status).toBe(403);
    expect((await post('mark-expired', { lines: [{ stockLineId: line.old }], colour: 'red' })).status).toBe(400);
    expect(await snapshot()).toEqual(before);
  });

  it('mark-expired moves available units into expired with EXPIRE ledger rows', async () => {
    const res = await post('mark-expired', { lines: [{ stockLineId: line.old }], note: 'shelf sweep' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, action: 'EXPIRE', totalQuantity: 8, lines: [{ stockLineId: line.old, quantity: 8, qtyOnHand: 10, qtyExpired: 8 }] });
    const rows = await server.app.prisma.stockTransaction.findMany({ where: { stockLineId: line.old, transactionType: 'EXPIRE' } });
    expect(rows).toMatchObject([{ bucket: 'EXPIRED', deltaQty: 8, reasonCode: 'EXPIRED', comment: 'shelf sweep' }]);
    expect((await get()).body.totals.expiredUnits).toBe(8);
  });

  it('mark-consumed by lot writes units off on hand, expired ones first', async () => {
    const res = await post('mark-consumed', { lotId: lotOld, reasonCodeId: 'sample' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ action: 'CONSUME', totalQuantity: 8, lines: [{ stockLineId: line.old, quantity: 8, qtyOnHand: 2, qtyExpired: 0 }] });
    const rows = await server.app.prisma.stockTransaction.findMany({ where: { stockLineId: line.old, transactionType: 'CONSUME' } });
    expect(rows.map((r) => [r.bucket, r.deltaQty, r.reasonCode]).sort()).toEqual([
      ['EXPIRED', -8, 'SAMPLE'],
      ['ON_HAND', -8, 'SAMPLE'],
    ]);
  });

  it('an admin may force an unexpired line; GraphQL markExpired answers typed refusals', async () => {
    const res = await post('mark-expired', { lines: [{ stockLineId: line.fresh, quantity: 2 }], force: true });
    expect(res.body).toMatchObject({ totalQuantity: 2, lines: [{ qtyExpired: 2 }] });
    const gql = await server.graphql(
      `mutation ($input: ExpiredStockActionInput!) { markExpired(input: $input) { __typename ... on ExpiredStockActionResult { totalQuantity } ... on MutationError { code } } }`,
      { input: { lines: [{ stockLineId: line.fresh }] } },
      a.key,
    );
    expect(JSON.stringify(gql.body)).toContain('VALIDATION_ERROR');
    await expectLedgerBalanced(server.app.prisma);
  });
});
