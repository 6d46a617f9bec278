import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type Tenant } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';
import { addStock } from '../../support/stock.js';
import { startServerWithTwoTenants } from '../../support/two-tenants.js';
import { graphqlRefusal } from '../../support/api.js';
import { REFUSAL } from '../../support/graphql.js';
import { expectLedgerBalanced } from '../../support/ledger-balance.js';

// POST /api/inventory/adjustments, POST /api/inventory/adjust, GET /api/inventory/adjustments,
// GET /api/inventory/adjustments/reason-codes, POST /api/inventory/adjustments/lot-correction and their GraphQL fields.
let server: TestServer;
let a: Tenant;
let b: Tenant;
let productId: string;
let otherProductId: string;
let n = 0;

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants());
  productId = (await server.call('POST', '/api/products', { token: a.key, body: { sku: 'ADJ-1', name: 'Adjusted' } })).body.id;
  otherProductId = (await server.call('POST', '/api/products', { token: a.key, body: { sku: 'ADJ-2', name: 'Other' } })).body.id;
});
afterAll(() => server?.close());

const LINE_KEYS = ['binCode', 'binId', 'expiryDate', 'id', 'locationId', 'lotCode', 'lotId', 'productMasterId', 'qtyAvailable', 'qtyExpired', 'qtyOnHand', 'qtyOnHold', 'qtyPicked', 'qtyRecalled', 'qtyReserved'];
const ENTRY_KEYS = ['actorType', 'bucket', 'comment', 'createdAt', 'createdBy', 'deltaQty', 'id', 'inventoryItemId', 'locationId', 'productMasterId', 'qtyAfter', 'qtyBefore', 'reasonCode', 'reasonCodeId', 'rootCause', 'sourceId', 'sourceType', 'transactionType'];

/** A fresh stock line of ADJ-1 in its own lot. */
const freshLine = (deltas: Parameters<typeof addStock>[3], extra: { lotCode?: string; expiryDate?: string; recalled?: boolean; binCode?: string; productMasterId?: string } = {}) =>
  addStock(server.app, a.org.id, { productMasterId: productId, locationId: a.warehouse.id, lotCode: `L${n++}`, ...extra }, deltas);
const adjust = (body: unknown, token = a.key) => server.call('POST', '/api/inventory/adjustments', { token, body });
const adjustBy = (body: unknown, token = a.key) => server.call('POST', '/api/inventory/adjust', { token, body });
const onHand = async (id: string) => (await server.app.prisma.stockLine.findUniqueOrThrow({ where: { id } })).qtyOnHand;
const ledgerCount = (stockLineId: string) => server.app.prisma.stockTransaction.count({ where: { stockLineId } });
const reason = (org: { id: string }, code: string) => server.app.prisma.reasonCode.findFirstOrThrow({ where: { organizationId: org.id, code } });

describe('POST /api/inventory/adjustments', () => {
  it('sets on hand to the new quantity with one ADJUSTMENT ledger row and states the signed change', async () => {
    const line = await freshLine({ ON_HAND: 20, RESERVED: 2 });
    const res = await adjust({ inventoryItemId: line.id, newQtyOnHand: 15, reasonCodeId: 'DAMAGED', comment: 'dropped' });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['inventoryItem', 'message', 'success', 'transaction']);
    expect(res.body.success).toBe(true);
    expect(res.body.message).toBe('Adjusted on hand by -5 (from 20 to 15)');
    const damaged = await reason(a.org, 'DAMAGED');
    expect(Object.keys(res.body.transaction).sort()).toEqual(ENTRY_KEYS);
    expect(res.body.transaction).toMatchObject({
      inventoryItemId: line.id, transactionType: 'ADJUSTMENT', bucket: 'ON_HAND', deltaQty: -5, qtyBefore: 20, qtyAfter: 15,
      reasonCodeId: damaged.id, reasonCode: 'DAMAGED', comment: 'dropped', createdBy: expect.any(String), actorType: 'API_KEY',
    });
    expect(res.body.transaction.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(Object.keys(res.body.inventoryItem).sort()).toEqual(LINE_KEYS);
    expect(res.body.inventoryItem).toMatchObject({
      id: line.id, productMasterId: productId, locationId: a.warehouse.id, lotId: line.lotId, binId: null,
      qtyOnHand: 15, qtyReserved: 2, qtyAvailable: 13, qtyOnHold: 0, qtyPicked: 0, qtyRecalled: 0, qtyExpired: 0,
    });
    expect(await onHand(line.id)).toBe(15);

    const found = await reason(a.org, 'FOUND');
    const up = await adjust({ inventoryItemId: line.id, newQtyOnHand: 18, reasonCodeId: found.id });
    expect(up.status).toBe(200);
    expect(up.body.message).toBe('Adjusted on hand by +3 (from 15 to 18)');
    expect(up.body.transaction).toMatchObject({ deltaQty: 3, qtyBefore: 15, qtyAfter: 18, reasonCodeId: found.id, reasonCode: 'FOUND', comment: null });
  });

  it('accepts a reason code by id or by code in any case, and signed-in users with the permission', async () => {
    const line = await freshLine({ ON_HAND: 5 }, { expiryDate: '2030-12-31', binCode: 'Z-9' });
    const byCode = await adjust({ inventoryItemId: line.id, newQtyOnHand: 6, reasonCodeId: 'count_correction' });
    expect(byCode.body.transaction.reasonCode).toBe('COUNT_CORRECTION');
    expect(byCode.body.inventoryItem).toMatchObject({ expiryDate: '2030-12-31', binCode: 'Z-9', lotCode: expect.stringMatching(/^L\d+$/) });
    const manager = await a.userWith('MANAGER');
    const token = (await server.call('POST', '/api/auth/sign-in', { body: { email: manager.email, password: manager.password } })).body.token;
    const res = await adjust({ inventoryItemId: line.id, newQtyOnHand: 7, reasonCodeId: 'OTHER' }, token);
    expect(res.status).toBe(200);
    expect(res.body.transaction).toMatchObject({ createdBy: manager.id, actorType: 'USER' });
  });

  it('answers 400 with details for invalid bodies and writes nothing', async () => {
    const line = await freshLine({ ON_HAND: 10 });
    const cases: [unknown, string][] = [
      [{ newQtyOnHand: 5, reasonCodeId: 'DAMAGED' }, 'inventoryItemId'],
      [{ inventoryItemId: line.id, reasonCodeId: 'DAMAGED' }, 'newQtyOnHand'],
      [{ inventoryItemId: line.id, newQtyOnHand: 5 }, 'reasonCodeId'],
      [{ inventoryItemId: line.id, newQtyOnHand: -1, reasonCodeId: 'DAMAGED' }, 'newQtyOnHand'],
      [{ inventoryItemId: line.id, newQtyOnHand: 5.5, reasonCodeId: 'DAMAGED' }, 'newQtyOnHand'],
      [{ inventoryItemId: line.id, newQtyOnHand: '5', reasonCodeId: 'DAMAGED' }, 'newQtyOnHand'],
      [{ inventoryItemId: line.id, newQtyOnHand: 5, reasonCodeId: 'NO_SUCH_CODE' }, 'reasonCodeId'],
      [{ inventoryItemId: line.id, newQtyOnHand: 5, reasonCodeId: '  ' }, 'reasonCodeId'],
      // DECREASE-only reason for an increase, INCREASE-only reason for a decrease
      [{ inventoryItemId: line.id, newQtyOnHand: 12, reasonCodeId: 'DAMAGED' }, 'reasonCodeId'],
      [{ inventoryItemId: line.id, newQtyOnHand: 8, reasonCodeId: 'FOUND' }, 'reasonCodeId'],
      // no change
      [{ inventoryItemId: line.id, newQtyOnHand: 10, reasonCodeId: 'OTHER' }, 'newQtyOnHand'],
      [{ inventoryItemId: line.id, newQtyOnHand: 5, reasonCodeId: 'DAMAGED', comment: 'x'.repeat(2001) }, 'comment'],
      [{ inventoryItemId: line.id, newQtyOnHand: 5, reasonCodeId: 'DAMAGED', extra: 1 }, 'extra'],
    ];
    for (const [body, field] of cases) {
      const res = await adjust(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(Object.keys(res.body.details), JSON.stringify(body)).toContain(field);
    }
    const reasonMessage = (await adjust({ inventoryItemId: line.id, newQtyOnHand: 12, reasonCodeId: 'DAMAGED' })).body.details.reasonCodeId[0];
    expect(reasonMessage).toMatch(/decreases only/);
    expect((await adjust('not json at all')).status).toBe(400);
    expect(await onHand(line.id)).toBe(10);
    expect(await ledgerCount(line.id)).toBe(1);
  });

  it('refuses an inactive reason code', async () => {
    const line = await freshLine({ ON_HAND: 10 });
    await server.app.prisma.reasonCode.update({ where: { id: (await reason(a.org, 'SAMPLE')).id }, data: { active: false } });
    const res = await adjust({ inventoryItemId: line.id, newQtyOnHand: 9, reasonCodeId: 'SAMPLE' });
    expect(res.status).toBe(400);
    expect(res.body.details.reasonCodeId[0]).toMatch(/inactive/);
    const codes = await server.call('GET', '/api/inventory/adjustments/reason-codes', { token: a.key });
    expect(codes.body.reasonCodes.map((r: any) => r.code)).not.toContain('SAMPLE');
  });

  it('answers 400 INSUFFICIENT_STOCK below what is reserved, held, picked, recalled or expired, writing nothing', async () => {
    const line = await freshLine({ ON_HAND: 20, RESERVED: 4, ON_HOLD: 3, PICKED: 2, RECALLED: 1, EXPIRED: 1 });
    const res = await adjust({ inventoryItemId: line.id, newQtyOnHand: 10, reasonCodeId: 'LOST' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'INSUFFICIENT_STOCK', details: { newQtyOnHand: [expect.stringMatching(/below 11/)] } });
    expect(await onHand(line.id)).toBe(20);
    expect(await ledgerCount(line.id)).toBe(6);
    const exact = await adjust({ inventoryItemId: line.id, newQtyOnHand: 11, reasonCodeId: 'LOST' });
    expect(exact.status).toBe(200);
    expect(exact.body.inventoryItem.qtyAvailable).toBe(0);
  });

  it('answers 401 without credentials and 403 without inventory.adjust', async () => {
    const line = await freshLine({ ON_HAND: 10 });
    const body = { inventoryItemId: line.id, newQtyOnHand: 9, reasonCodeId: 'LOST' };
    expect((await server.call('POST', '/api/inventory/adjustments', { body })).status).toBe(401);
    const reader = await a.keyWith(['inventory:read']);
    const refused = await adjust(body, reader);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('INSUFFICIENT_SCOPE');
    const viewer = await a.userWith('VIEWER');
    const token = (await server.call('POST', '/api/auth/sign-in', { body: { email: viewer.email, password: viewer.password } })).body.token;
    expect((await adjust(body, token)).status).toBe(403);
    for (const [method, path, payload] of [
      ['GET', '/api/inventory/adjustments'],
      ['GET', '/api/inventory/adjustments/reason-codes'],
      ['POST', '/api/inventory/adjust', { inventoryItemId: line.id, delta: -1, reasonCodeId: 'LOST' }],
      ['POST', '/api/inventory/adjustments/lot-correction', { inventoryItemId: line.id, toLotCode: 'NOPE', quantity: 1 }],
    ] as const) {
      expect((await server.call(method, path, { token: reader, body: payload })).status, path).toBe(403);
      expect((await server.call(method, path, { body: payload })).status, path).toBe(401);
    }
    expect(await onHand(line.id)).toBe(10);
  });

  it("answers 400 with details.inventoryItemId for another organization's or an unknown line (a body field) and leaves it unchanged", async () => {
    const line = await freshLine({ ON_HAND: 10 });
    const unknownLine = { error: 'Inventory item not found', code: 'VALIDATION_ERROR', details: { inventoryItemId: ['Inventory item not found'] } };
    const res = await adjust({ inventoryItemId: line.id, newQtyOnHand: 1, reasonCodeId: 'LOST' }, b.key);
    expect([res.status, res.body]).toEqual([400, unknownLine]);
    const signed = await adjustBy({ inventoryItemId: line.id, delta: -1, reasonCodeId: 'LOST' }, b.key);
    expect([signed.status, signed.body]).toEqual([400, unknownLine]);
    const unknown = await adjust({ inventoryItemId: 'nope', newQtyOnHand: 1, reasonCodeId: 'LOST' });
    expect([unknown.status, unknown.body]).toEqual([400, unknownLine]);
    const unknownSigned = await adjustBy({ inventoryItemId: 'nope', delta: 1, reasonCodeId: 'FOUND' });
    expect([unknownSigned.status, unknownSigned.body]).toEqual([400, unknownLine]);
    expect((await fetch(`${server.url}/health`, { signal: AbortSignal.timeout(5_000) })).status).toBe(200);
    // org A's reason code id means nothing to org B
    const lost = await reason(a.org, 'LOST');
    const mine = await addStock(server.app, b.org.id, { productMasterId: (await server.call('POST', '/api/products', { token: b.key, body: { sku: 'B-1', name: 'B' } })).body.id, locationId: b.warehouse.id }, { ON_HAND: 5 });
    const foreignReason = await adjust({ inventoryItemId: mine.id, newQtyOnHand: 4, reasonCodeId: lost.id }, b.key);
    expect(foreignReason.status).toBe(400);
    expect(foreignReason.body.details.reasonCodeId).toBeDefined();
    expect(await onHand(line.id)).toBe(10);
    expect(await ledgerCount(line.id)).toBe(1);
  });
});

describe('POST /api/inventory/adjust', () => {
  it('adds a signed delta and answers like POST /api/inventory/adjustments', async () => {
    const line = await freshLine({ ON_HAND: 10 });
    const up = await adjustBy({ inventoryItemId: line.id, delta: 5, reasonCodeId: 'FOUND' });
    expect(up.status).toBe(200);
    expect(Object.keys(up.body).sort()).toEqual(['inventoryItem', 'message', 'success', 'transaction']);
    expect(up.body.message).toBe('Adjusted on hand by +5 (from 10 to 15)');
    expect(up.body.inventoryItem.qtyOnHand).toBe(15);
    const down = await adjustBy({ inventoryItemId: line.id, delta: -15, reasonCodeId: 'LOST', comment: 'gone' });
    expect(down.body.message).toBe('Adjusted on hand by -15 (from 15 to 0)');
    expect(down.body.transaction).toMatchObject({ transactionType: 'ADJUSTMENT', deltaQty: -15, qtyBefore: 15, qtyAfter: 0, comment: 'gone' });
  });

  it('refuses 0, non-integers, going below zero and the wrong reason direction, writing nothing', async () => {
    const line = await freshLine({ ON_HAND: 3 });
    for (const [body, field] of [
      [{ inventoryItemId: line.id, delta: 0, reasonCodeId: 'OTHER' }, 'delta'],
      [{ inventoryItemId: line.id, delta: 1.5, reasonCodeId: 'OTHER' }, 'delta'],
      [{ inventoryItemId: line.id, reasonCodeId: 'OTHER' }, 'delta'],
      [{ inventoryItemId: line.id, delta: 2, reasonCodeId: 'LOST' }, 'reasonCodeId'],
    ] as const) {
      const res = await adjustBy(body);
      expect(res.status).toBe(400);
      expect(res.body.details[field]).toBeDefined();
    }
    const negative = await adjustBy({ inventoryItemId: line.id, delta: -4, reasonCodeId: 'LOST' });
    expect(negative.status).toBe(400);
    expect(negative.body).toMatchObject({ code: 'INSUFFICIENT_STOCK', details: { delta: [expect.any(String)] } });
    const huge = await adjustBy({ inventoryItemId: line.id, delta: 2_147_483_647, reasonCodeId: 'FOUND' });
    expect(huge.status).toBe(400);
    expect(await onHand(line.id)).toBe(3);
    expect(await ledgerCount(line.id)).toBe(1);
  });
});

describe('healthcare root cause', () => {
  it('needs rootCause for negative adjustments of at least the organization threshold, only in healthcare organizations', async () => {
    const clinic = await createTenant(server.app.prisma, { industry: 'healthcare' });
    const product = (await server.call('POST', '/api/products', { token: clinic.key, body: { sku: 'MED-1', name: 'Saline' } })).body.id;
    const line = await addStock(server.app, clinic.org.id, { productMasterId: product, locationId: clinic.warehouse.id }, { ON_HAND: 1000 });
    const body = (extra: object) => ({ inventoryItemId: line.id, reasonCodeId: 'LOST', ...extra });

    const missing = await adjust(body({ newQtyOnHand: 900 }), clinic.key);
    expect(missing.status).toBe(400);
    expect(missing.body.details.rootCause[0]).toMatch(/100 units/);
    expect((await adjust(body({ newQtyOnHand: 900, rootCause: '  ' }), clinic.key)).status).toBe(400);
    expect((await adjustBy(body({ delta: -100 }), clinic.key)).body.details.rootCause).toBeDefined();
    expect(await onHand(line.id)).toBe(1000);

    expect((await adjust(body({ newQtyOnHand: 901 }), clinic.key)).status).toBe(200);
    const given = await adjust(body({ newQtyOnHand: 700, rootCause: 'Freezer failure' }), clinic.key);
    expect(given.status).toBe(200);
    expect(given.body.transaction.rootCause).toBe('Freezer failure');
    expect((await adjust({ inventoryItemId: line.id, newQtyOnHand: 5000, reasonCodeId: 'FOUND' }, clinic.key)).status).toBe(200);

    await server.app.prisma.organization.update({ where: { id: clinic.org.id }, data: { largeAdjustmentThreshold: 10 } });
    const lower = await adjustBy(body({ delta: -10 }), clinic.key);
    expect(lower.status).toBe(400);
    expect(lower.body.details.rootCause[0]).toMatch(/10 units/);
    expect((await adjustBy(body({ delta: -9 }), clinic.key)).status).toBe(200);

    // another industry never needs one
    const line2 = await freshLine({ ON_HAND: 1000 });
    expect((await adjust({ inventoryItemId: line2.id, newQtyOnHand: 0, reasonCodeId: 'LOST' })).status).toBe(200);
  });
});

describe('GET /api/inventory/adjustments/reason-codes', () => {
  it('lists the active reason codes of the organization in both keys', async () => {
    const res = await server.call('GET', '/api/inventory/adjustments/reason-codes', { token: b.key });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(res.body.reasonCodes);
    expect(res.body.reasonCodes.map((r: any) => r.code)).toEqual(['COUNT_CORRECTION', 'DAMAGED', 'EXPIRED', 'FOUND', 'LOST', 'LOT_CORRECTION', 'OTHER', 'RECEIVED', 'RETURNED', 'SAMPLE']);
    expect(Object.keys(res.body.reasonCodes[0]).sort()).toEqual(['code', 'direction', 'id', 'name']);
    expect(res.body.reasonCodes.find((r: any) => r.code === 'DAMAGED').direction).toBe('DECREASE');
    const ofA = (await server.call('GET', '/api/inventory/adjustments/reason-codes', { token: a.key })).body.reasonCodes.map((r: any) => r.id);
    expect(res.body.reasonCodes.some((r: any) => ofA.includes(r.id))).toBe(false);
    const gql = await server.graphql('{ reasonCodes { id code } }', {}, b.key);
    expect(gql.body.data.reasonCodes.map((r: any) => r.id)).toEqual(res.body.reasonCodes.map((r: any) => r.id));
  });
});

describe('POST /api/inventory/adjustments/lot-correction', () => {
  const correct = (body: unknown, token = a.key) => server.call('POST', '/api/inventory/adjustments/lot-correction', { token, body });

  it('moves quantity into a new lot: two ledger rows, one transaction, target line created', async () => {
    const source = await freshLine({ ON_HAND: 10, RESERVED: 2 }, { binCode: 'A-1' });
    const lotCode = `NEW${n++}`;
    const res = await correct({ inventoryItemId: source.id, toLotCode: lotCode, toExpiryDate: '2031-05-01', quantity: 5, comment: 'label misread' });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['fromInventoryItem', 'message', 'success', 'toInventoryItem', 'transactions']);
    expect(res.body.fromInventoryItem).toMatchObject({ id: source.id, qtyOnHand: 5, qtyReserved: 2, qtyAvailable: 3, binId: source.binId, binCode: 'A-1' });
    expect(res.body.toInventoryItem).toMatchObject({ productMasterId: productId, locationId: a.warehouse.id, lotCode, expiryDate: '2031-05-01', binId: source.binId, qtyOnHand: 5, qtyAvailable: 5 });
    const [out, into] = res.body.transactions;
    expect(out).toMatchObject({ inventoryItemId: source.id, transactionType: 'LOT_CORRECTION', deltaQty: -5, qtyBefore: 10, qtyAfter: 5, reasonCode: 'LOT_CORRECTION', comment: 'label misread' });
    expect(into).toMatchObject({ inventoryItemId: res.body.toInventoryItem.id, transactionType: 'LOT_CORRECTION', deltaQty: 5, qtyBefore: 0, qtyAfter: 5 });
    expect(out.sourceId).toBe(into.sourceId);
    const lot = await server.app.prisma.lot.findFirstOrThrow({ where: { organizationId: a.org.id, code: lotCode } });
    expect(lot.expiryDate?.toISOString().slice(0, 10)).toBe('2031-05-01');

    // and back by lot id into the existing line
    const back = await correct({ inventoryItemId: res.body.toInventoryItem.id, toLotId: source.lotId, quantity: 2, reasonCodeId: 'OTHER' });
    expect(back.status).toBe(200);
    expect(back.body.toInventoryItem).toMatchObject({ id: source.id, qtyOnHand: 7 });
    expect(back.body.transactions.map((t: any) => t.reasonCode)).toEqual(['OTHER', 'OTHER']);
  });

  it('refuses to move more than is available, writing nothing', async () => {
    const source = await freshLine({ ON_HAND: 10, RESERVED: 4, ON_HOLD: 3 });
    const target = `T${n++}`;
    const res = await correct({ inventoryItemId: source.id, toLotCode: target, quantity: 4 });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'INSUFFICIENT_STOCK', details: { quantity: [expect.stringMatching(/Only 3/)] } });
    expect(await onHand(source.id)).toBe(10);
    expect(await server.app.prisma.lot.count({ where: { organizationId: a.org.id, code: target } })).toBe(0);
    expect(await server.app.prisma.stockTransaction.count({ where: { organizationId: a.org.id, transactionType: 'LOT_CORRECTION', stockLineId: source.id } })).toBe(0);

    const recalled = await freshLine({ ON_HAND: 10 }, { recalled: true });
    const fromRecalled = await correct({ inventoryItemId: recalled.id, toLotCode: `T${n++}`, quantity: 1 });
    expect(fromRecalled.status).toBe(400);
    expect(fromRecalled.body.details.quantity[0]).toMatch(/Only 0/);
    const expired = await freshLine({ ON_HAND: 10 }, { expiryDate: '2001-01-01' });
    expect((await correct({ inventoryItemId: expired.id, toLotCode: `T${n++}`, quantity: 1 })).status).toBe(400);
  });

  it('answers 400 with details for bad targets and for unknown or foreign ids in the body', async () => {
    const source = await freshLine({ ON_HAND: 10 });
    const otherLot = await freshLine({ ON_HAND: 1 }, { productMasterId: otherProductId });
    const dated = await freshLine({ ON_HAND: 1 }, { expiryDate: '2030-01-01' });
    const cases: [unknown, string][] = [
      [{ inventoryItemId: source.id, quantity: 1 }, 'toLotCode'],
      [{ inventoryItemId: source.id, toLotCode: 'X', toLotId: dated.lotId, quantity: 1 }, 'toLotId'],
      [{ inventoryItemId: source.id, toLotCode: 'X', quantity: 0 }, 'quantity'],
      [{ inventoryItemId: source.id, toLotId: otherLot.lotId, quantity: 1 }, 'toLotId'],
      [{ inventoryItemId: source.id, toLotId: source.lotId, quantity: 1 }, 'toLotId'],
      [{ inventoryItemId: source.id, toLotCode: (await server.app.prisma.lot.findUniqueOrThrow({ where: { id: dated.lotId! } })).code, toExpiryDate: '2030-02-02', quantity: 1 }, 'toExpiryDate'],
      [{ inventoryItemId: source.id, toLotCode: 'X', toExpiryDate: '2030-02-31', quantity: 1 }, 'toExpiryDate'],
      [{ inventoryItemId: source.id, toLotCode: 'X', quantity: 1, reasonCodeId: 'DAMAGED' }, 'reasonCodeId'],
    ];
    for (const [body, field] of cases) {
      const res = await correct(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.body.details), JSON.stringify(body)).toContain(field);
    }
    const unknownLine = { error: 'Inventory item not found', code: 'VALIDATION_ERROR', details: { inventoryItemId: ['Inventory item not found'] } };
    const unknownLot = { error: 'Lot not found', code: 'VALIDATION_ERROR', details: { toLotId: ['Lot not found'] } };
    const unknownSource = await correct({ inventoryItemId: 'nope', toLotCode: 'X', quantity: 1 });
    expect([unknownSource.status, unknownSource.body]).toEqual([400, unknownLine]);
    const unknownTarget = await correct({ inventoryItemId: source.id, toLotId: 'nope', quantity: 1 });
    expect([unknownTarget.status, unknownTarget.body]).toEqual([400, unknownLot]);
    const foreignSource = await correct({ inventoryItemId: source.id, toLotCode: 'X', quantity: 1 }, b.key);
    expect([foreignSource.status, foreignSource.body]).toEqual([400, unknownLine]);
    const bLine = await addStock(server.app, b.org.id, { productMasterId: (await server.call('POST', '/api/products', { token: b.key, body: { sku: 'B-LOT', name: 'B' } })).body.id, locationId: b.warehouse.id }, { ON_HAND: 5 });
    const foreignLot = await correct({ inventoryItemId: bLine.id, toLotId: source.lotId, quantity: 1 }, b.key);
    expect([foreignLot.status, foreignLot.body]).toEqual([400, unknownLot]);
    expect(await onHand(source.id)).toBe(10);
    expect(await onHand(bLine.id)).toBe(5);
    expect(await server.app.prisma.lot.count({ where: { organizationId: a.org.id, code: 'X' } })).toBe(0);
  });
});

describe('GraphQL adjustments', () => {
  it('adjustStock, adjustStockBy and correctLot answer like REST and keep to the organization', async () => {
    const line = await freshLine({ ON_HAND: 30 });
    const adjustStock = `mutation ($input: StockAdjustmentInput!) { adjustStock(input: $input) { ... on StockAdjustmentResult { success message transaction { deltaQty qtyAfter }
      inventoryItem { qtyOnHand quantityAvailable stockLine { id product { sku } lot { code } } } } ${REFUSAL} } }`;
    const res = await server.graphql(adjustStock, { input: { inventoryItemId: line.id, newQtyOnHand: 25, reasonCodeId: 'LOST' } }, a.key);
    expect(res.body.data.adjustStock).toMatchObject({
      success: true, message: 'Adjusted on hand by -5 (from 30 to 25)', transaction: { deltaQty: -5, qtyAfter: 25 },
      inventoryItem: { qtyOnHand: 25, quantityAvailable: 25, stockLine: { id: line.id, product: { sku: 'ADJ-1' } } },
    });
    const by = await server.graphql(`mutation ($id: ID!) { adjustStockBy(input: { inventoryItemId: $id, delta: 2, reasonCodeId: "FOUND" }) { ... on StockAdjustmentResult { inventoryItem { qtyOnHand } } } }`, { id: line.id }, a.key);
    expect(by.body.data.adjustStockBy.inventoryItem.qtyOnHand).toBe(27);
    const lot = await server.graphql(
      `mutation ($id: ID!) { correctLot(input: { inventoryItemId: $id, toLotCode: "GQL-LOT", quantity: 7 }) { ... on LotCorrectionResult { success transactions { deltaQty } toInventoryItem { lotCode qtyOnHand } } } }`,
      { id: line.id },
      a.key,
    );
    expect(lot.body.data.correctLot).toEqual({ success: true, transactions: [{ deltaQty: -7 }, { deltaQty: 7 }], toInventoryItem: { lotCode: 'GQL-LOT', qtyOnHand: 7 } });

    for (const [query, vars] of [
      [adjustStock, { input: { inventoryItemId: line.id, newQtyOnHand: 1, reasonCodeId: 'LOST' } }],
      [`mutation ($id: ID!) { adjustStockBy(input: { inventoryItemId: $id, delta: -1, reasonCodeId: "LOST" }) { ... on StockAdjustmentResult { success } ${REFUSAL} } }`, { id: line.id }],
      [`mutation ($id: ID!) { correctLot(input: { inventoryItemId: $id, toLotCode: "STOLEN", quantity: 1 }) { ... on LotCorrectionResult { success } ${REFUSAL} } }`, { id: line.id }],
    ] as const) {
      const foreign = await graphqlRefusal(server, b.key, query, vars);
      expect(foreign).toMatchObject({ type: 'ValidationError', code: 'VALIDATION_ERROR', details: { inventoryItemId: ['Inventory item not found'] } });
    }
    expect(await onHand(line.id)).toBe(20);
    const refused = await server.graphql('{ reasonCodes { id } }', {}, await a.keyWith(['inventory:read']));
    expect(refused.body.errors[0].extensions.code).toBe('INSUFFICIENT_SCOPE');
  });
});

describe('the ledger', () => {
  it('accounts for the quantities of every stock line the file touched', () => expectLedgerBalanced(server.app.prisma));
});
