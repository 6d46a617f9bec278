import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tenant } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';
import { addStock } from '../../support/stock.js';
import { startServerWithTwoTenants } from '../../support/two-tenants.js';
import { expectLedgerBalanced } from '../../support/ledger-balance.js';

// POST /api/inventory/adjust and adjustStockBy run as one statement (reason lookup, guarded UPDATE,
// ledger INSERT); these tests pin what that must keep: the order in which refusals are explained, the
// answer's ledger row, its relations through GraphQL, and the history order of fast successive changes.
let server: TestServer;
let a: Tenant;
let b: Tenant;
let productId: string;
let n = 0;

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants());
  productId = (await server.call('POST', '/api/products', { token: a.key, body: { sku: 'SIGNED-1', name: 'Signed' } })).body.id;
});
afterAll(() => server?.close());

const freshLine = (deltas: Parameters<typeof addStock>[3]) =>
  addStock(server.app, a.org.id, { productMasterId: productId, locationId: a.warehouse.id, lotCode: `S${n++}` }, deltas);
const adjustBy = (body: unknown, token = a.key) => server.call('POST', '/api/inventory/adjust', { token, body });
const ledgerCount = (stockLineId: string) => server.app.prisma.stockTransaction.count({ where: { stockLineId } });

describe('refusals of a signed adjustment', () => {
  it('explains them in order: reason code, then the line (400 on inventoryItemId), then the quantity rule, then the reason direction', async () => {
    const line = await freshLine({ ON_HAND: 10, RESERVED: 4 });
    const foreign = await addStock(server.app, b.org.id, { productMasterId: (await server.call('POST', '/api/products', { token: b.key, body: { sku: 'B-1', name: 'B' } })).body.id, locationId: b.warehouse.id }, { ON_HAND: 5 });

    const unknownReasonAndLine = await adjustBy({ inventoryItemId: foreign.id, delta: -1, reasonCodeId: 'NO_SUCH_REASON' });
    expect(unknownReasonAndLine.status).toBe(400);
    expect(unknownReasonAndLine.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { reasonCodeId: [expect.stringContaining('NO_SUCH_REASON')] } });

    const foreignLine = await adjustBy({ inventoryItemId: foreign.id, delta: -1, reasonCodeId: 'LOST' });
    expect(foreignLine.status).toBe(400);
    expect(foreignLine.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { inventoryItemId: ['Inventory item not found'] } });

    // Below what is reserved and with a reason for increases only: the quantity rule is named first.
    const both = await adjustBy({ inventoryItemId: line.id, delta: -7, reasonCodeId: 'FOUND' });
    expect(both.status).toBe(400);
    expect(both.body).toMatchObject({ code: 'INSUFFICIENT_STOCK', details: { delta: [expect.stringContaining('below 4')] } });

    const direction = await adjustBy({ inventoryItemId: line.id, delta: -1, reasonCodeId: 'FOUND' });
    expect(direction.status).toBe(400);
    expect(direction.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { reasonCodeId: [expect.stringContaining('increases only')] } });

    const tooLarge = await adjustBy({ inventoryItemId: line.id, delta: 3_000_000_000, reasonCodeId: 'FOUND' });
    expect(tooLarge.status).toBe(400);
    expect(tooLarge.body.details.delta).toBeDefined();

    expect(await ledgerCount(line.id)).toBe(2);
    expect(await ledgerCount(foreign.id)).toBe(1);
  });
});

describe('the answer', () => {
  it("returns the ledger row it wrote, the same as the history shows, and the line's relations through GraphQL", async () => {
    const line = await freshLine({ ON_HAND: 20 });
    const res = await adjustBy({ inventoryItemId: line.id, delta: -3, reasonCodeId: 'damaged', comment: ' broken ' });
    expect(res.status).toBe(200);
    const history = await server.call('GET', `/api/inventory/adjustments?inventoryItemId=${line.id}&limit=1`, { token: a.key });
    expect(history.body.entries[0]).toEqual(res.body.transaction);
    expect(res.body.transaction).toMatchObject({ deltaQty: -3, qtyBefore: 20, qtyAfter: 17, reasonCode: 'DAMAGED', comment: 'broken', actorType: 'API_KEY' });

    const gql = await server.graphql(
      `mutation ($id: ID!) { adjustStockBy(input: { inventoryItemId: $id, delta: 2, reasonCodeId: "FOUND" }) { ... on StockAdjustmentResult {
        transaction { id qtyBefore qtyAfter reasonCode } inventoryItem { qtyOnHand lotCode stockLine { id qtyOnHand product { sku } } } } } }`,
      { id: line.id },
      a.key,
    );
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.adjustStockBy).toMatchObject({
      transaction: { qtyBefore: 17, qtyAfter: 19, reasonCode: 'FOUND' },
      inventoryItem: { qtyOnHand: 19, lotCode: expect.stringMatching(/^S\d+$/), stockLine: { id: line.id, qtyOnHand: 19, product: { sku: 'SIGNED-1' } } },
    });
  });

  it('lists fast successive changes of one line in the order they happened, each starting where the last ended', async () => {
    const line = await freshLine({ ON_HAND: 100 });
    for (const delta of [1, -2, 3, -4, 5, -6, 7, -8, 9, -10]) {
      expect((await adjustBy({ inventoryItemId: line.id, delta, reasonCodeId: 'COUNT_CORRECTION' })).status).toBe(200);
    }
    const history = await server.call('GET', `/api/inventory/adjustments?inventoryItemId=${line.id}&transactionType=ADJUSTMENT&limit=50`, { token: a.key });
    const rows = [...history.body.entries].reverse();
    expect(rows.map((r: { deltaQty: number }) => r.deltaQty)).toEqual([1, -2, 3, -4, 5, -6, 7, -8, 9, -10]);
    rows.forEach((row: { qtyBefore: number; qtyAfter: number }, i: number) => expect(row.qtyBefore).toBe(i === 0 ? 100 : rows[i - 1].qtyAfter));
  });
});

describe('the ledger', () => {
  it('accounts for the quantities of every stock line the file touched', () => expectLedgerBalanced(server.app.prisma));
});
