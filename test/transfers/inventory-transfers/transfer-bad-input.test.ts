import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocationFor } from '../../../src/services/admin/admin.js';
import { createProduct } from '../../support/api.js';
import type { Tenant } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';
import { addStock } from '../../support/stock.js';
import { startServerWithTwoTenants } from '../../support/two-tenants.js';
import { RECS } from '../recommendations/recommendation-setup.js';

// Bad input on every transfer path is a 4xx naming the problem, never a 500, and changes nothing:
// malformed JSON, wrong types, huge numbers, NUL characters, empty and duplicate lines, same source
// and destination, over-receipt, cancelling twice.
let server: TestServer;
let a: Tenant;
let b: Tenant;
let store: { id: string };
let productId: string;

const T = '/api/inventory/transfers';

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants());
  store = await createLocationFor(server.operator, { organizationId: a.org.id, code: 'ST1', name: 'Store' });
  productId = await createProduct(server, a.key, 'BAD-1');
  await addStock(server.app, a.org.id, { productMasterId: productId, locationId: a.warehouse.id }, { ON_HAND: 100 });
});
afterAll(() => server?.close());

const call = (method: string, path: string, body?: unknown, token = a.key) => server.call(method, path, { token, body });
const draftBody = (extra: Record<string, unknown> = {}) => ({ sourceLocationId: a.warehouse.id, destLocationId: store.id, lines: [{ productMasterId: productId, quantity: 5 }], ...extra });

/** [path's answer, expected status, expected details field (or code)] */
const expectAnswer = (res: { status: number; body: any }, status: number, field?: string) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  if (field) expect([Object.keys(res.body.details ?? {}), res.body.code].flat()).toContain(field);
};

describe('bad input on the transfer paths', () => {
  it('inventory transfers: create and act', async () => {
    const before = await server.app.prisma.inventoryTransfer.count();
    expectAnswer(await call('POST', T, '{"lines":'), 400, 'BAD_REQUEST');
    expectAnswer(await call('POST', T, '[]'), 400, 'body');
    expectAnswer(await call('POST', T, draftBody({ lines: [{ productMasterId: productId, quantity: 1e300 }] })), 400, 'lines.0.quantity');
    expectAnswer(await call('POST', T, draftBody({ lines: [{ productMasterId: productId, quantity: -1 }] })), 400, 'lines.0.quantity');
    expectAnswer(await call('POST', T, draftBody({ lines: [{ productMasterId: productId, quantity: '5' }] })), 400, 'lines.0.quantity');
    expectAnswer(await call('POST', T, draftBody({ lines: [] })), 400, 'lines');
    expectAnswer(await call('POST', T, draftBody({ lines: [null] })), 400, 'lines.0');
    expectAnswer(await call('POST', T, draftBody({ destLocationId: a.warehouse.id })), 400, 'destLocationId');
    expectAnswer(await call('POST', T, draftBody({ destLocationId: b.warehouse.id })), 400, 'destLocationId');
    expectAnswer(await call('POST', T, draftBody({ notes: 'a\u0000b' })), 400, 'notes');
    expectAnswer(await call('POST', T, draftBody({ sourceLocationId: 'x\u0000' })), 400, 'sourceLocationId');
    expectAnswer(await call('POST', T, draftBody({ expectedAt: '2030-02-31' })), 400, 'expectedAt');
    expect(await server.app.prisma.inventoryTransfer.count()).toBe(before);

    const twice = (await call('POST', T, draftBody({ lines: [{ productMasterId: productId, quantity: 60 }, { productMasterId: productId, quantity: 60 }] }))).body;
    expectAnswer(await call('POST', `${T}/${twice.id}`, { action: 'ship' }), 400, 'lines.1.quantity');
    expect((await call('GET', `${T}/${twice.id}`)).body).toMatchObject({ status: 'DRAFT', totalShipped: 0 });

    const t = (await call('POST', T, draftBody())).body;
    expectAnswer(await call('POST', `${T}/${t.id}`, '{"action":'), 400, 'BAD_REQUEST');
    expectAnswer(await call('POST', `${T}/${t.id}`, {}), 400, 'action');
    expectAnswer(await call('POST', `${T}/${t.id}`, { action: 5 }), 400, 'action');
    expectAnswer(await call('POST', `${T}/${t.id}`, { action: 'update', sourceLocationId: store.id }), 400, 'destLocationId');
    expectAnswer(await call('POST', `${T}/${t.id}`, { action: 'update', lines: [] }), 400, 'lines');
    expectAnswer(await call('POST', `${T}/${t.id}`, { action: 'receive' }), 409, 'INVALID_STATE');
    expectAnswer(await call('POST', `${T}/a%00b`, { action: 'ship' }), 400, 'id');
    expectAnswer(await call('POST', `${T}/${t.id}`, { action: 'cancel' }, b.key), 404);
    expectAnswer(await call('POST', `${T}/${t.id}`, { action: 'ship' }), 200);
    const lineId = t.lines[0].id;
    expectAnswer(await call('POST', `${T}/${t.id}`, { action: 'receive', lines: [{ lineId, quantity: 3 }, { lineId, quantity: 3 }] }), 400, 'lines.1.quantity');
    expectAnswer(await call('POST', `${T}/${t.id}`, { action: 'receive', lines: [{ lineId, quantity: -3 }] }), 400, 'lines.0.quantity');
    expectAnswer(await call('POST', `${T}/${t.id}`, { action: 'receive', lines: [{ lineId: 'nope', quantity: 1 }] }), 400, 'lines.0.lineId');
    expectAnswer(await call('POST', `${T}/${t.id}`, { action: 'receive', lines: [] }), 400, 'lines');
    expect((await call('GET', `${T}/${t.id}`)).body).toMatchObject({ status: 'IN_TRANSIT', totalShipped: 5, totalReceived: 0 });
    expectAnswer(await call('POST', `${T}/${t.id}`, { action: 'cancel' }), 200);
    expectAnswer(await call('POST', `${T}/${t.id}`, { action: 'cancel' }), 409, 'INVALID_STATE');
    const stock = await server.app.prisma.stockLine.findMany({ where: { productMasterId: productId } });
    expect(stock.map((l) => [l.locationId, l.qtyOnHand])).toEqual([[a.warehouse.id, 100]]);
  });

  it('inventory transfer queries and bins', async () => {
    for (const query of ['limit=0', 'limit=101', 'limit=abc', 'offset=-1', 'offset=99999999999999999999', 'status=foo', 'createdFrom=nope', 'productMasterId=a%00b']) {
      expectAnswer(await call('GET', `${T}?${query}`), 400, query.split('=')[0]);
    }
    expectAnswer(await call('GET', `${T}?sourceLocationId=${b.warehouse.id}`), 404);
    expectAnswer(await call('GET', `${T}/bins`), 400, 'locationId');
    expectAnswer(await call('GET', `${T}/bins?locationId=${b.warehouse.id}`), 404);
    const move = { locationId: a.warehouse.id, productMasterId: productId, fromBinId: 'x', toBinId: 'y', quantity: 1 };
    expectAnswer(await call('POST', `${T}/bins`, { ...move, toBinId: 'x' }), 400, 'toBinId');
    expectAnswer(await call('POST', `${T}/bins`, move), 400, 'fromBinId');
    expectAnswer(await call('POST', `${T}/bins`, { ...move, quantity: 2 ** 31 }), 400, 'quantity');
    expectAnswer(await call('GET', `${T}/in-transit?locationId=%00`), 400, 'locationId');
  });

  it('transfer recommendations', async () => {
    expectAnswer(await call('POST', RECS, '{"a":'), 400, 'BAD_REQUEST');
    expectAnswer(await call('POST', RECS, '"x"'), 400, 'body');
    expectAnswer(await call('POST', RECS, { locationId: b.warehouse.id }), 400, 'locationId');
    expectAnswer(await call('POST', RECS, { locationId: 'a\u0000' }), 400, 'locationId');
    expectAnswer(await call('POST', RECS, { minStockDifferencePct: 1.5 }), 400, 'minStockDifferencePct');
    expectAnswer(await call('POST', RECS, { minStockDifferencePct: '0.5' }), 400, 'minStockDifferencePct');
    expectAnswer(await call('POST', RECS, { unitMargin: 0 }), 400, 'unitMargin');
    expectAnswer(await call('POST', RECS, { unitMargin: 1e308 }), 400, 'unitMargin');
    expectAnswer(await call('POST', RECS, { requirePositiveROI: 'yes' }), 400, 'requirePositiveROI');
    for (const query of ['status=foo', 'priority=x', 'limit=101', 'limit=0', 'offset=-1', 'validOnly=maybe', 'productMasterId=a%00']) {
      expectAnswer(await call('GET', `${RECS}?${query}`), 400, query.split('=')[0]);
    }
    expectAnswer(await call('GET', `${RECS}/a%00`), 400, 'id');
    for (const move of ['approve', 'reject']) {
      expectAnswer(await call('POST', `${RECS}/nope/${move}`, { comment: 5 }), 400, 'comment');
      expectAnswer(await call('POST', `${RECS}/nope/${move}`, '5'), 400, 'body');
      expectAnswer(await call('POST', `${RECS}/nope/${move}`, {}), 404);
    }
  });
});
