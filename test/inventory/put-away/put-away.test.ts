import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct, graphqlData, graphqlRefusal } from '../../support/api.js';
import type { Tenant } from '../../support/fixtures.js';
import { REFUSAL } from '../../support/graphql.js';
import { expectLedgerBalanced } from '../../support/ledger-balance.js';
import type { TestServer } from '../../support/server.js';
import { addStock } from '../../support/stock.js';
import { startServerWithTwoTenants } from '../../support/two-tenants.js';

// Put-away: un-binned stock of a location with a suggested bin (GET), and moves into bins (POST) through the ledger.
let server: TestServer;
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants());
});
afterAll(() => server?.close());

const call = (method: string, path: string, body?: unknown, token = a.key) => server.call(method, path, { token, body });
const tasksAt = (query: string, token = a.key) => call('GET', `/api/inventory/put-away?${query}`, undefined, token);
const confirm = (body: unknown, token = a.key) => call('POST', '/api/inventory/put-away', body, token);
const qty = async (id: string) => (await server.app.prisma.stockLine.findUniqueOrThrow({ where: { id } })).qtyOnHand;
type Task = { stockLineId: string; sku: string; qtyToPutAway: number; suggestedBinCode: string | null; suggestionRule: string };

/**
 * A location of its own with bins A-EMPTY (nothing in it), B-PROD (product 2, lot L9), C-LOT (product 2,
 * lot L2), D-PREF (product 1's preferred bin, empty) and E-P3 (product 3, lot M1); un-binned stock of
 * products 1 (lot L1, 10 on hand, 2 reserved), 2 (lot L2, 5), 3 (lot M2, 4), 4 (no lot, 3), and of an expired lot.
 */
async function receivingArea(tag: string) {
  const organizationId = a.org.id;
  const location = await server.app.prisma.location.create({ data: { organizationId, code: `PA-${tag}`, name: `Put-away ${tag}` } });
  const at = (productMasterId: string, extra: { lotCode?: string; expiryDate?: string; binCode?: string } = {}) => ({ productMasterId, locationId: location.id, ...extra });
  const [p1, p2, p3, p4, p5] = await Promise.all([1, 2, 3, 4, 5].map((n) => createProduct(server, a.key, `${tag}-${n}`)));
  const empty = await server.app.prisma.bin.create({ data: { organizationId, locationId: location.id, code: 'A-EMPTY' } });
  const preferred = await server.app.prisma.bin.create({ data: { organizationId, locationId: location.id, code: 'D-PREF' } });
  await server.app.prisma.inventoryLevel.create({ data: { organizationId, productMasterId: p1!, locationId: location.id, minQuantity: 1, reorderQuantity: 5, maxQuantity: 10, preferredBinLocationId: preferred.id } });
  await addStock(server.app, organizationId, at(p2!, { lotCode: 'L9', binCode: 'B-PROD' }), { ON_HAND: 1 });
  await addStock(server.app, organizationId, at(p2!, { lotCode: 'L2', binCode: 'C-LOT' }), { ON_HAND: 1 });
  await addStock(server.app, organizationId, at(p3!, { lotCode: 'M1', binCode: 'E-P3' }), { ON_HAND: 2 });
  const line1 = await addStock(server.app, organizationId, at(p1!, { lotCode: 'L1', expiryDate: '2031-01-01' }), { ON_HAND: 10, RESERVED: 2 });
  const line2 = await addStock(server.app, organizationId, at(p2!, { lotCode: 'L2' }), { ON_HAND: 5 });
  const line3 = await addStock(server.app, organizationId, at(p3!, { lotCode: 'M2' }), { ON_HAND: 4 });
  const line4 = await addStock(server.app, organizationId, at(p4!), { ON_HAND: 3 });
  await addStock(server.app, organizationId, at(p5!, { lotCode: 'OLD', expiryDate: '2020-01-01' }), { ON_HAND: 6 });
  return { location, products: [p1!, p2!, p3!, p4!], lines: [line1, line2, line3, line4], empty, preferred };
}

describe('put-away tasks', () => {
  it('lists un-binned stock with a bin suggested by each rule in turn, with filters and paging', async () => {
    const { location, products, lines } = await receivingArea('PL');
    const listed = await tasksAt(`locationId=${location.id}`);
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.tasks.map((t: Task) => [t.sku, t.stockLineId, t.qtyToPutAway, t.suggestedBinCode, t.suggestionRule])).toEqual([
      ['PL-1', lines[0]!.id, 8, 'D-PREF', 'PREFERRED_BIN'],
      ['PL-2', lines[1]!.id, 5, 'C-LOT', 'SAME_LOT'],
      ['PL-3', lines[2]!.id, 4, 'E-P3', 'SAME_PRODUCT'],
      ['PL-4', lines[3]!.id, 3, 'A-EMPTY', 'EMPTY_BIN'],
    ]);
    expect(listed.body).toMatchObject({ total: 4, limit: 50, offset: 0 });
    expect(listed.body.data).toEqual(listed.body.tasks);
    expect(listed.body.tasks[0]).toMatchObject({ locationId: location.id, productMasterId: products[0], lotCode: 'L1', expiryDate: '2031-01-01', qtyOnHand: 10 });

    const page = await tasksAt(`locationId=${location.id}&limit=2&offset=1`);
    expect(page.body.tasks.map((t: Task) => t.sku)).toEqual(['PL-2', 'PL-3']);
    expect(page.body.total).toBe(4);
    expect((await tasksAt(`locationId=${location.id}&productMasterId=${products[2]}`)).body.tasks.map((t: Task) => t.sku)).toEqual(['PL-3']);
    expect((await tasksAt(`locationId=${location.id}&lotId=${lines[1]!.lotId}`)).body.tasks.map((t: Task) => t.sku)).toEqual(['PL-2']);

    // No bin left to suggest once every bin holds something: NONE.
    const bare = await server.app.prisma.location.create({ data: { organizationId: a.org.id, code: 'PL-BARE', name: 'No bins' } });
    await addStock(server.app, a.org.id, { productMasterId: products[3]!, locationId: bare.id }, { ON_HAND: 1 });
    expect((await tasksAt(`locationId=${bare.id}`)).body.tasks.map((t: Task) => [t.suggestedBinCode, t.suggestionRule])).toEqual([[null, 'NONE']]);
  });

  it('refuses a missing or bad query: 400 naming it; ids of another organization: 404', async () => {
    const missing = await call('GET', '/api/inventory/put-away');
    expect(missing.status).toBe(400);
    expect(missing.body.details.locationId).toBeDefined();
    expect((await tasksAt(`locationId=${a.warehouse.id}&limit=0`)).body.details.limit).toBeDefined();
    expect((await tasksAt(`locationId=${b.warehouse.id}`)).status).toBe(404);
    const theirProduct = await createProduct(server, b.key, 'PB-1');
    expect((await tasksAt(`locationId=${a.warehouse.id}&productMasterId=${theirProduct}`)).status).toBe(404);
  });
});

describe('confirming a put-away', () => {
  it('moves partial quantities into the suggested bin, a bin by code and a bin by id, with PUT_AWAY ledger rows', async () => {
    const { location, lines, empty, preferred } = await receivingArea('PC');
    const done = await confirm({
      locationId: location.id,
      comment: 'Dock 2',
      lines: [
        { stockLineId: lines[0]!.id, quantity: 5 },
        { stockLineId: lines[1]!.id, quantity: 2, binCode: 'A-EMPTY' },
        { stockLineId: lines[3]!.id, quantity: 3, binId: empty.id },
      ],
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.lines.map((l: { stockLineId: string; binId: string; quantity: number; lotId: string | null }) => [l.stockLineId, l.binId, l.quantity, l.lotId])).toEqual([
      [lines[0]!.id, preferred.id, 5, lines[0]!.lotId],
      [lines[1]!.id, empty.id, 2, lines[1]!.lotId],
      [lines[3]!.id, empty.id, 3, null],
    ]);
    expect(await Promise.all(lines.map((l) => qty(l.id)))).toEqual([5, 3, 4, 0]);
    const into = await server.app.prisma.stockLine.findUniqueOrThrow({ where: { id: done.body.lines[0].toStockLineId } });
    expect(into).toMatchObject({ binId: preferred.id, lotId: lines[0]!.lotId, qtyOnHand: 5, qtyReserved: 0 });
    const rows = await server.app.prisma.stockTransaction.findMany({ where: { sourceId: done.body.putAwayId }, orderBy: { seq: 'asc' } });
    expect(rows.map((r) => [r.transactionType, r.sourceType, r.deltaQty, r.comment])).toEqual([
      ['PUT_AWAY', 'PUT_AWAY', -5, 'Dock 2'],
      ['PUT_AWAY', 'PUT_AWAY', -2, 'Dock 2'],
      ['PUT_AWAY', 'PUT_AWAY', -3, 'Dock 2'],
      ['PUT_AWAY', 'PUT_AWAY', 5, 'Dock 2'],
      ['PUT_AWAY', 'PUT_AWAY', 2, 'Dock 2'],
      ['PUT_AWAY', 'PUT_AWAY', 3, 'Dock 2'],
    ]);
    // What is left: 3 of product 1 (5 on hand, 2 reserved), 3 of product 2, 4 of product 3; product 4 is all in a bin.
    const after = await tasksAt(`locationId=${location.id}`);
    expect(after.body.tasks.map((t: Task) => [t.sku, t.qtyToPutAway])).toEqual([['PC-1', 3], ['PC-2', 3], ['PC-3', 4]]);
  });

  it('refuses, changing nothing: more than available (lines.N.quantity), bins and lines elsewhere or unknown, 400 naming the field', async () => {
    const { location, lines } = await receivingArea('PR');
    const otherBin = await server.app.prisma.bin.create({ data: { organizationId: a.org.id, locationId: a.warehouse.id, code: 'ELSEWHERE' } });
    const theirBin = await server.app.prisma.bin.create({ data: { organizationId: b.org.id, locationId: b.warehouse.id, code: 'B-THEIRS' } });
    const theirProduct = await createProduct(server, b.key, 'PR-B');
    const theirLine = await addStock(server.app, b.org.id, { productMasterId: theirProduct, locationId: b.warehouse.id }, { ON_HAND: 5 });
    const binned = await server.app.prisma.stockLine.findFirstOrThrow({ where: { locationId: location.id, binId: { not: null } } });
    const ledgerRows = () => server.app.prisma.stockTransaction.count({ where: { organizationId: { in: [a.org.id, b.org.id] } } });
    const before = await ledgerRows();
    const refused = async (body: unknown, code: string, details: Record<string, unknown>) => {
      const res = await confirm(body);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.code).toBe(code);
      expect(res.body.details).toEqual(details);
    };
    const base = { locationId: location.id };
    // 8 available on line 1 (2 reserved): 9 is too many; the first, good line is not moved either.
    await refused({ ...base, lines: [{ stockLineId: lines[2]!.id, quantity: 1 }, { stockLineId: lines[0]!.id, quantity: 9 }] }, 'INSUFFICIENT_STOCK', { 'lines.1.quantity': [expect.stringContaining('Only 8')] });
    // The same line twice asks for the sum.
    await refused({ ...base, lines: [{ stockLineId: lines[3]!.id, quantity: 2 }, { stockLineId: lines[3]!.id, quantity: 2 }] }, 'INSUFFICIENT_STOCK', { 'lines.1.quantity': [expect.any(String)] });
    await refused({ ...base, lines: [{ stockLineId: lines[0]!.id, quantity: 1, binId: otherBin.id }] }, 'VALIDATION_ERROR', { 'lines.0.binId': ['Not a bin of this location'] });
    await refused({ ...base, lines: [{ stockLineId: lines[0]!.id, quantity: 1, binId: theirBin.id }] }, 'VALIDATION_ERROR', { 'lines.0.binId': ['Bin not found'] });
    await refused({ ...base, lines: [{ stockLineId: lines[0]!.id, quantity: 1, binCode: 'ELSEWHERE' }] }, 'VALIDATION_ERROR', { 'lines.0.binCode': [expect.any(String)] });
    await refused({ ...base, lines: [{ stockLineId: theirLine.id, quantity: 1 }] }, 'VALIDATION_ERROR', { 'lines.0.stockLineId': ['Stock line not found'] });
    await refused({ ...base, lines: [{ stockLineId: binned.id, quantity: 1, binCode: 'A-EMPTY' }] }, 'VALIDATION_ERROR', { 'lines.0.stockLineId': ['Not un-binned stock of this location'] });
    await refused({ locationId: b.warehouse.id, lines: [{ stockLineId: lines[0]!.id, quantity: 1 }] }, 'VALIDATION_ERROR', { locationId: ['Location not found'] });
    await refused({ ...base, lines: [{ stockLineId: lines[0]!.id, quantity: 0, binId: 'x', binCode: 'y' }] }, 'VALIDATION_ERROR', { 'lines.0.quantity': [expect.any(String)], 'lines.0.binCode': [expect.any(String)] });
    await refused({ ...base, lines: [] }, 'VALIDATION_ERROR', { lines: [expect.any(String)] });
    expect(await ledgerRows()).toBe(before);
    expect(await Promise.all(lines.map((l) => qty(l.id)))).toEqual([10, 5, 4, 3]);
    expect(await qty(theirLine.id)).toBe(5);
  });

  it('needs inventory.read to list and inventory.write to confirm; another organization sees none of it', async () => {
    const { location, lines } = await receivingArea('PP');
    const reader = await a.keyWith(['inventory:read']);
    expect((await tasksAt(`locationId=${location.id}`, reader)).status).toBe(200);
    expect((await confirm({ locationId: location.id, lines: [{ stockLineId: lines[0]!.id, quantity: 1 }] }, reader)).status).toBe(403);
    const none = await a.keyWith(['forecast:read']);
    expect((await tasksAt(`locationId=${location.id}`, none)).status).toBe(403);
    expect(await qty(lines[0]!.id)).toBe(10);
    expect((await tasksAt(`locationId=${location.id}`, b.key)).status).toBe(404);
    expect((await confirm({ locationId: location.id, lines: [{ stockLineId: lines[0]!.id, quantity: 1 }] }, b.key)).status).toBe(400);
    const theirs = await tasksAt(`locationId=${b.warehouse.id}`, b.key);
    expect(theirs.status).toBe(200);
    expect(theirs.body.tasks.every((t: Task) => !lines.some((l) => l.id === t.stockLineId))).toBe(true);
  });

  it('GraphQL: putAwayTasks as a connection and confirmPutAway with a typed refusal', async () => {
    const { location, lines, empty } = await receivingArea('PG');
    const data = await graphqlData(
      server,
      a.key,
      `query ($locationId: ID!) { putAwayTasks(locationId: $locationId, first: 2) { totalCount pageInfo { hasNextPage } edges { node { sku suggestionRule suggestedBin { code } } } } }`,
      { locationId: location.id },
    );
    expect(data.putAwayTasks.totalCount).toBe(4);
    expect(data.putAwayTasks.pageInfo.hasNextPage).toBe(true);
    expect(data.putAwayTasks.edges.map((e: { node: { sku: string; suggestionRule: string; suggestedBin: { code: string } } }) => [e.node.sku, e.node.suggestionRule, e.node.suggestedBin.code])).toEqual([
      ['PG-1', 'PREFERRED_BIN', 'D-PREF'],
      ['PG-2', 'SAME_LOT', 'C-LOT'],
    ]);
    const mutation = `mutation ($input: PutAwayConfirmInput!) { confirmPutAway(input: $input) { ... on PutAwayConfirmation { putAwayId lines { quantity bin { code } } } ${REFUSAL} } }`;
    const refusal = await graphqlRefusal(server, a.key, mutation, { input: { locationId: location.id, lines: [{ stockLineId: lines[2]!.id, quantity: 5 }] } });
    expect(refusal).toMatchObject({ type: 'InsufficientStockError', code: 'INSUFFICIENT_STOCK', details: { 'lines.0.quantity': [expect.any(String)] } });
    const ok = await graphqlData(server, a.key, mutation, { input: { locationId: location.id, lines: [{ stockLineId: lines[2]!.id, quantity: 4, binId: empty.id }] } });
    expect(ok.confirmPutAway.lines).toEqual([{ quantity: 4, bin: { code: 'A-EMPTY' } }]);
    expect(await qty(lines[2]!.id)).toBe(0);
  });
});

describe('the ledger', () => {
  it('accounts for the quantities of every stock line the file touched', () => expectLedgerBalanced(server.app.prisma));
});
