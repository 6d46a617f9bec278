import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe } from 'vitest';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { itProvokesEachRefusal, runMutation } from '../support/mutation-refusals.js';
import { startTestServer, type TestServer } from '../support/server.js';

let server: TestServer;
let a: Tenant;
let ward: string;
let productId: string;
let draft: string;
let submitted: string;
let cancelled: string;
/** APPROVED with nothing in stock: nothing reserved, so fulfilling it is short. */
let approved: string;
beforeAll(async () => {
  server = await startTestServer();
  a = await createTenant(server.app.prisma);
  ward = (await server.app.prisma.location.create({ data: { organizationId: a.org.id, code: 'WARD', name: 'Ward' } })).id;
  productId = (await server.call('POST', '/api/products', { token: a.key, body: { sku: 'REFUSE-SR', name: 'Refusals' } })).body.id;
  const create = async () => (await server.call('POST', '/api/stock-requests', { token: a.key, body: newRequest() })).body.id as string;
  draft = await create();
  submitted = await create();
  await server.call('POST', `/api/stock-requests/${submitted}/submit`, { token: a.key, body: {} });
  cancelled = await create();
  await server.call('POST', `/api/stock-requests/${cancelled}/status`, { token: a.key, body: { status: 'CANCELLED' } });
  approved = await create();
  await server.call('POST', `/api/stock-requests/${approved}/submit`, { token: a.key, body: {} });
  await server.call('POST', `/api/stock-requests/${approved}/approve`, { token: a.key, body: {} });
});
afterAll(() => server?.close());

const run = (name: string, args: Record<string, unknown> = {}) => runMutation(server, a.key, name, args);
const unknownId = randomUUID();
const longNote = 'x'.repeat(2001);
const newRequest = () => ({ requestingLocationId: ward, supplyingLocationId: a.warehouse.id, neededBy: '2031-01-01', lines: [{ productMasterId: productId, quantityRequested: 2 }] });

describe('refusals of stock request mutations', () => {
  itProvokesEachRefusal({
    createStockRequest: {
      ValidationError: ['VALIDATION_ERROR', () => run('createStockRequest', { input: { ...newRequest(), lines: [] } })],
      NotFoundError: ['NOT_FOUND', () => run('createStockRequest', { input: { ...newRequest(), lines: [{ productMasterId: unknownId, quantityRequested: 1 }] } })],
    },
    updateStockRequest: {
      ValidationError: ['VALIDATION_ERROR', () => run('updateStockRequest', { input: { id: draft, supplyingLocationId: ward } })],
      NotFoundError: ['NOT_FOUND', () => run('updateStockRequest', { input: { id: unknownId, priority: 'LOW' } })],
      ConflictError: ['INVALID_STATE', () => run('updateStockRequest', { input: { id: submitted, priority: 'LOW' } })],
    },
    deleteStockRequest: {
      NotFoundError: ['NOT_FOUND', () => run('deleteStockRequest', { id: unknownId })],
      ConflictError: ['INVALID_STATE', () => run('deleteStockRequest', { id: submitted })],
    },
    submitStockRequest: {
      ValidationError: ['VALIDATION_ERROR', () => run('submitStockRequest', { input: { id: draft, note: longNote } })],
      NotFoundError: ['NOT_FOUND', () => run('submitStockRequest', { input: { id: unknownId } })],
      ConflictError: ['INVALID_STATE', () => run('submitStockRequest', { input: { id: cancelled } })],
    },
    approveStockRequest: {
      ValidationError: ['VALIDATION_ERROR', () => run('approveStockRequest', { input: { id: submitted, lines: [{ productMasterId: productId, quantityApproved: 3 }] } })],
      NotFoundError: ['NOT_FOUND', () => run('approveStockRequest', { input: { id: unknownId } })],
      ConflictError: ['INVALID_STATE', () => run('approveStockRequest', { input: { id: draft } })],
    },
    rejectStockRequest: {
      ValidationError: ['VALIDATION_ERROR', () => run('rejectStockRequest', { input: { id: submitted, reason: ' ' } })],
      NotFoundError: ['NOT_FOUND', () => run('rejectStockRequest', { input: { id: unknownId, reason: 'no' } })],
      ConflictError: ['INVALID_STATE', () => run('rejectStockRequest', { input: { id: draft, reason: 'no' } })],
    },
    cancelStockRequest: {
      ValidationError: ['VALIDATION_ERROR', () => run('cancelStockRequest', { input: { id: draft, note: longNote } })],
      NotFoundError: ['NOT_FOUND', () => run('cancelStockRequest', { input: { id: unknownId } })],
      ConflictError: ['INVALID_STATE', () => run('cancelStockRequest', { input: { id: cancelled } })],
    },
    rollbackStockRequest: {
      ValidationError: ['VALIDATION_ERROR', () => run('rollbackStockRequest', { input: { id: submitted, note: longNote } })],
      NotFoundError: ['NOT_FOUND', () => run('rollbackStockRequest', { input: { id: unknownId } })],
      ConflictError: ['INVALID_STATE', () => run('rollbackStockRequest', { input: { id: draft } })],
    },
    moveStockRequest: {
      ValidationError: ['VALIDATION_ERROR', () => run('moveStockRequest', { input: { id: submitted, status: 'REJECTED' } })],
      NotFoundError: ['NOT_FOUND', () => run('moveStockRequest', { input: { id: unknownId, status: 'CANCELLED' } })],
      ConflictError: ['INVALID_STATE', () => run('moveStockRequest', { input: { id: cancelled, status: 'SUBMITTED' } })],
      InsufficientStockError: ['INSUFFICIENT_STOCK', () => run('moveStockRequest', { input: { id: approved, status: 'PARTIALLY_FULFILLED' } })],
    },
    fulfilStockRequest: {
      ValidationError: ['VALIDATION_ERROR', () => run('fulfilStockRequest', { input: { id: approved, lines: [{ productMasterId: productId, quantity: 3 }] } })],
      NotFoundError: ['NOT_FOUND', () => run('fulfilStockRequest', { input: { id: unknownId } })],
      ConflictError: ['INVALID_STATE', () => run('fulfilStockRequest', { input: { id: submitted } })],
      InsufficientStockError: ['INSUFFICIENT_STOCK', () => run('fulfilStockRequest', { input: { id: approved, lines: [{ productMasterId: productId, quantity: 2 }] } })],
    },
    setStockRequestLines: {
      ValidationError: ['VALIDATION_ERROR', () => run('setStockRequestLines', { input: { id: draft, lines: [{ productMasterId: productId, quantityApproved: 1 }] } })],
      NotFoundError: ['NOT_FOUND', () => run('setStockRequestLines', { input: { id: draft, lines: [{ productMasterId: unknownId, quantityRequested: 1 }] } })],
      ConflictError: ['INVALID_STATE', () => run('setStockRequestLines', { input: { id: cancelled, lines: [{ productMasterId: productId, quantityRequested: 1 }] } })],
    },
    commentOnStockRequest: {
      ValidationError: ['VALIDATION_ERROR', () => run('commentOnStockRequest', { input: { id: draft, note: longNote } })],
      NotFoundError: ['NOT_FOUND', () => run('commentOnStockRequest', { input: { id: unknownId, note: 'x' } })],
      ConflictError: ['INVALID_STATE', () => runWithFullHistory()],
    },
  });
});

/** A request whose history is full: the comment beyond it is refused. */
async function runWithFullHistory() {
  const { id } = (await server.call('POST', '/api/stock-requests', { token: a.key, body: newRequest() })).body;
  await server.app.prisma.stockRequestEvent.createMany({ data: Array.from({ length: 1000 }, () => ({ requestId: id, kind: 'COMMENT' as const, note: 'x', actorType: 'USER', actorId: 'test' })) });
  return run('commentOnStockRequest', { input: { id, note: 'one more' } });
}
