import { createClient, type Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createLocationFor } from '../../src/services/admin/admin.js';
import { createProduct, graphqlData, graphqlError } from '../support/api.js';
import type { Tenant } from '../support/fixtures.js';
import type { TestServer } from '../support/server.js';
import { addStock } from '../support/stock.js';
import { startServerWithTwoTenants } from '../support/two-tenants.js';

// The GraphQL side of the stock-request lists and helpers, and the subscription on a request's status
// over graphql-ws: each move (and rollback) is sent with the request, limited to the caller's organization.
let server: TestServer;
let a: Tenant;
let b: Tenant;
let ward: string;
let product: string;
const clients: Client[] = [];

beforeAll(async () => {
  // The status subscription is fed by the published events: this instance publishes them.
  ({ server, a, b } = await startServerWithTwoTenants({ EVENT_PUBLISH_POLL_MS: '20' }));
  ward = (await createLocationFor(server.operator, { organizationId: a.org.id, code: 'WARD-G', name: 'Ward G' })).id;
  product = await createProduct(server, a.key, 'GQL-L1');
  await server.app.prisma.inventoryLevel.create({ data: { organizationId: a.org.id, productMasterId: product, locationId: ward, reorderQuantity: 5, maxQuantity: 20 } });
  await addStock(server.app, a.org.id, { productMasterId: product, locationId: a.warehouse.id }, { ON_HAND: 40 });
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.dispose()));
  await server?.close();
});

const create = async (token = a.key) => {
  const res = await server.call('POST', '/api/stock-requests', {
    token,
    body: { requestingLocationId: ward, supplyingLocationId: a.warehouse.id, neededBy: '2031-01-01', lines: [{ productMasterId: product, quantityRequested: 4 }] },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
};
const post = async (id: string, path: string, body: unknown = {}) => {
  const res = await server.call('POST', `/api/stock-requests/${id}/${path}`, { token: a.key, body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};

describe('stock-request helpers over GraphQL', () => {
  it('answers each helper query with its links', async () => {
    const id = await create();
    await post(id, 'submit');
    const data = await graphqlData(
      server,
      a.key,
      `query ($ward: ID!, $warehouse: ID!) {
        stockRequestsByCategory(requestingLocationId: $ward) { categoryId categoryName quantityRequested requestCount }
        stockRequestDashboard(locationId: $ward) { total overdue byStatus { status count } medianApprovalHours medianFulfilmentHours }
        stockRequestFilterValues { statuses priorities requestingLocations { id code } supplyingLocations { id } requesters { requesterType name } }
        stockRequestsPendingApproval(first: 10, requestingLocationId: $ward) { totalCount edges { node { id status lines { product { id } } } } }
        stockRequestProductSearch(requestingLocationId: $ward, supplyingLocationId: $warehouse, search: "gql") { total products { product { id sku } supplyingOnHand requestingOnHand } }
        stockRequestStocklist(requestingLocationId: $ward) { total items { product { id } suggestedQuantity action maxQuantity } }
        stockRequests(first: 5, requestingLocationId: $ward, requesterId: "nobody", from: "2020-01-01", to: "2030-01-01") { totalCount }
      }`,
      { ward, warehouse: a.warehouse.id },
    );
    expect(data.stockRequestsByCategory).toEqual([{ categoryId: null, categoryName: null, quantityRequested: 4, requestCount: 1 }]);
    expect(data.stockRequestDashboard).toMatchObject({ total: 1, overdue: 0, medianApprovalHours: null, medianFulfilmentHours: null });
    expect(data.stockRequestDashboard.byStatus[1]).toEqual({ status: 'SUBMITTED', count: 1 });
    expect(data.stockRequestFilterValues).toMatchObject({ requestingLocations: [{ id: ward, code: 'WARD-G' }], supplyingLocations: [{ id: a.warehouse.id }] });
    expect(data.stockRequestsPendingApproval).toEqual({ totalCount: 1, edges: [{ node: { id, status: 'SUBMITTED', lines: [{ product: { id: product } }] } }] });
    expect(data.stockRequestProductSearch).toEqual({ total: 1, products: [{ product: { id: product, sku: 'GQL-L1' }, supplyingOnHand: 40, requestingOnHand: 0 }] });
    // The warehouse has no inventory level, so it is no source to move from: the projection orders.
    expect(data.stockRequestStocklist).toEqual({ total: 1, items: [{ product: { id: product }, suggestedQuantity: 20, action: 'ORDER', maxQuantity: 20 }] });
    expect(data.stockRequests.totalCount).toBe(0);
  });

  it('refuses callers without the permissions, foreign locations and bad arguments', async () => {
    const reportsOnly = await a.keyWith(['reports:read']);
    const search = `query ($ward: ID!, $warehouse: ID!) { stockRequestProductSearch(requestingLocationId: $ward, supplyingLocationId: $warehouse) { total } }`;
    expect((await graphqlError(server, reportsOnly, search, { ward, warehouse: a.warehouse.id })).code).toBe('INSUFFICIENT_SCOPE');
    expect((await graphqlError(server, await a.keyWith(['inventory:write']), '{ stockRequestsPendingApproval(first: 1) { totalCount } }')).code).toBe('INSUFFICIENT_SCOPE');
    expect((await graphqlError(server, a.key, search, { ward, warehouse: b.warehouse.id })).code).toBe('NOT_FOUND');
    const bad = await graphqlError(server, a.key, '{ stockRequestDashboard(from: "2000-01-01", to: "2030-01-01") { total } }');
    expect(bad).toMatchObject({ code: 'VALIDATION_ERROR', details: { to: [expect.stringMatching(/^Must be at most 3660 days after from/)] } });
  });
});

function client(token: string) {
  const created = createClient({ url: `${server.url.replace(/^http/, 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${token}` }, retryAttempts: 0, lazy: true });
  clients.push(created);
  return created;
}

/** A subscription whose results are taken one at a time. */
function open(c: Client, query: string, variables: Record<string, unknown>) {
  const queue: any[] = [];
  let waiting: ((r: any) => void) | null = null;
  let ended!: () => void;
  const done = new Promise<void>((resolve) => (ended = resolve));
  const push = (r: any) => (waiting ? (waiting(r), (waiting = null)) : queue.push(r));
  c.subscribe({ query, variables }, { next: push, error: (error) => (push({ error }), ended()), complete: () => ended() });
  return { next: (): Promise<any> => (queue.length ? Promise.resolve(queue.shift()) : new Promise((resolve) => (waiting = resolve))), done };
}

const FOLLOW = `subscription ($id: ID!) {
  stockRequestStatusChanged(id: $id) { request { id status approvedAt } move { kind fromStatus toStatus note } }
}`;

describe('stockRequestStatusChanged over graphql-ws', () => {
  it('sends the request now, then the request and the move for each move and rollback, and ends after a final state', async () => {
    const id = await create();
    const feed = open(client(a.key), FOLLOW, { id });
    const first = await feed.next();
    expect(first.data.stockRequestStatusChanged).toEqual({ request: { id, status: 'DRAFT', approvedAt: null }, move: null });

    await post(id, 'submit', { note: 'please' });
    expect((await feed.next()).data.stockRequestStatusChanged).toMatchObject({ request: { status: 'SUBMITTED' }, move: { kind: 'STATUS', fromStatus: 'DRAFT', toStatus: 'SUBMITTED', note: 'please' } });
    // A comment is not a status change: nothing is sent for it.
    await server.call('POST', `/api/stock-requests/${id}/comment`, { token: a.key, body: { note: 'hello' } });
    await post(id, 'approve');
    const approved = (await feed.next()).data.stockRequestStatusChanged;
    expect(approved).toMatchObject({ request: { status: 'APPROVED' }, move: { kind: 'STATUS', toStatus: 'APPROVED' } });
    expect(approved.request.approvedAt).not.toBeNull();
    await post(id, 'rollback');
    expect((await feed.next()).data.stockRequestStatusChanged).toMatchObject({ move: { kind: 'ROLLBACK', fromStatus: 'APPROVED', toStatus: 'SUBMITTED' } });
    await post(id, 'status', { status: 'CANCELLED' });
    const last = (await feed.next()).data.stockRequestStatusChanged;
    expect(last).toMatchObject({ request: { status: 'CANCELLED' }, move: { fromStatus: 'SUBMITTED', toStatus: 'CANCELLED' } });
    await feed.done;
  });

  it('sends the fulfilment out of APPROVED and the completion on receipt, not a second fulfilment that leaves the status as it was', async () => {
    const id = await create();
    await post(id, 'submit');
    await post(id, 'approve');
    const feed = open(client(a.key), FOLLOW, { id });
    expect((await feed.next()).data.stockRequestStatusChanged.request.status).toBe('APPROVED');
    await post(id, 'fulfil', { lines: [{ productMasterId: product, quantity: 1 }] });
    expect((await feed.next()).data.stockRequestStatusChanged).toMatchObject({ request: { status: 'PARTIALLY_FULFILLED' }, move: { kind: 'FULFILMENT', fromStatus: 'APPROVED', toStatus: 'PARTIALLY_FULFILLED' } });
    await post(id, 'fulfil');
    const transfers = await server.app.prisma.inventoryTransfer.findMany({ where: { sourceType: 'STOCK_REQUEST', sourceId: id, status: 'IN_TRANSIT' }, select: { id: true } });
    expect(transfers).toHaveLength(2);
    for (const transfer of transfers) {
      const res = await server.call('POST', `/api/inventory/transfers/${transfer.id}`, { token: a.key, body: { action: 'receive' } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const last = (await feed.next()).data.stockRequestStatusChanged;
    expect(last).toMatchObject({ request: { status: 'FULFILLED' }, move: { fromStatus: 'PARTIALLY_FULFILLED', toStatus: 'FULFILLED' } });
    await feed.done;
  });

  it("ends when the DRAFT is deleted, and refuses another organization's request and callers without stockrequests.read", async () => {
    const id = await create();
    const feed = open(client(a.key), FOLLOW, { id });
    expect((await feed.next()).data.stockRequestStatusChanged.move).toBeNull();
    expect((await server.call('DELETE', `/api/stock-requests/${id}`, { token: a.key })).status).toBe(200);
    await feed.done;

    const other = await create();
    const theirs = open(client(b.key), FOLLOW, { id: other });
    const refused = await theirs.next();
    expect(refused.error?.[0]?.extensions?.code ?? refused.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    const noRead = open(client(await a.keyWith(['reports:read'])), FOLLOW, { id: other });
    const denied = await noRead.next();
    expect(denied.error?.[0]?.extensions?.code ?? denied.errors?.[0]?.extensions?.code).toBe('INSUFFICIENT_SCOPE');
  });
});
