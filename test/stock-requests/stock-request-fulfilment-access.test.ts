import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocationFor } from '../../src/services/admin/admin.js';
import { createProduct, graphqlData, graphqlRefusal } from '../support/api.js';
import type { Tenant } from '../support/fixtures.js';
import { REFUSAL } from '../support/graphql.js';
import { expectLedgerBalanced } from '../support/ledger-balance.js';
import type { TestServer } from '../support/server.js';
import { addStock } from '../support/stock.js';
import { startServerWithTwoTenants } from '../support/two-tenants.js';

// Fulfilment over GraphQL, who may fulfil (stockrequests.write: PLANNER and up, inventory:write keys), and
// that the units shipped are the very ones reserved (not another line of the same product).
let server: TestServer;
let a: Tenant;
let b: Tenant;
let ward: { id: string };
let product: string;

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants());
  ward = await createLocationFor(server.operator, { organizationId: a.org.id, code: 'WARD1', name: 'Ward 1' });
  product = await createProduct(server, a.key, 'FUL-ACCESS');
  await addStock(server.app, a.org.id, { productMasterId: product, locationId: a.warehouse.id }, { ON_HAND: 1000 });
});
afterAll(() => server?.close());

const call = (method: string, path: string, token: string, body?: unknown) => server.call(method, path, { token, body });
const approved = async (productMasterId = product, quantityRequested = 4) => {
  const created = await call('POST', '/api/stock-requests', a.key, { requestingLocationId: ward.id, supplyingLocationId: a.warehouse.id, neededBy: '2031-01-01', lines: [{ productMasterId, quantityRequested }] });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  await call('POST', `/api/stock-requests/${created.body.id}/submit`, a.key, {});
  expect((await call('POST', `/api/stock-requests/${created.body.id}/approve`, a.key, {})).status).toBe(200);
  return created.body.id as string;
};
const signIn = async (role: 'ADMIN' | 'MANAGER' | 'PLANNER' | 'VIEWER') => {
  const user = await a.userWith(role);
  return (await server.call('POST', '/api/auth/sign-in', { body: { email: user.email, password: user.password } })).body.token as string;
};
const FULFIL = `mutation ($input: StockRequestFulfilInput!) { fulfilStockRequest(input: $input) { __typename
  ... on StockRequest { id status remainderClosedAt lines { quantityApproved quantityFulfilled quantityReserved quantityReceived } } ${REFUSAL} } }`;

describe('fulfilment over GraphQL', () => {
  it('fulfils with lines and closeRemainder, shows the transfer in the history, and answers typed refusals', async () => {
    const id = await approved();
    const over = await graphqlRefusal(server, a.key, FULFIL, { input: { id, lines: [{ productMasterId: product, quantity: 5 }] } });
    expect(over).toMatchObject({ type: 'ValidationError', code: 'VALIDATION_ERROR' });
    const done = await graphqlData(server, a.key, FULFIL, { input: { id, lines: [{ productMasterId: product, quantity: 3 }], closeRemainder: true, note: 'last one broken' } });
    expect(done.fulfilStockRequest).toMatchObject({
      __typename: 'StockRequest',
      status: 'PARTIALLY_FULFILLED',
      remainderClosedAt: expect.any(String),
      lines: [{ quantityApproved: 4, quantityFulfilled: 3, quantityReserved: 0, quantityReceived: 0 }],
    });
    const again = await graphqlRefusal(server, a.key, FULFIL, { input: { id } });
    expect(again).toMatchObject({ type: 'ConflictError', code: 'INVALID_STATE' });
    const history = await graphqlData(server, a.key, `query ($id: ID!) { stockRequestHistory(id: $id) { events { kind note transferId } } }`, { id });
    const fulfilment = history.stockRequestHistory.events.find((e: { kind: string }) => e.kind === 'FULFILMENT');
    expect(fulfilment.note).toContain('last one broken');
    const transfer = await graphqlData(server, a.key, `query ($id: ID!) { inventoryTransfer(id: $id) { status sourceType sourceId } }`, { id: fulfilment.transferId });
    expect(transfer.inventoryTransfer).toEqual({ status: 'IN_TRANSIT', sourceType: 'STOCK_REQUEST', sourceId: id });
    const moved = await graphqlData(server, a.key, `mutation ($input: StockRequestStatusInput!) { moveStockRequest(input: $input) { __typename ${REFUSAL} } }`, {
      input: { id: await approved(), status: 'PARTIALLY_FULFILLED' },
    });
    expect(moved.moveStockRequest.__typename).toBe('StockRequest');
    const foreign = await graphqlRefusal(server, b.key, FULFIL, { input: { id } });
    expect(foreign).toMatchObject({ type: 'NotFoundError', code: 'NOT_FOUND' });
  });

  it('ships the very stock line reserved, not another line of the product that a wider match would take first', async () => {
    const p = await createProduct(server, a.key, 'FUL-EXACT');
    // The binned line is made first (the lower id): a ship without the exact flag would take it first.
    const binned = await addStock(server.app, a.org.id, { productMasterId: p, locationId: a.warehouse.id, binCode: 'B1' }, { ON_HAND: 4, ON_HOLD: 4 });
    const loose = await addStock(server.app, a.org.id, { productMasterId: p, locationId: a.warehouse.id }, { ON_HAND: 4 });
    const id = await approved(p, 4);
    await addStock(server.app, a.org.id, { productMasterId: p, locationId: a.warehouse.id, binCode: 'B1' }, { ON_HOLD: -4 });
    expect((await call('POST', `/api/stock-requests/${id}/fulfil`, a.key, {})).status).toBe(200);
    const after = await server.app.prisma.stockLine.findMany({ where: { id: { in: [binned.id, loose.id] } } });
    expect(Object.fromEntries(after.map((l) => [l.id === binned.id ? 'binned' : 'loose', [l.qtyOnHand, l.qtyReserved]]))).toEqual({ binned: [4, 0], loose: [0, 0] });
    await expectLedgerBalanced(server.app.prisma, [binned.id, loose.id]);
  });
});

describe('who may fulfil', () => {
  it('PLANNER, MANAGER and ADMIN fulfil (stockrequests.write); VIEWER is 403 and nothing changes', async () => {
    const viewer = await signIn('VIEWER');
    const id = await approved();
    expect((await call('POST', `/api/stock-requests/${id}/fulfil`, viewer, {})).status).toBe(403);
    expect((await call('POST', `/api/stock-requests/${id}/status`, viewer, { status: 'PARTIALLY_FULFILLED' })).status).toBe(403);
    expect((await server.app.prisma.stockRequest.findUniqueOrThrow({ where: { id } })).status).toBe('APPROVED');
    expect(await server.app.prisma.inventoryTransfer.count({ where: { sourceId: id } })).toBe(0);
    for (const role of ['PLANNER', 'MANAGER', 'ADMIN'] as const) {
      const res = await call('POST', `/api/stock-requests/${await approved()}/fulfil`, await signIn(role), {});
      expect(res.status, role).toBe(200);
    }
  });

  it('API keys: inventory:write and inventory:* fulfil; inventory:read and other scopes are 403', async () => {
    for (const scope of ['inventory:write', 'inventory:*']) {
      expect((await call('POST', `/api/stock-requests/${await approved()}/fulfil`, await a.keyWith([scope]), {})).status, scope).toBe(200);
    }
    for (const scope of ['inventory:read', 'forecast:read']) {
      expect((await call('POST', `/api/stock-requests/${await approved()}/fulfil`, await a.keyWith([scope]), {})).status, scope).toBe(403);
    }
    expect((await server.call('POST', `/api/stock-requests/${await approved()}/fulfil`, { body: {} })).status).toBe(401);
  });
});
