import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type Tenant } from '../../support/fixtures.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { addStock } from '../../support/stock.js';
import { expectLedgerBalanced } from '../../support/ledger-balance.js';

// Many requests on the same stock line at once. Meaningful on PostgreSQL (TEST_DATABASE_URL), where
// they run in parallel on several connections; PGlite runs them one after another and must agree.
let server: TestServer;
let a: Tenant;
let productId: string;
let n = 0;

beforeAll(async () => {
  server = await startTestServer();
  a = await createTenant(server.app.prisma);
  productId = (await server.call('POST', '/api/products', { token: a.key, body: { sku: 'HOT-1', name: 'Hot line' } })).body.id;
});
afterAll(() => server?.close());

const freshLine = (onHand: number, lotCode = `C${n++}`) => addStock(server.app, a.org.id, { productMasterId: productId, locationId: a.warehouse.id, lotCode }, { ON_HAND: onHand });
const onHand = async (id: string) => (await server.app.prisma.stockLine.findUniqueOrThrow({ where: { id } })).qtyOnHand;
const all = <T>(count: number, make: (i: number) => Promise<T>) => Promise.allSettled(Array.from({ length: count }, (_, i) => make(i)));
const statuses = (results: PromiseSettledResult<{ status: number }>[]) => results.map((r) => (r.status === 'fulfilled' ? r.value.status : 'rejected'));

interface Entry { deltaQty: number; qtyBefore: number; qtyAfter: number; transactionType: string }

/** The line's ledger rows of these types through the history endpoint, oldest first. */
async function ledger(inventoryItemId: string, types: string): Promise<Entry[]> {
  const res = await server.call('GET', `/api/inventory/adjustments?inventoryItemId=${inventoryItemId}&transactionType=${types}&limit=500`, { token: a.key });
  expect(res.status).toBe(200);
  return [...res.body.entries].reverse();
}

/** Each row's before equals the previous row's after, from `start`, and after - before = delta. */
function expectChain(rows: Entry[], start: number) {
  let current = start;
  rows.forEach((row, i) => {
    expect(row.qtyBefore, `row ${i} starts where row ${i - 1} ended`).toBe(current);
    expect(row.qtyAfter - row.qtyBefore, `row ${i}`).toBe(row.deltaQty);
    current = row.qtyAfter;
  });
  return current;
}

describe('concurrent adjustments of one stock line', () => {
  it('50 signed adjustments end with the exact sum and 50 chained ledger rows', async () => {
    const line = await freshLine(1000);
    const deltas = Array.from({ length: 50 }, (_, i) => (i % 3 === 0 ? -(i + 1) : i + 2));
    const results = await all(50, (i) =>
      server.call('POST', '/api/inventory/adjust', { token: a.key, body: { inventoryItemId: line.id, delta: deltas[i], reasonCodeId: 'COUNT_CORRECTION' } }),
    );
    expect(statuses(results)).toEqual(Array(50).fill(200));
    const expected = 1000 + deltas.reduce((sum, d) => sum + d, 0);
    expect(await onHand(line.id)).toBe(expected);

    const rows = await ledger(line.id, 'ADJUSTMENT');
    expect(rows).toHaveLength(50);
    expect(rows.map((r) => r.deltaQty).sort((x, y) => x - y)).toEqual([...deltas].sort((x, y) => x - y));
    expect(expectChain(rows, 1000)).toBe(expected);
    // every response reports the row it wrote, and those rows chain too
    const reported = results.map((r) => (r as PromiseFulfilledResult<{ body: any }>).value.body.transaction as Entry);
    expect(reported.map((t) => t.qtyBefore).sort()).toEqual(rows.map((r) => r.qtyBefore).sort());
  });

  it('two adjustments that together would go below zero: exactly one succeeds', async () => {
    const line = await freshLine(10);
    const results = await all(2, () => server.call('POST', '/api/inventory/adjust', { token: a.key, body: { inventoryItemId: line.id, delta: -7, reasonCodeId: 'LOST' } }));
    expect(statuses(results).sort()).toEqual([200, 400]);
    const refused = results.map((r) => (r as PromiseFulfilledResult<{ status: number; body: any }>).value).find((r) => r.status === 400)!;
    expect(refused.body.code).toBe('INSUFFICIENT_STOCK');
    expect(await onHand(line.id)).toBe(3);
    const rows = await ledger(line.id, 'ADJUSTMENT');
    expect(rows).toEqual([expect.objectContaining({ deltaQty: -7, qtyBefore: 10, qtyAfter: 3 })]);
  });

  it('many decrements race for too little stock: never below zero, one row per success', async () => {
    const line = await freshLine(20);
    const results = await all(12, () => server.call('POST', '/api/inventory/adjust', { token: a.key, body: { inventoryItemId: line.id, delta: -3, reasonCodeId: 'LOST' } }));
    const codes = statuses(results);
    expect(codes.filter((s) => s === 200)).toHaveLength(6);
    expect(codes.filter((s) => s === 400)).toHaveLength(6);
    expect(await onHand(line.id)).toBe(2);
    expect(expectChain(await ledger(line.id, 'ADJUSTMENT'), 20)).toBe(2);
  });

  it('30 absolute adjustments: the result is one of the requested quantities and the ledger chains', async () => {
    const line = await freshLine(100);
    const targets = Array.from({ length: 30 }, (_, i) => 101 + i);
    const results = await all(30, (i) =>
      server.call('POST', '/api/inventory/adjustments', { token: a.key, body: { inventoryItemId: line.id, newQtyOnHand: targets[i], reasonCodeId: 'COUNT_CORRECTION' } }),
    );
    expect(statuses(results)).toEqual(Array(30).fill(200));
    const final = await onHand(line.id);
    expect(targets).toContain(final);
    const rows = await ledger(line.id, 'ADJUSTMENT');
    expect(rows).toHaveLength(30);
    expect(expectChain(rows, 100)).toBe(final);
    // each request's row ends at the quantity it asked for
    expect(rows.map((r) => r.qtyAfter).sort()).toEqual([...targets].sort());
  });

  it('counts, signed adjustments and lot corrections mixed on the same lines keep every ledger chained', async () => {
    const from = await freshLine(500, `MIX-A${n}`);
    const to = await freshLine(500, `MIX-B${n++}`);
    const fromLot = (await server.app.prisma.lot.findUniqueOrThrow({ where: { id: from.lotId! } })).code;
    const toLot = (await server.app.prisma.lot.findUniqueOrThrow({ where: { id: to.lotId! } })).code;
    const requests = Array.from({ length: 40 }, (_, i) => () => {
      switch (i % 4) {
        case 0: return server.call('POST', '/api/inventory/adjust', { token: a.key, body: { inventoryItemId: from.id, delta: 2, reasonCodeId: 'FOUND' } });
        case 1: return server.call('POST', '/api/inventory/adjustments/lot-correction', { token: a.key, body: { inventoryItemId: from.id, toLotCode: toLot, quantity: 3 } });
        case 2: return server.call('POST', '/api/inventory/adjustments/lot-correction', { token: a.key, body: { inventoryItemId: to.id, toLotCode: fromLot, quantity: 1 } });
        default: return server.call('POST', '/api/inventory/adjustments/record-stock', {
          token: a.key,
          body: { lines: [{ productMasterId: productId, locationId: a.warehouse.id, lotCode: i % 8 === 3 ? fromLot : toLot, quantity: 400 + i }] },
        });
      }
    });
    const results = await all(40, (i) => requests[i]!());
    expect(statuses(results)).toEqual(Array(40).fill(200));
    const counted = Array.from({ length: 40 }, (_, i) => i).filter((i) => i % 4 === 3).map((i) => 400 + i);
    for (const line of [from, to]) {
      const rows = await ledger(line.id, 'ADJUSTMENT,LOT_CORRECTION,COUNT');
      expect(rows.length).toBeGreaterThan(0);
      expect(expectChain(rows, 500)).toBe(await onHand(line.id));
      // a count sets exactly the counted quantity, whatever ran just before it
      for (const row of rows.filter((r) => r.transactionType === 'COUNT')) expect(counted).toContain(row.qtyAfter);
    }
    const corrections = await server.app.prisma.stockTransaction.findMany({ where: { organizationId: a.org.id, transactionType: 'LOT_CORRECTION', stockLineId: { in: [from.id, to.id] } } });
    expect(corrections).toHaveLength(40);
    expect(corrections.reduce((sum, row) => sum + row.deltaQty, 0)).toBe(0);
  });

  it('lot corrections in both directions at once do not deadlock and conserve the total', async () => {
    const left = await freshLine(50, `LEFT${n}`);
    const right = await freshLine(50, `RIGHT${n++}`);
    const results = await all(30, (i) => {
      const [source, target] = i % 2 ? [left, right] : [right, left];
      return server.call('POST', '/api/inventory/adjustments/lot-correction', { token: a.key, body: { inventoryItemId: source.id, toLotId: target.lotId, quantity: 2 } });
    });
    expect(statuses(results)).toEqual(Array(30).fill(200));
    expect([await onHand(left.id), await onHand(right.id)]).toEqual([50, 50]);
    expect(expectChain(await ledger(left.id, 'LOT_CORRECTION'), 50)).toBe(50);
  });
});

describe('concurrent record-stock batches', () => {
  it('batches creating the same lot, bin and line share one row of each and lose no units', async () => {
    const lotCode = `SHARED-${n++}`;
    const results = await all(20, (i) =>
      server.call('POST', '/api/inventory/record-stock', {
        token: a.key,
        body: { lines: [{ productMasterId: productId, locationId: a.warehouse.id, quantity: i + 1, lotCode, expiryDate: '2033-03-03', binCode: `BIN-${lotCode}` }] },
      }),
    );
    expect(statuses(results)).toEqual(Array(20).fill(200));
    const lots = await server.app.prisma.lot.findMany({ where: { organizationId: a.org.id, code: lotCode } });
    expect(lots).toHaveLength(1);
    expect(await server.app.prisma.bin.count({ where: { organizationId: a.org.id, code: `BIN-${lotCode}` } })).toBe(1);
    const lines = await server.app.prisma.stockLine.findMany({ where: { lotId: lots[0]!.id } });
    expect(lines).toHaveLength(1);
    expect(lines[0]!.qtyOnHand).toBe(210);
    expect(expectChain(await ledger(lines[0]!.id, 'RECEIPT'), 0)).toBe(210);
  });

  it('batches touching the same lines in opposite orders all succeed', async () => {
    const codes = Array.from({ length: 5 }, () => `ORD-${n++}`);
    const forward = codes.map((lotCode) => ({ productMasterId: productId, locationId: a.warehouse.id, quantity: 1, lotCode }));
    const results = await all(16, (i) => server.call('POST', '/api/inventory/record-stock', { token: a.key, body: { lines: i % 2 ? forward : [...forward].reverse() } }));
    expect(statuses(results)).toEqual(Array(16).fill(200));
    const lines = await server.app.prisma.stockLine.findMany({ where: { organizationId: a.org.id, lot: { code: { in: codes } } } });
    expect(lines.map((l) => l.qtyOnHand)).toEqual(Array(5).fill(16));
  });

  it('a failing batch racing successful adjustments leaves no trace', async () => {
    const line = await freshLine(100);
    const lotCode = (await server.app.prisma.lot.findUniqueOrThrow({ where: { id: line.lotId! } })).code;
    const results = await all(20, (i) =>
      i % 2
        ? server.call('POST', '/api/inventory/adjust', { token: a.key, body: { inventoryItemId: line.id, delta: 1, reasonCodeId: 'FOUND' } })
        : server.call('POST', '/api/inventory/record-stock', {
            token: a.key,
            body: { lines: [{ productMasterId: productId, locationId: a.warehouse.id, quantity: 5, lotCode }, { productMasterId: 'missing', locationId: a.warehouse.id, quantity: 1 }] },
          }),
    );
    expect(statuses(results)).toEqual(Array.from({ length: 20 }, (_, i) => (i % 2 ? 200 : 400)));
    expect(await onHand(line.id)).toBe(110);
    const rows = await ledger(line.id, 'RECEIPT,ADJUSTMENT');
    expect(rows.map((r) => r.transactionType)).toEqual(['RECEIPT', ...Array(10).fill('ADJUSTMENT')]);
    expect(expectChain(rows, 0)).toBe(110);
  });
});

describe('the ledger', () => {
  it('accounts for the quantities of every stock line the file touched', () => expectLedgerBalanced(server.app.prisma));
});
