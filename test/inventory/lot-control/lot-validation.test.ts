import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemContext } from '../../../src/context.js';
import { inTransaction } from '../../../src/db/transactions.js';
import { openReservations } from '../../../src/services/inventory/reservations/fefo-reservations.js';
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
let foreignProduct: string;
const lines: Record<string, string> = {};

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants());
  product = await createProduct(server, a.key, 'LOT-1');
  foreignProduct = await createProduct(server, b.key, 'LOT-1');
  const at = { productMasterId: product, locationId: a.warehouse.id };
  const add = async (name: string, line: Record<string, unknown>, deltas: Record<string, number>) =>
    (lines[name] = (await addStock(server.app, a.org.id, { ...at, ...line }, deltas)).id);
  await add('expired', { lotCode: 'EXP', expiryDate: day(-3) }, { ON_HAND: 10 });
  await add('recalled', { lotCode: 'REC', expiryDate: day(20), recalled: true }, { ON_HAND: 10 });
  await add('short', { lotCode: 'SHORT', expiryDate: day(5) }, { ON_HAND: 10 });
  await add('held', { lotCode: 'HELD', expiryDate: day(40) }, { ON_HAND: 4, ON_HOLD: 4 });
  await add('soon', { lotCode: 'SOON', expiryDate: day(30) }, { ON_HAND: 6, RESERVED: 1 });
  await add('later', { lotCode: 'LATER', expiryDate: day(90) }, { ON_HAND: 8 });
  await add('none', {}, { ON_HAND: 3 });
  await addStock(server.app, b.org.id, { productMasterId: foreignProduct, locationId: b.warehouse.id, lotCode: 'B1', expiryDate: day(30) }, { ON_HAND: 5 });
}, 60_000);
afterAll(() => server?.close());

const validate = (token: string, query: string) => server.call('GET', `/api/inventory/lot-control/validate?${query}`, { token });
const post = (token: string, body: unknown) => server.call('POST', '/api/inventory/lot-control/validate', { token, body });
const setMinimum = (days: number | null) => server.call('PATCH', `/api/products/${product}`, { token: a.key, body: { minShelfLifeDays: days } });

describe('lot control: GET/POST /api/inventory/lot-control/validate', () => {
  it('lists every line in pick order with its refusal; without a minimum a short-dated lot is pickable', async () => {
    const res = await validate(a.key, `productMasterId=${product}&locationId=${a.warehouse.id}&quantity=10`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ requestedQuantity: 10, minShelfLifeDays: 0, minShelfLifeSource: 'ORGANIZATION', canFulfill: true, shortfall: 0, allocatedQuantity: 10 });
    expect(res.body.lines.map((l: any) => [l.lotCode, l.qtyToPick, l.refusal?.code ?? null])).toEqual([
      ['EXP', 0, 'EXPIRED'],
      ['SHORT', 10, null],
      ['REC', 0, 'RECALLED'],
      ['SOON', 0, null],
      ['HELD', 0, 'ON_HOLD'],
      ['LATER', 0, null],
      [null, 0, null],
    ]);
    expect(res.body.lines[0]).toMatchObject({ stockLineId: lines.expired, daysToExpiry: -3, pickable: false, qtyAvailable: 10 });
  });

  it("refuses short-dated lots under the product's minimum (set on the product), on GET and POST alike", async () => {
    expect((await setMinimum(10)).status).toBe(200);
    const body = { productMasterId: product, locationId: a.warehouse.id, quantity: 20 };
    const res = await post(a.key, body);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ minShelfLifeDays: 10, minShelfLifeSource: 'PRODUCT', pickableQuantity: 16, allocatedQuantity: 16, canFulfill: false, shortfall: 4 });
    const byLot = Object.fromEntries(res.body.lines.map((l: any) => [l.lotCode, l]));
    expect(byLot.SHORT.refusal).toEqual({ code: 'SHORT_DATED', message: expect.any(String) });
    expect([byLot.SOON.qtyToPick, byLot.LATER.qtyToPick, byLot[null as any].qtyToPick]).toEqual([5, 8, 3]);
    const get = await validate(a.key, `productMasterId=${product}&locationId=${a.warehouse.id}&quantity=20`);
    expect(get.body).toEqual(res.body);
  });

  it('what it says is what a pick (the reservations service) takes', async () => {
    const said = (await post(a.key, { productMasterId: product, locationId: a.warehouse.id, quantity: 7 })).body;
    const ctx = systemContext(server.app, { organization: a.org, actor: { type: 'apiKey', id: 'test', scopes: ['*'] }, origin: '127.0.0.1' });
    const taken = await inTransaction(ctx, async (tx) => {
      const session = await openReservations(tx, { stockOf: [{ productMasterId: product, locationId: a.warehouse.id }] });
      const allocations = session.reserve({ productMasterId: product, locationId: a.warehouse.id, quantity: 7 }, { transactionType: 'RESERVE', comment: 'lot-control test' });
      await session.write();
      return allocations;
    });
    expect(taken.map((t) => [t.stockLineId, t.quantity])).toEqual(said.lines.filter((l: any) => l.qtyToPick).map((l: any) => [l.stockLineId, l.qtyToPick]));
  });

  it('a named lot (by id or code) answers for that lot only', async () => {
    const byCode = await validate(a.key, `productMasterId=${product}&locationId=${a.warehouse.id}&lotCode=EXP&quantity=2`);
    expect(byCode.body).toMatchObject({ canFulfill: false, shortfall: 2, lines: [{ lotCode: 'EXP', refusal: { code: 'EXPIRED' } }] });
    const lotId = byCode.body.lines[0].lotId;
    const byId = await post(a.key, { productMasterId: product, locationId: a.warehouse.id, lotId: (await validate(a.key, `productMasterId=${product}&locationId=${a.warehouse.id}&lotCode=LATER`)).body.lines[0].lotId });
    expect(byId.body).toMatchObject({ requestedQuantity: 1, canFulfill: true, lines: [{ lotCode: 'LATER', qtyToPick: 1 }] });
    expect((await post(a.key, { productMasterId: product, locationId: a.warehouse.id, lotId, lotCode: 'EXP' })).status).toBe(400);
  });

  it("the organization's minimum applies when the product has none", async () => {
    await setMinimum(null);
    await server.app.prisma.organization.update({ where: { id: a.org.id }, data: { minShelfLifeDays: 35 } });
    const res = await post(a.key, { productMasterId: product, locationId: a.warehouse.id, quantity: 1 });
    expect(res.body).toMatchObject({ minShelfLifeDays: 35, minShelfLifeSource: 'ORGANIZATION' });
    const byLot = Object.fromEntries(res.body.lines.map((l: any) => [l.lotCode, l.refusal?.code ?? null]));
    expect(byLot).toMatchObject({ SHORT: 'SHORT_DATED', SOON: 'SHORT_DATED', HELD: 'ON_HOLD', LATER: null });
    await server.app.prisma.organization.update({ where: { id: a.org.id }, data: { minShelfLifeDays: 0 } });
  });

  it('refuses bad input naming the field, and ids of another organization (400 in query and body)', async () => {
    const missing = await validate(a.key, `locationId=${a.warehouse.id}`);
    expect(missing.status).toBe(400);
    expect(missing.body.details).toHaveProperty('productMasterId');
    expect((await validate(a.key, `productMasterId=${product}&locationId=${a.warehouse.id}&quantity=0`)).body.details).toHaveProperty('quantity');
    expect((await validate(a.key, `productMasterId=${product}&locationId=${a.warehouse.id}&colour=red`)).status).toBe(400);
    expect((await post(a.key, { productMasterId: product, locationId: a.warehouse.id, colour: 'red' })).status).toBe(400);
    for (const [field, body] of [
      ['productMasterId', { productMasterId: foreignProduct, locationId: a.warehouse.id }],
      ['locationId', { productMasterId: product, locationId: b.warehouse.id }],
      ['lotCode', { productMasterId: product, locationId: a.warehouse.id, lotCode: 'B1' }],
      ['binId', { productMasterId: product, locationId: a.warehouse.id, binId: 'unknown-bin' }],
    ] as const) {
      const res = await post(a.key, body);
      expect(res.status, field).toBe(400);
      expect(res.body.details, field).toHaveProperty(field);
      const get = await validate(a.key, new URLSearchParams(body as Record<string, string>).toString());
      expect(get.status, field).toBe(400);
    }
  });

  it('needs inventory.read; GraphQL validateLots answers the same', async () => {
    const reader = await a.keyWith(['inventory:read']);
    const other = await a.keyWith(['reports:read']);
    const query = `productMasterId=${product}&locationId=${a.warehouse.id}&quantity=3`;
    expect((await validate(reader, query)).status).toBe(200);
    expect((await validate(other, query)).status).toBe(403);
    expect((await post(other, { productMasterId: product, locationId: a.warehouse.id })).status).toBe(403);
    expect((await validate('', query)).status).toBe(401);
    const gql = await server.graphql(
      `query ($input: LotValidationInput!) { validateLots(input: $input) { canFulfill allocatedQuantity lines { lotCode qtyToPick refusal { code } stockLine { id } } } }`,
      { input: { productMasterId: product, locationId: a.warehouse.id, quantity: 3 } },
      reader,
    );
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.validateLots).toMatchObject({ canFulfill: true, allocatedQuantity: 3 });
    const foreign = await server.graphql(`query ($input: LotValidationInput!) { validateLots(input: $input) { canFulfill } }`, { input: { productMasterId: foreignProduct, locationId: a.warehouse.id } }, a.key);
    expect(foreign.body.errors[0].extensions.code).toBe('VALIDATION_ERROR');
  });

  it('changes nothing: the ledger balances', async () => {
    const before = await server.app.prisma.stockTransaction.count();
    await post(a.key, { productMasterId: product, locationId: a.warehouse.id, quantity: 50 });
    expect(await server.app.prisma.stockTransaction.count()).toBe(before);
    await expectLedgerBalanced(server.app.prisma);
  });
});
