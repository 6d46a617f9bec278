import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlData, graphqlRefusal } from '../support/api.js';
import type { Tenant } from '../support/fixtures.js';
import { REFUSAL } from '../support/graphql.js';
import { expectLedgerBalanced } from '../support/ledger-balance.js';
import type { TestServer } from '../support/server.js';
import { startServerWithTwoTenants } from '../support/two-tenants.js';
import { bookingCalls, inWeeks } from './booking-support.js';

// Every move through GraphQL, with its typed refusals; the connection, the lookup and the Node interface.
let server: TestServer;
let a: Tenant;
let b: Tenant;
let s: ReturnType<typeof bookingCalls>;

beforeAll(async () => {
  ({ server, a, b } = await startServerWithTwoTenants());
  s = bookingCalls(server, a);
});
afterAll(() => server?.close());

const FIELDS = 'id reference status week customer lines { productId quantity reservedQuantity shortQuantity allocations { lotCode quantity } }';
const mutate = (name: string, input: string) => `mutation ($input: ${input}!) { ${name}(input: $input) { __typename ... on Booking { ${FIELDS} } ${REFUSAL} } }`;
const CREATE = mutate('createBooking', 'BookingCreateInput');
const UPDATE = mutate('updateBooking', 'BookingUpdateInput');
const move = (name: string) => mutate(name, 'BookingMoveInput');

describe('GraphQL', () => {
  it('creates, updates, confirms, tops up, fulfils and cancels, refusing wrong states, unknown ids and bad input with typed errors', async () => {
    const product = await s.stockedProduct(6, 0);
    const { createBooking: created } = await graphqlData(server, a.key, CREATE, { input: { customer: 'GQL Co', locationId: a.warehouse.id, week: inWeeks(2), lines: [{ productId: product, quantity: 4 }] } });
    expect(created).toMatchObject({ __typename: 'Booking', status: 'DRAFT', week: inWeeks(2) });

    const bad = await graphqlRefusal(server, a.key, CREATE, { input: { customer: '', locationId: 'nope', week: '2026-13-01', lines: [{ productId: product, quantity: 0 }] } });
    expect(bad).toMatchObject({ type: 'ValidationError', code: 'VALIDATION_ERROR' });
    expect(Object.keys(bad.details!)).toEqual(expect.arrayContaining(['customer', 'week', 'lines.0.quantity']));
    const foreign = await graphqlRefusal(server, a.key, CREATE, { input: { customer: 'X', locationId: b.warehouse.id, week: inWeeks(2), lines: [{ productId: product, quantity: 1 }] } });
    expect(foreign.details).toHaveProperty('locationId');

    const { updateBooking: updated } = await graphqlData(server, a.key, UPDATE, { input: { id: created.id, lines: [{ productId: product, quantity: 9 }] } });
    expect(updated.lines).toEqual([expect.objectContaining({ quantity: 9 })]);
    expect(await graphqlRefusal(server, a.key, move('fulfilBooking'), { input: { id: created.id } })).toMatchObject({ type: 'ConflictError', code: 'INVALID_STATE' });
    expect(await graphqlRefusal(server, a.key, move('confirmBooking'), { input: { id: 'nope' } })).toMatchObject({ type: 'NotFoundError', code: 'NOT_FOUND' });

    const { confirmBooking: confirmed } = await graphqlData(server, a.key, move('confirmBooking'), { input: { id: created.id } });
    expect(confirmed.lines).toEqual([expect.objectContaining({ reservedQuantity: 6, shortQuantity: 3, allocations: [{ lotCode: 'LATE', quantity: 6 }] })]);
    expect(await graphqlRefusal(server, a.key, UPDATE, { input: { id: created.id, note: 'x' } })).toMatchObject({ type: 'ConflictError', code: 'INVALID_STATE' });
    expect(await graphqlRefusal(server, a.key, move('fulfilBooking'), { input: { id: created.id } })).toMatchObject({ type: 'InsufficientStockError', code: 'INSUFFICIENT_STOCK' });

    await s.addLot(product, 'MORE', 3);
    const { reserveBooking: topped } = await graphqlData(server, a.key, move('reserveBooking'), { input: { id: created.id } });
    expect(topped.lines).toEqual([expect.objectContaining({ reservedQuantity: 9, shortQuantity: 0 })]);
    const { fulfilBooking: fulfilled } = await graphqlData(server, a.key, move('fulfilBooking'), { input: { id: created.id } });
    expect(fulfilled.status).toBe('FULFILLED');
    expect(await graphqlRefusal(server, a.key, move('cancelBooking'), { input: { id: created.id } })).toMatchObject({ type: 'ConflictError', code: 'INVALID_STATE' });

    const { createBooking: other } = await graphqlData(server, a.key, CREATE, { input: { customer: 'GQL Co', locationId: a.warehouse.id, week: inWeeks(5), lines: [{ productId: product, quantity: 1 }] } });
    const { cancelBooking: cancelled } = await graphqlData(server, a.key, move('cancelBooking'), { input: { id: other.id } });
    expect(cancelled.status).toBe('CANCELLED');
    expect(await graphqlRefusal(server, a.key, move('reserveBooking'), { input: { id: other.id } })).toMatchObject({ type: 'ConflictError', code: 'INVALID_STATE' });
    await expectLedgerBalanced(server.app.prisma);

    // Reads: the lookup (null for unknown and foreign), the connection, the Node interface.
    const read = await graphqlData(server, a.key, `query ($id: ID!) { booking(id: $id) { id status } node(id: $id) { __typename ... on Booking { reference } } }`, { id: created.id });
    expect(read).toEqual({ booking: { id: created.id, status: 'FULFILLED' }, node: { __typename: 'Booking', reference: created.reference } });
    expect((await graphqlData(server, b.key, `query ($id: ID!) { booking(id: $id) { id } node(id: $id) { id } }`, { id: created.id }))).toEqual({ booking: null, node: null });
    const conn = await graphqlData(server, a.key, `query ($p: ID) { bookings(productId: $p, first: 1) { totalCount edges { node { id week } } pageInfo { hasNextPage } } }`, { p: product });
    expect(conn.bookings).toEqual({ totalCount: 2, edges: [{ node: { id: created.id, week: inWeeks(2) } }], pageInfo: { hasNextPage: true } });
    expect((await graphqlData(server, b.key, `{ bookings(first: 5) { totalCount } }`)).bookings.totalCount).toBe(0);
  });
});
