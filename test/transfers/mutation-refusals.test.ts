import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { itProvokesEachRefusal, runMutation } from '../support/mutation-refusals.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { addStock } from '../support/stock.js';

let server: TestServer;
let a: Tenant;
let store: string;
let productId: string;
let draft: string;
/** A draft of more than the source has. */
let tooBig: string;
let shipped: { id: string; lineId: string };
let cancelled: string;
let pending: string;
let rejected: string;
/** Approved, of more than the source has. */
let approvedTooBig: string;
/** Two empty bins of the warehouse. */
let binA: string;
let binB: string;
beforeAll(async () => {
  server = await startTestServer();
  a = await createTenant(server.app.prisma);
  const organizationId = a.org.id;
  store = (await server.app.prisma.location.create({ data: { organizationId, code: 'ST1', name: 'Store' } })).id;
  productId = (await server.call('POST', '/api/products', { token: a.key, body: { sku: 'REFUSE-TR', name: 'Refusals' } })).body.id;
  await addStock(server.app, organizationId, { productMasterId: productId, locationId: a.warehouse.id }, { ON_HAND: 10 });
  binA = (await server.app.prisma.bin.create({ data: { organizationId, locationId: a.warehouse.id, code: 'A-1' } })).id;
  binB = (await server.app.prisma.bin.create({ data: { organizationId, locationId: a.warehouse.id, code: 'B-1' } })).id;
  draft = (await transfer('createInventoryTransfer', { input: newTransfer(2) })).id;
  tooBig = (await transfer('createInventoryTransfer', { input: newTransfer(100) })).id;
  const toShip = await transfer('createInventoryTransfer', { input: newTransfer(2) });
  await transfer('shipInventoryTransfer', { id: toShip.id });
  shipped = { id: toShip.id, lineId: toShip.lines[0]!.id };
  cancelled = (await transfer('createInventoryTransfer', { input: newTransfer(1) })).id;
  await transfer('cancelInventoryTransfer', { id: cancelled });
  const recommendation = (status: 'PENDING' | 'APPROVED' | 'REJECTED', quantity: number) =>
    server.app.prisma.transferRecommendation.create({
      data: {
        organizationId, productMasterId: productId, sourceLocationId: a.warehouse.id, destLocationId: store, quantity, status,
        priority: 'MEDIUM', reason: 'test', unitTransferCost: 1, unitsAtRisk: quantity,
        expiresAt: new Date(Date.now() + 86_400_000), createdByType: 'API_KEY', createdBy: 'test',
      },
    });
  pending = (await recommendation('PENDING', 1)).id;
  rejected = (await recommendation('REJECTED', 1)).id;
  approvedTooBig = (await recommendation('APPROVED', 1000)).id;
});
afterAll(() => server?.close());

const run = (name: string, args: Record<string, unknown> = {}) => runMutation(server, a.key, name, args);
const unknownId = randomUUID();
const longComment = 'x'.repeat(2001);
const newTransfer = (quantity: number) => ({ sourceLocationId: a.warehouse.id, destLocationId: store, lines: [{ productMasterId: productId, quantity }] });

/** Runs a set-up transfer mutation that must succeed; answers the transfer. */
async function transfer(name: string, args: Record<string, unknown>): Promise<{ id: string; lines: { id: string }[] }> {
  const header = 'input' in args ? '$input: InventoryTransferCreateInput!' : '$id: ID!';
  const call = 'input' in args ? 'input: $input' : 'id: $id';
  const res = await server.graphql(`mutation (${header}) { result: ${name}(${call}) { __typename ... on InventoryTransfer { id lines { id } } } }`, args, a.key);
  expect(res.body.data?.result?.__typename, JSON.stringify(res.body)).toBe('InventoryTransfer');
  return res.body.data.result;
}

describe('refusals of transfer mutations', () => {
  itProvokesEachRefusal({
    createInventoryTransfer: {
      ValidationError: ['VALIDATION_ERROR', () => run('createInventoryTransfer', { input: { ...newTransfer(1), lines: [{ productMasterId: unknownId, quantity: 1 }] } })],
    },
    updateInventoryTransfer: {
      ValidationError: ['VALIDATION_ERROR', () => run('updateInventoryTransfer', { id: draft, input: { destLocationId: a.warehouse.id } })],
      NotFoundError: ['NOT_FOUND', () => run('updateInventoryTransfer', { id: unknownId, input: { notes: 'x' } })],
      ConflictError: ['INVALID_STATE', () => run('updateInventoryTransfer', { id: shipped.id, input: { notes: 'x' } })],
    },
    shipInventoryTransfer: {
      ValidationError: ['VALIDATION_ERROR', () => run('shipInventoryTransfer', { id: draft, comment: longComment })],
      NotFoundError: ['NOT_FOUND', () => run('shipInventoryTransfer', { id: unknownId })],
      ConflictError: ['INVALID_STATE', () => run('shipInventoryTransfer', { id: shipped.id })],
      InsufficientStockError: ['INSUFFICIENT_STOCK', () => run('shipInventoryTransfer', { id: tooBig })],
    },
    receiveInventoryTransfer: {
      ValidationError: ['VALIDATION_ERROR', () => run('receiveInventoryTransfer', { id: shipped.id, input: { lines: [{ lineId: shipped.lineId, quantity: 999 }] } })],
      NotFoundError: ['NOT_FOUND', () => run('receiveInventoryTransfer', { id: unknownId })],
      ConflictError: ['INVALID_STATE', () => run('receiveInventoryTransfer', { id: draft })],
    },
    cancelInventoryTransfer: {
      ValidationError: ['VALIDATION_ERROR', () => run('cancelInventoryTransfer', { id: draft, comment: longComment })],
      NotFoundError: ['NOT_FOUND', () => run('cancelInventoryTransfer', { id: unknownId })],
      ConflictError: ['INVALID_STATE', () => run('cancelInventoryTransfer', { id: cancelled })],
    },
    inventoryTransferAction: {
      ValidationError: ['VALIDATION_ERROR', () => run('inventoryTransferAction', { id: draft, input: { action: 'update', changes: { destLocationId: a.warehouse.id } } })],
      NotFoundError: ['NOT_FOUND', () => run('inventoryTransferAction', { id: unknownId, input: { action: 'ship' } })],
      ConflictError: ['INVALID_STATE', () => run('inventoryTransferAction', { id: shipped.id, input: { action: 'ship' } })],
      InsufficientStockError: ['INSUFFICIENT_STOCK', () => run('inventoryTransferAction', { id: tooBig, input: { action: 'ship' } })],
    },
    setTransferCost: {
      ValidationError: ['VALIDATION_ERROR', () => run('setTransferCost', { input: { sourceLocationId: unknownId, destLocationId: store, costPerUnit: 1 } })],
    },
    generateTransferRecommendations: {
      ValidationError: ['VALIDATION_ERROR', () => run('generateTransferRecommendations', { input: { locationId: unknownId } })],
    },
    approveTransferRecommendation: {
      ValidationError: ['VALIDATION_ERROR', () => run('approveTransferRecommendation', { id: pending, comment: longComment })],
      NotFoundError: ['NOT_FOUND', () => run('approveTransferRecommendation', { id: unknownId })],
      ConflictError: ['INVALID_STATE', () => run('approveTransferRecommendation', { id: rejected })],
    },
    rejectTransferRecommendation: {
      ValidationError: ['VALIDATION_ERROR', () => run('rejectTransferRecommendation', { id: pending, comment: longComment })],
      NotFoundError: ['NOT_FOUND', () => run('rejectTransferRecommendation', { id: unknownId })],
      ConflictError: ['INVALID_STATE', () => run('rejectTransferRecommendation', { id: rejected })],
    },
    executeTransferRecommendation: {
      NotFoundError: ['NOT_FOUND', () => run('executeTransferRecommendation', { id: unknownId })],
      ConflictError: ['INVALID_STATE', () => run('executeTransferRecommendation', { id: pending })],
      InsufficientStockError: ['INSUFFICIENT_STOCK', () => run('executeTransferRecommendation', { id: approvedTooBig })],
    },
    moveBinStock: {
      ValidationError: ['VALIDATION_ERROR', () => run('moveBinStock', { input: { locationId: a.warehouse.id, productMasterId: productId, fromBinId: unknownId, toBinId: unknownId, quantity: 1 } })],
      InsufficientStockError: ['INSUFFICIENT_STOCK', () => run('moveBinStock', { input: { locationId: a.warehouse.id, productMasterId: productId, fromBinId: binA, toBinId: binB, quantity: 1 } })],
    },
  });
});
