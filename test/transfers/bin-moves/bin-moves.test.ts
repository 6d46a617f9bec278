import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct } from '../../support/api.js';
import type { Tenant } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';
import { addStock } from '../../support/stock.js';
import { startServerWithTwoTenants } from '../../support/two-tenants.js';
import { expectLedgerBalanced } from '../../support/ledger-balance.js';

// Bins of a location with their stock, and bin-to-bin moves through the ledger (BIN_MOVE rows).
let server: TestServer;
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants());
});
afterAll(() => server?.close());

const call = (method: string, path: string, body?: unknown, token = a.key) => server.call(method, path, { token, body });

describe('bins and bin moves', () => {
  it('lists bins with their stock and moves stock between two bins, first-expiring lots first', async () => {
    const productId = await createProduct(server, a.key, 'BIN-1');
    const early = await addStock(server.app, a.org.id, { productMasterId: productId, locationId: a.warehouse.id, lotCode: 'E', expiryDate: '2031-01-01', binCode: 'A-01' }, { ON_HAND: 4 });
    const late = await addStock(server.app, a.org.id, { productMasterId: productId, locationId: a.warehouse.id, lotCode: 'L', expiryDate: '2033-01-01', binCode: 'A-01' }, { ON_HAND: 10, RESERVED: 2 });
    const other = await addStock(server.app, a.org.id, { productMasterId: productId, locationId: a.warehouse.id, lotCode: 'L', binCode: 'B-01' }, { ON_HAND: 1 });

    const listed = await call('GET', `/api/inventory/transfers/bins?locationId=${a.warehouse.id}`);
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.location).toMatchObject({ id: a.warehouse.id, code: 'WH1' });
    expect(listed.body.bins.map((bin: { code: string; totalOnHand: number; totalAvailable: number }) => [bin.code, bin.totalOnHand, bin.totalAvailable])).toEqual([
      ['A-01', 14, 12],
      ['B-01', 1, 1],
    ]);
    expect(listed.body.data).toEqual(listed.body.bins);
    expect(listed.body.bins[0].stock[0]).toMatchObject({ stockLineId: early.id, sku: 'BIN-1', lotCode: 'E', expiryDate: '2031-01-01', qtyOnHand: 4, qtyAvailable: 4 });
    const [fromBin, toBin] = listed.body.bins.map((bin: { id: string }) => bin.id);

    const moved = await call('POST', '/api/inventory/transfers/bins', { locationId: a.warehouse.id, productMasterId: productId, fromBinId: fromBin, toBinId: toBin, quantity: 6 });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body).toMatchObject({ success: true, quantity: 6, fromBinId: fromBin, toBinId: toBin });
    expect(moved.body.pieces.map((p: { lotId: string; quantity: number }) => [p.lotId, p.quantity])).toEqual([
      [early.lotId, 4],
      [late.lotId, 2],
    ]);
    const qty = async (id: string) => (await server.app.prisma.stockLine.findUniqueOrThrow({ where: { id } })).qtyOnHand;
    expect([await qty(early.id), await qty(late.id), await qty(other.id)]).toEqual([0, 8, 3]);
    const rows = await server.app.prisma.stockTransaction.findMany({ where: { sourceId: moved.body.moveId }, orderBy: { seq: 'asc' } });
    expect(rows.map((r) => [r.transactionType, r.sourceType, r.deltaQty])).toEqual([
      ['BIN_MOVE', 'BIN_MOVE', -4],
      ['BIN_MOVE', 'BIN_MOVE', -2],
      ['BIN_MOVE', 'BIN_MOVE', 4],
      ['BIN_MOVE', 'BIN_MOVE', 2],
    ]);
    const toEarly = moved.body.pieces[0].toStockLineId;
    expect(await server.app.prisma.stockLine.findUniqueOrThrow({ where: { id: toEarly } })).toMatchObject({ lotId: early.lotId, binId: toBin, qtyOnHand: 4 });

    // Reserved units stay: 8 on hand, 2 reserved, so 6 can move, not 7; refused moves change nothing.
    const over = await call('POST', '/api/inventory/transfers/bins', { locationId: a.warehouse.id, productMasterId: productId, lotId: late.lotId, fromBinId: fromBin, toBinId: toBin, quantity: 7 });
    expect(over.status).toBe(400);
    expect(over.body).toMatchObject({ code: 'INSUFFICIENT_STOCK', details: { quantity: expect.any(Array) } });
    expect(await qty(late.id)).toBe(8);
    const same = await call('POST', '/api/inventory/transfers/bins', { locationId: a.warehouse.id, productMasterId: productId, fromBinId: fromBin, toBinId: fromBin, quantity: 1 });
    expect(same.status).toBe(400);
    expect(same.body.details.toBinId).toBeDefined();
    expect((await call('GET', '/api/inventory/transfers/bins')).status).toBe(400);
  });

  it("refuses another organization's location, product or bins: 404 as filters, 400 in a body", async () => {
    const productId = await createProduct(server, a.key, 'BIN-2');
    const line = await addStock(server.app, a.org.id, { productMasterId: productId, locationId: a.warehouse.id, binCode: 'X-01' }, { ON_HAND: 3 });
    const bBin = await server.app.prisma.bin.create({ data: { organizationId: b.org.id, locationId: b.warehouse.id, code: 'BB' } });
    const base = { locationId: a.warehouse.id, productMasterId: productId, fromBinId: line.binId, toBinId: bBin.id, quantity: 1 };
    expect((await call('POST', '/api/inventory/transfers/bins', base)).body.details).toEqual({ toBinId: ['Bin not found'] });
    const swapped = await call('POST', '/api/inventory/transfers/bins', { ...base, toBinId: line.binId, fromBinId: bBin.id });
    expect(swapped.status).toBe(400);
    expect(swapped.body.details).toEqual({ fromBinId: ['Bin not found'] });
    const foreignPlace = await call('POST', '/api/inventory/transfers/bins', { ...base, locationId: b.warehouse.id });
    expect(foreignPlace.body.details).toMatchObject({ locationId: ['Location not found'] });
    expect((await call('GET', `/api/inventory/transfers/bins?locationId=${b.warehouse.id}`)).status).toBe(404);
    const bProduct = await createProduct(server, b.key, 'BIN-B');
    expect((await call('GET', `/api/inventory/transfers/bins?locationId=${a.warehouse.id}&productMasterId=${bProduct}`)).status).toBe(404);
    const theirs = await call('GET', `/api/inventory/transfers/bins?locationId=${b.warehouse.id}`, undefined, b.key);
    expect(theirs.body.bins.map((bin: { code: string }) => bin.code)).toEqual(['BB']);
  });
});

describe('the ledger', () => {
  it('accounts for the quantities of every stock line the file touched', () => expectLedgerBalanced(server.app.prisma));
});
