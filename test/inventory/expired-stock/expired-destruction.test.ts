import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocationFor } from '../../../src/services/admin/admin.js';
import { createProduct } from '../../support/api.js';
import type { Tenant } from '../../support/fixtures.js';
import { expectLedgerBalanced } from '../../support/ledger-balance.js';
import type { TestServer } from '../../support/server.js';
import { addStock } from '../../support/stock.js';
import { startServerWithTwoTenants } from '../../support/two-tenants.js';

// POST /api/inventory/expired/transfer-destruction: expired stock to a destruction location (a transfer per
// source location, received the normal way) or written off under a document number.

let server: TestServer;
let a: Tenant;
let b: Tenant;
let product: string;
let store: { id: string };
let destruction: { id: string };
const line: Record<string, string> = {};
const lot: Record<string, string> = {};

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants());
  store = await createLocationFor(server.operator, { organizationId: a.org.id, code: 'ST1', name: 'Store' });
  destruction = await createLocationFor(server.operator, { organizationId: a.org.id, code: 'DESTROY', name: 'Destruction cage', type: 'DESTRUCTION' });
  product = await createProduct(server, a.key, 'DES-1');
  const at = { productMasterId: product, locationId: a.warehouse.id };
  const old = await addStock(server.app, a.org.id, { ...at, lotCode: 'OLD', expiryDate: day(-10) }, { ON_HAND: 10, RESERVED: 2 });
  line.old = old.id;
  lot.old = old.lotId!;
  // The same lot in a bin: a line of its own, which a destruction of the binless line must not touch.
  line.binned = (await addStock(server.app, a.org.id, { ...at, lotCode: 'OLD', binCode: 'B1' }, { ON_HAND: 4 })).id;
  line.store = (await addStock(server.app, a.org.id, { productMasterId: product, locationId: store.id, lotCode: 'OLD' }, { ON_HAND: 6 })).id;
  line.fresh = (await addStock(server.app, a.org.id, { ...at, lotCode: 'FRESH', expiryDate: day(60) }, { ON_HAND: 6 })).id;
  const writeOff = await addStock(server.app, a.org.id, { ...at, lotCode: 'WO', expiryDate: day(-3) }, { ON_HAND: 5 });
  line.writeOff = writeOff.id;
  lot.writeOff = writeOff.lotId!;
  line.atDestruction = (await addStock(server.app, a.org.id, { productMasterId: product, locationId: destruction.id, lotCode: 'WO' }, { ON_HAND: 1 })).id;
  const foreignProduct = await createProduct(server, b.key, 'DES-1');
  line.foreign = (await addStock(server.app, b.org.id, { productMasterId: foreignProduct, locationId: b.warehouse.id, lotCode: 'B', expiryDate: day(-5) }, { ON_HAND: 3 })).id;
  // 3 of the old line's 8 available units already marked expired: destruction takes those too.
  expect((await server.call('POST', '/api/inventory/expired/mark-expired', { token: a.key, body: { lines: [{ stockLineId: line.old, quantity: 3 }] } })).status).toBe(200);
}, 60_000);
afterAll(() => server?.close());

const destroy = (body: unknown, token = a.key) => server.call('POST', '/api/inventory/expired/transfer-destruction', { token, body });
const stockLine = (id: string | undefined) => server.app.prisma.stockLine.findUniqueOrThrow({ where: { id: id! } });
const state = async () => ({
  lines: await server.app.prisma.stockLine.findMany({ orderBy: { id: 'asc' } }),
  ledger: await server.app.prisma.stockTransaction.count(),
  transfers: await server.app.prisma.inventoryTransfer.count(),
});

describe('transfer-destruction: refusals', () => {
  it('refuses, changing nothing: 400 naming the field, 403 for non-admin force and without inventory.write', async () => {
    const before = await state();
    const refused = async (body: unknown, field: string, token = a.key) => {
      const res = await destroy(body, token);
      expect(res.status, `${field}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body.details, field).toHaveProperty([field]);
    };
    await refused({ lines: [{ stockLineId: line.old }] }, 'documentNumber');
    await refused({ lines: [{ stockLineId: line.old }], documentNumber: '  ' }, 'documentNumber');
    await refused({ lines: [{ stockLineId: line.old }, { stockLineId: line.fresh }], documentNumber: 'D-1' }, 'lines.1.stockLineId');
    await refused({ lines: [{ stockLineId: line.old }], destinationLocationId: b.warehouse.id }, 'destinationLocationId');
    await refused({ lines: [{ stockLineId: line.old }], destinationLocationId: 'nope' }, 'destinationLocationId');
    await refused({ lines: [{ stockLineId: line.old }, { stockLineId: line.atDestruction }], destinationLocationId: destruction.id }, 'destinationLocationId');
    await refused({ locationId: destruction.id, destinationLocationId: destruction.id }, 'destinationLocationId');
    await refused({ lines: [{ stockLineId: line.foreign }], documentNumber: 'D-1' }, 'lines.0.stockLineId');
    await refused({ lotId: lot.old, locationId: b.warehouse.id, documentNumber: 'D-1' }, 'locationId');
    await refused({ lines: [{ stockLineId: line.old, quantity: 9 }], documentNumber: 'D-1' }, 'lines.0.quantity');
    await refused({ lines: [{ stockLineId: line.old }], documentNumber: 'D-1', reasonCodeId: 'RECEIVED' }, 'reasonCodeId');
    await refused({ lines: [{ stockLineId: line.old }], documentNumber: 'x'.repeat(201) }, 'documentNumber');
    await refused({ lines: [{ stockLineId: line.old }], documentNumber: 'D-1', colour: 'red' }, 'colour');
    // Another organization cannot reach a's stock, by line or by lot.
    await refused({ lines: [{ stockLineId: line.old }], documentNumber: 'D-1' }, 'lines.0.stockLineId', b.key);
    await refused({ lotId: lot.old, documentNumber: 'D-1' }, 'lotId', b.key);

    const writer = await a.keyWith(['inventory:write', 'inventory:read']);
    const forced = await destroy({ lines: [{ stockLineId: line.fresh }], force: true, destinationLocationId: destruction.id }, writer);
    expect(forced.status).toBe(403);
    expect(forced.body.code).toBe('FORBIDDEN');
    expect((await destroy({ lines: [{ stockLineId: line.old }], documentNumber: 'D-1' }, await a.keyWith(['inventory:read']))).status).toBe(403);
    expect(await state()).toEqual(before);
  });
});

describe('transfer-destruction: to a destruction location', () => {
  let transfers: { transferId: string; sourceLocationId: string; destLocationId: string; status: string; reference: string; stockLineIds: string[]; totalQuantity: number }[];

  it('ships a transfer per source location at once, taking the expired units too, with the reason on the ledger rows', async () => {
    const res = await destroy({
      lines: [{ stockLineId: line.old }, { stockLineId: line.binned }, { stockLineId: line.store, quantity: 5 }],
      destinationLocationId: destruction.id,
      documentNumber: 'CERT-7',
      note: 'to the incinerator',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ success: true, action: 'TRANSFER_OUT', destinationLocationId: destruction.id, documentNumber: 'CERT-7', totalQuantity: 8 + 4 + 5 });
    expect(res.body.lines.map((l: any) => [l.stockLineId, l.quantity, l.qtyOnHand, l.qtyExpired])).toEqual([
      [line.old, 8, 2, 0],
      [line.binned, 4, 0, 0],
      [line.store, 5, 1, 0],
    ]);
    transfers = res.body.transfers;
    const fromWarehouse = transfers.find((t) => t.sourceLocationId === a.warehouse.id)!;
    const fromStore = transfers.find((t) => t.sourceLocationId === store.id)!;
    expect(transfers).toHaveLength(2);
    expect(fromWarehouse).toMatchObject({ destLocationId: destruction.id, status: 'IN_TRANSIT', reference: 'CERT-7', totalQuantity: 12 });
    expect(fromWarehouse.stockLineIds.sort()).toEqual([line.old, line.binned].sort());
    expect(fromStore).toMatchObject({ status: 'IN_TRANSIT', stockLineIds: [line.store], totalQuantity: 5 });

    // Stock gone at the source (reserved units stay), the lots and bins on the transfer.
    expect(await stockLine(line.old)).toMatchObject({ qtyOnHand: 2, qtyReserved: 2, qtyExpired: 0 });
    expect(await stockLine(line.binned)).toMatchObject({ qtyOnHand: 0 });
    const read = await server.call('GET', `/api/inventory/transfers/${fromWarehouse.transferId}`, { token: a.key });
    expect(read.body).toMatchObject({ status: 'IN_TRANSIT', sourceType: 'DESTRUCTION', reference: 'CERT-7', totalShipped: 12 });
    const pieces = await server.app.prisma.inventoryTransferLineLot.findMany({ where: { line: { transferId: fromWarehouse.transferId } } });
    expect(pieces.map((p) => [p.sourceStockLineId, p.quantity]).sort()).toEqual([[line.old, 8], [line.binned, 4]].sort());
    const rows = await server.app.prisma.stockTransaction.findMany({ where: { stockLineId: line.old, transactionType: 'TRANSFER_OUT' } });
    expect(rows.map((r) => [r.bucket, r.deltaQty, r.reasonCode, r.comment, r.sourceType, r.sourceId]).sort()).toEqual([
      ['EXPIRED', -3, 'EXPIRED', 'to the incinerator', 'TRANSFER', fromWarehouse.transferId],
      ['ON_HAND', -8, 'EXPIRED', 'to the incinerator', 'TRANSFER', fromWarehouse.transferId],
    ]);
    await expectLedgerBalanced(server.app.prisma);
  });

  it('is received at the destination the normal way, where the units are expired and never available', async () => {
    for (const transfer of transfers) {
      const received = await server.call('POST', `/api/inventory/transfers/${transfer.transferId}`, { token: a.key, body: { action: 'receive' } });
      expect(received.status, JSON.stringify(received.body)).toBe(200);
      expect(received.body.status).toBe('RECEIVED');
    }
    const arrived = await server.app.prisma.stockLine.findFirstOrThrow({ where: { locationId: destruction.id, lotId: lot.old } });
    expect(arrived).toMatchObject({ qtyOnHand: 17, qtyExpired: 17, binId: null });
    const check = await server.call('POST', '/api/inventory/availability/check', { token: a.key, body: { items: [{ sku: 'DES-1', locationId: destruction.id, quantity: 1 }] } });
    expect(check.body.results[0]).toMatchObject({ availableQuantity: 0, isAvailable: false });
    const listed = await server.call('GET', `/api/inventory/expired?locationId=${destruction.id}&lotId=${lot.old}`, { token: a.key });
    expect(listed.body.totals).toMatchObject({ lines: 1, units: 17, expiredUnits: 17 });
    await expectLedgerBalanced(server.app.prisma);
  });

  it('an admin may force an unexpired lot; it arrives expired all the same', async () => {
    const res = await destroy({ lines: [{ stockLineId: line.fresh, quantity: 2 }], force: true, destinationLocationId: destruction.id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ action: 'TRANSFER_OUT', documentNumber: null, totalQuantity: 2, transfers: [{ reference: null, totalQuantity: 2 }] });
    await server.call('POST', `/api/inventory/transfers/${res.body.transfers[0].transferId}`, { token: a.key, body: { action: 'receive' } });
    const arrived = await server.app.prisma.stockLine.findFirstOrThrow({ where: { locationId: destruction.id, lot: { code: 'FRESH' } } });
    expect(arrived).toMatchObject({ qtyOnHand: 2, qtyExpired: 2 });
    const check = await server.call('POST', '/api/inventory/availability/check', { token: a.key, body: { items: [{ sku: 'DES-1', locationId: destruction.id, quantity: 1 }] } });
    expect(check.body.results[0].availableQuantity).toBe(0);
    expect(await stockLine(line.fresh)).toMatchObject({ qtyOnHand: 4 });
    await expectLedgerBalanced(server.app.prisma);
  });
});

describe('transfer-destruction: cancelled in transit', () => {
  it('returns the units to their source line expired, never available again', async () => {
    const at = { productMasterId: product, locationId: store.id, lotCode: 'BACK', expiryDate: day(-4) };
    const source = (await addStock(server.app, a.org.id, at, { ON_HAND: 5 })).id;
    const res = await destroy({ lines: [{ stockLineId: source, quantity: 3 }], destinationLocationId: destruction.id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await stockLine(source)).toMatchObject({ qtyOnHand: 2, qtyExpired: 0 });
    const cancelled = await server.call('POST', `/api/inventory/transfers/${res.body.transfers[0].transferId}`, { token: a.key, body: { action: 'cancel' } });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body.status).toBe('CANCELLED');
    expect(await stockLine(source)).toMatchObject({ qtyOnHand: 5, qtyExpired: 3 });
    await expectLedgerBalanced(server.app.prisma);
  });
});

describe('transfer-destruction: the exact line', () => {
  it('takes the named line only, never another bin of the same lot (a binless line means no bin)', async () => {
    const at = { productMasterId: product, locationId: store.id, lotCode: 'EDGE', expiryDate: day(-2) };
    const inBin = (await addStock(server.app, a.org.id, { ...at, binCode: 'S2' }, { ON_HAND: 2 })).id;
    // Ids are time-ordered: the binned line sorts first, so a loose match (any bin) would take from it.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const binless = (await addStock(server.app, a.org.id, at, { ON_HAND: 2 })).id;
    expect(inBin < binless).toBe(true);
    const res = await destroy({ lines: [{ stockLineId: binless }], destinationLocationId: destruction.id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await stockLine(binless)).toMatchObject({ qtyOnHand: 0 });
    expect(await stockLine(inBin)).toMatchObject({ qtyOnHand: 2 });
    await expectLedgerBalanced(server.app.prisma);
  });
});

describe('transfer-destruction: write-off with a document number', () => {
  it('writes the lot off (DESTROY rows on on hand and expired, the document on them), leaving out lines already at the destruction location', async () => {
    await server.call('POST', '/api/inventory/expired/mark-expired', { token: a.key, body: { lines: [{ stockLineId: line.writeOff, quantity: 2 }] } });
    const res = await destroy({ lotId: lot.writeOff, locationId: a.warehouse.id, documentNumber: 'WO-2024-7', reasonCodeId: 'damaged', note: 'crushed on site' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      success: true,
      action: 'DESTROY',
      destinationLocationId: null,
      documentNumber: 'WO-2024-7',
      transfers: [],
      totalQuantity: 5,
      lines: [{ stockLineId: line.writeOff, lotId: lot.writeOff, lotCode: 'WO', expiryDate: day(-3), quantity: 5, qtyOnHand: 0, qtyExpired: 0 }],
    });
    const rows = await server.app.prisma.stockTransaction.findMany({ where: { stockLineId: line.writeOff, transactionType: 'DESTROY' } });
    expect(rows.map((r) => [r.bucket, r.deltaQty, r.reasonCode, r.comment, r.sourceType, r.sourceId]).sort()).toEqual([
      ['EXPIRED', -2, 'DAMAGED', 'crushed on site', 'DESTRUCTION', 'WO-2024-7'],
      ['ON_HAND', -5, 'DAMAGED', 'crushed on site', 'DESTRUCTION', 'WO-2024-7'],
    ]);
    expect(await stockLine(line.atDestruction)).toMatchObject({ qtyOnHand: 1 });
    // Nothing left to destroy: 400 on the filter, nothing changed.
    const again = await destroy({ lotId: lot.writeOff, locationId: a.warehouse.id, documentNumber: 'WO-2024-8' });
    expect(again.status).toBe(400);
    expect(again.body.details).toHaveProperty(['lotId']);
    await expectLedgerBalanced(server.app.prisma);
  });

  it('a lot filter with a destination leaves out the lines already there', async () => {
    const res = await destroy({ lotId: lot.writeOff, destinationLocationId: destruction.id });
    expect(res.status).toBe(400);
    expect(res.body.details).toHaveProperty(['lotId']);
  });
});

describe('transfer-destruction: GraphQL destroyExpiredStock', () => {
  const MUTATION = `mutation ($input: ExpiredStockDestructionInput!) {
    destroyExpiredStock(input: $input) {
      __typename
      ... on ExpiredStockDestructionResult { action totalQuantity transfers { status transfer { id status sourceType } } }
      ... on ValidationError { code fields { field messages } }
    }
  }`;

  it('answers the result, with a link to the transfer, and typed refusals', async () => {
    const extra = (await addStock(server.app, a.org.id, { productMasterId: product, locationId: store.id, lotCode: 'OLD', binCode: 'S1' }, { ON_HAND: 3 })).id;
    const refused = await server.graphql(MUTATION, { input: { lines: [{ stockLineId: extra }] } }, a.key);
    expect(refused.body.data.destroyExpiredStock).toMatchObject({ __typename: 'ValidationError', code: 'VALIDATION_ERROR', fields: [{ field: 'documentNumber' }] });
    const done = await server.graphql(MUTATION, { input: { lines: [{ stockLineId: extra }], destinationLocationId: destruction.id } }, a.key);
    expect(done.body.data.destroyExpiredStock).toMatchObject({
      __typename: 'ExpiredStockDestructionResult',
      action: 'TRANSFER_OUT',
      totalQuantity: 3,
      transfers: [{ status: 'IN_TRANSIT', transfer: { status: 'IN_TRANSIT', sourceType: 'DESTRUCTION' } }],
    });
    await expectLedgerBalanced(server.app.prisma);
  });
});

// Meaningful on PostgreSQL (TEST_DATABASE_URL), where the requests run in parallel on several connections;
// PGlite runs them one after another and must agree.
describe('transfer-destruction: concurrency', () => {
  it('each unit leaves once, and a destruction runs beside transfers of the same product without deadlock', async () => {
    for (let round = 0; round < 3; round++) {
      const productId = await createProduct(server, a.key, `DES-RACE-${round}`);
      const at = { productMasterId: productId, locationId: a.warehouse.id };
      // The fresh line first: its id sorts before the expired one, so a shipment locks it first.
      const fresh = (await addStock(server.app, a.org.id, { ...at, lotCode: 'F', expiryDate: day(60) }, { ON_HAND: 50 })).id;
      await new Promise((resolve) => setTimeout(resolve, 5));
      const expired = (await addStock(server.app, a.org.id, { ...at, lotCode: 'E', expiryDate: day(-4) }, { ON_HAND: 6 })).id;
      const drafts = await Promise.all(
        [1, 2, 3].map(async () =>
          (await server.call('POST', '/api/inventory/transfers', { token: a.key, body: { sourceLocationId: a.warehouse.id, destLocationId: store.id, lines: [{ productMasterId: productId, quantity: 5 }] } })).body.id as string,
        ),
      );
      const results = await Promise.all([
        destroy({ lines: [{ stockLineId: expired }], destinationLocationId: destruction.id }),
        ...drafts.map((id) => server.call('POST', `/api/inventory/transfers/${id}`, { token: a.key, body: { action: 'ship' } })),
        destroy({ lines: [{ stockLineId: expired }], destinationLocationId: destruction.id }),
      ]);
      const [first, ...rest] = results;
      const second = rest.pop()!;
      expect(rest.map((r) => r.status)).toEqual([200, 200, 200]);
      expect([first!.status, second.status].sort()).toEqual([200, 400]);
      expect(await stockLine(expired)).toMatchObject({ qtyOnHand: 0 });
      expect(await stockLine(fresh)).toMatchObject({ qtyOnHand: 35 });
      const out = await server.app.prisma.stockTransaction.findMany({ where: { stockLineId: expired, transactionType: 'TRANSFER_OUT' } });
      expect(out.map((r) => [r.deltaQty, r.qtyBefore, r.qtyAfter])).toEqual([[-6, 6, 0]]);
    }
    await expectLedgerBalanced(server.app.prisma);
  });
});
