import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tenant } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';
import { addStock } from '../../support/stock.js';
import { startServerWithTwoTenants } from '../../support/two-tenants.js';
import { graphqlRefusal } from '../../support/api.js';
import { REFUSAL } from '../../support/graphql.js';
import { expectLedgerBalanced } from '../../support/ledger-balance.js';

// POST /api/inventory/availability/{id} and GraphQL moveStock: moving quantity between a line's buckets.
let server: TestServer;
let a: Tenant;
let b: Tenant;
let productId: string;
let n = 0;

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants());
  const res = await server.call('POST', '/api/products', { token: a.key, body: { sku: 'MOVE-1', name: 'Moved' } });
  productId = res.body.id;
});
afterAll(() => server?.close());

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
/** A fresh line of MOVE-1 in its own lot. */
const freshLine = (deltas: Parameters<typeof addStock>[3], lot: { expiryDate?: string; recalled?: boolean } = {}) =>
  addStock(server.app, a.org.id, { productMasterId: productId, locationId: a.warehouse.id, lotCode: `M${n++}`, ...lot }, deltas);
const move = (id: string, body: unknown, token = a.key) => server.call('POST', `/api/inventory/availability/${id}`, { token, body });
const ledger = (stockLineId: string) =>
  server.app.prisma.stockTransaction.findMany({ where: { stockLineId, transactionType: { not: 'RECEIPT' } }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
const quantities = async (id: string) => {
  const { qtyOnHand, qtyReserved, qtyOnHold, qtyPicked, qtyRecalled, qtyExpired } = await server.app.prisma.stockLine.findUniqueOrThrow({ where: { id } });
  return { qtyOnHand, qtyReserved, qtyOnHold, qtyPicked, qtyRecalled, qtyExpired };
};

describe('moving quantity between buckets', () => {
  it('applies every action with one ledger row per changed bucket whose before/after values chain', async () => {
    const line = await freshLine({ ON_HAND: 100 });
    const reserve = await move(line.id, { action: 'RESERVE', quantity: 10, comment: 'order 7', sourceType: 'ORDER', sourceId: 'SO-7' });
    expect(reserve.status).toBe(200);
    expect(Object.keys(reserve.body).sort()).toEqual(['inventoryItem', 'success', 'transactions']);
    expect(reserve.body.success).toBe(true);
    expect(reserve.body.inventoryItem).toMatchObject({ id: line.id, qtyOnHand: 100, qtyReserved: 10, qtyAvailable: 90 });
    expect(reserve.body.transactions).toHaveLength(1);
    expect(reserve.body.transactions[0]).toMatchObject({
      inventoryItemId: line.id, transactionType: 'RESERVE', bucket: 'RESERVED', deltaQty: 10, qtyBefore: 0, qtyAfter: 10,
      comment: 'order 7', sourceType: 'ORDER', sourceId: 'SO-7', actorType: 'API_KEY', reasonCodeId: null,
    });

    const pick = await move(line.id, { action: 'PICK', quantity: 4 });
    expect(pick.body.transactions.map((t: any) => [t.bucket, t.deltaQty, t.qtyBefore, t.qtyAfter])).toEqual([['RESERVED', -4, 10, 6], ['PICKED', 4, 0, 4]]);
    for (const [action, quantity] of [['UNPICK', 1], ['RELEASE', 2], ['HOLD', 5], ['RELEASE_HOLD', 2], ['RECALL', 3], ['RELEASE_RECALL', 1], ['EXPIRE', 1]] as const) {
      const res = await move(line.id, { action, quantity });
      expect(res.status, action).toBe(200);
    }
    expect(await quantities(line.id)).toEqual({ qtyOnHand: 100, qtyReserved: 5, qtyOnHold: 3, qtyPicked: 3, qtyRecalled: 2, qtyExpired: 1 });
    const read = await server.call('GET', `/api/inventory/availability/${line.id}`, { token: a.key });
    expect(read.body.qtyAvailable).toBe(100 - 5 - 3 - 3 - 2 - 1);

    const rows = await ledger(line.id);
    expect(rows.map((r) => r.transactionType)).toEqual(['RESERVE', 'PICK', 'PICK', 'UNPICK', 'UNPICK', 'RELEASE', 'HOLD', 'RELEASE_HOLD', 'RECALL', 'RELEASE_RECALL', 'EXPIRE']);
    const last: Record<string, number> = {};
    for (const row of rows) {
      expect(row.qtyBefore, `${row.transactionType} ${row.bucket}`).toBe(last[row.bucket] ?? 0);
      expect(row.qtyAfter).toBe(row.qtyBefore + row.deltaQty);
      last[row.bucket] = row.qtyAfter;
    }
    expect(last).toEqual({ RESERVED: 5, PICKED: 3, ON_HOLD: 3, RECALLED: 2, EXPIRED: 1 });
  });

  it('records a reason code of the organization and refuses an unknown one', async () => {
    const line = await freshLine({ ON_HAND: 5 });
    const damaged = await server.app.prisma.reasonCode.findFirstOrThrow({ where: { organizationId: a.org.id, code: 'DAMAGED' } });
    const held = await move(line.id, { action: 'HOLD', quantity: 2, reasonCodeId: damaged.id });
    expect(held.body.transactions[0]).toMatchObject({ reasonCodeId: damaged.id, reasonCode: 'DAMAGED' });
    const theirs = await server.app.prisma.reasonCode.findFirstOrThrow({ where: { organizationId: b.org.id, code: 'DAMAGED' } });
    const foreign = await move(line.id, { action: 'HOLD', quantity: 1, reasonCodeId: theirs.id });
    expect(foreign.status).toBe(400);
    expect(foreign.body.details.reasonCodeId).toEqual(['Unknown reason code']);
    expect((await quantities(line.id)).qtyOnHold).toBe(2);
  });

  it('refuses a move beyond what the line allows with INSUFFICIENT_STOCK and changes nothing', async () => {
    const line = await freshLine({ ON_HAND: 10, RESERVED: 4, ON_HOLD: 2 });
    const before = await quantities(line.id);
    for (const [action, quantity] of [['RESERVE', 5], ['HOLD', 5], ['RECALL', 5], ['EXPIRE', 5], ['RELEASE', 5], ['PICK', 5], ['UNPICK', 1], ['RELEASE_HOLD', 3], ['RELEASE_RECALL', 1]] as const) {
      const res = await move(line.id, { action, quantity });
      expect(res.status, action).toBe(400);
      expect(res.body.code, action).toBe('INSUFFICIENT_STOCK');
    }
    expect(await quantities(line.id)).toEqual(before);
    expect(await ledger(line.id)).toEqual([]);
    // exactly what is available can be reserved
    expect((await move(line.id, { action: 'RESERVE', quantity: 4 })).body.inventoryItem).toMatchObject({ qtyReserved: 8, qtyAvailable: 0 });
  });

  it('refuses to reserve or pick stock of an expired or recalled lot, but lets a reservation go', async () => {
    const expired = await freshLine({ ON_HAND: 10, RESERVED: 2 }, { expiryDate: day(-1) });
    const recalled = await freshLine({ ON_HAND: 10 }, { recalled: true });
    const today = await freshLine({ ON_HAND: 10 }, { expiryDate: day(0) });
    for (const [id, action] of [[expired.id, 'RESERVE'], [expired.id, 'PICK'], [recalled.id, 'RESERVE']] as const) {
      const res = await move(id, { action, quantity: 1 });
      expect(res.status, action).toBe(400);
      expect(res.body.code).toBe('INSUFFICIENT_STOCK');
    }
    expect((await move(expired.id, { action: 'RELEASE', quantity: 2 })).status).toBe(200);
    expect((await move(recalled.id, { action: 'RECALL', quantity: 10 })).status).toBe(200);
    expect((await move(today.id, { action: 'RESERVE', quantity: 10 })).status).toBe(200);
  });

  it('answers 400 with details for an invalid body', async () => {
    const line = await freshLine({ ON_HAND: 10 });
    const cases: [unknown, string][] = [
      [{ quantity: 1 }, 'action'],
      [{ action: 'SHIP', quantity: 1 }, 'action'],
      [{ action: 'RESERVE' }, 'quantity'],
      [{ action: 'RESERVE', quantity: 0 }, 'quantity'],
      [{ action: 'RESERVE', quantity: -2 }, 'quantity'],
      [{ action: 'RESERVE', quantity: 1.5 }, 'quantity'],
      [{ action: 'RESERVE', quantity: 1, comment: 'x'.repeat(2001) }, 'comment'],
      [{ action: 'RESERVE', quantity: 1, extra: true }, 'extra'],
    ];
    for (const [body, field] of cases) {
      const res = await move(line.id, body);
      expect(res.status, field).toBe(400);
      expect(res.body.details?.[field], `${field}: ${JSON.stringify(res.body)}`).toBeDefined();
    }
    expect(await ledger(line.id)).toEqual([]);
  });

  it('needs inventory.write; another organization gets 404 and the line is untouched', async () => {
    const line = await freshLine({ ON_HAND: 10 });
    expect((await move(line.id, { action: 'RESERVE', quantity: 1 }, '')).status).toBe(401);
    const reader = await a.keyWith(['inventory:read']);
    const refused = await move(line.id, { action: 'RESERVE', quantity: 1 }, reader);
    expect(refused.status).toBe(403);
    const foreign = await move(line.id, { action: 'RESERVE', quantity: 1 }, b.key);
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('NOT_FOUND');
    expect((await move('no-such-line', { action: 'RESERVE', quantity: 1 })).status).toBe(404);
    const gql = await graphqlRefusal(server, b.key, `mutation ($id: ID!) { moveStock(id: $id, input: { action: RESERVE, quantity: 1 }) { ... on StockMoveResult { success } ${REFUSAL} } }`, { id: line.id });
    expect(gql).toMatchObject({ type: 'NotFoundError', code: 'NOT_FOUND' });
    const gqlReader = await server.graphql(`mutation ($id: ID!) { moveStock(id: $id, input: { action: RESERVE, quantity: 1 }) { ... on StockMoveResult { success } } }`, { id: line.id }, reader);
    expect(gqlReader.body.errors[0].extensions.code).toBe('INSUFFICIENT_SCOPE');
    expect((await quantities(line.id)).qtyReserved).toBe(0);
    expect(await ledger(line.id)).toEqual([]);
  });

  it('moves through GraphQL moveStock', async () => {
    const line = await freshLine({ ON_HAND: 3 });
    const res = await server.graphql(
      `mutation ($id: ID!) { moveStock(id: $id, input: { action: HOLD, quantity: 3, comment: "QA" }) { ... on StockMoveResult {
        success inventoryItem { qtyOnHold qtyAvailable } transactions { bucket deltaQty qtyBefore qtyAfter comment } } } }`,
      { id: line.id },
      a.key,
    );
    expect(res.body.data.moveStock).toEqual({
      success: true,
      inventoryItem: { qtyOnHold: 3, qtyAvailable: 0 },
      transactions: [{ bucket: 'ON_HOLD', deltaQty: 3, qtyBefore: 0, qtyAfter: 3, comment: 'QA' }],
    });
  });
});

describe('concurrent moves on one line', () => {
  it('20 concurrent reservations of 10 against 100 available: exactly 10 succeed', async () => {
    const line = await freshLine({ ON_HAND: 100 });
    const settled = await Promise.allSettled(Array.from({ length: 20 }, () => move(line.id, { action: 'RESERVE', quantity: 10 })));
    const responses = settled.map((s) => (s.status === 'fulfilled' ? s.value : { status: 0, body: { code: String(s.reason) } }));
    expect(responses.filter((r) => r.status === 200)).toHaveLength(10);
    const refused = responses.filter((r) => r.status !== 200);
    expect(refused).toHaveLength(10);
    expect(refused.every((r) => r.status === 400 && r.body.code === 'INSUFFICIENT_STOCK')).toBe(true);
    expect(await quantities(line.id)).toMatchObject({ qtyOnHand: 100, qtyReserved: 100 });
    const rows = await ledger(line.id);
    expect(rows).toHaveLength(10);
    expect(rows.map((r) => [r.qtyBefore, r.qtyAfter]).sort((x, y) => x[0]! - y[0]!)).toEqual(Array.from({ length: 10 }, (_, i) => [i * 10, i * 10 + 10]));
  });

  it('concurrent reserve and release end with the exact sum', async () => {
    const line = await freshLine({ ON_HAND: 50, RESERVED: 20 });
    const moves = [...Array.from({ length: 15 }, () => ({ action: 'RESERVE', quantity: 2 })), ...Array.from({ length: 10 }, () => ({ action: 'RELEASE', quantity: 1 }))];
    const settled = await Promise.allSettled(moves.map((body) => move(line.id, body)));
    expect(settled.every((s) => s.status === 'fulfilled' && s.value.status === 200)).toBe(true);
    expect((await quantities(line.id)).qtyReserved).toBe(20 + 30 - 10);
    const rows = await ledger(line.id);
    expect(rows).toHaveLength(25);
    // The rows chain: every quantity a row starts from is where another row ended (or the start, 20),
    // and every quantity a row ends at is where another starts (or the end, 40).
    const starts = [...rows.map((r) => r.qtyBefore), 40].sort((x, y) => x - y);
    const ends = [20, ...rows.map((r) => r.qtyAfter)].sort((x, y) => x - y);
    expect(starts).toEqual(ends);
    for (const row of rows) expect(row.qtyAfter - row.qtyBefore).toBe(row.deltaQty);
  });
});

describe('the ledger', () => {
  it('accounts for the quantities of every stock line the file touched', () => expectLedgerBalanced(server.app.prisma));
});
