import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe } from 'vitest';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { itProvokesEachRefusal, runMutation } from '../support/mutation-refusals.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { addStock } from '../support/stock.js';

let server: TestServer;
let a: Tenant;
let productId: string;
/** 5 on hand, 3 of them reserved; no lot, no bin. */
let reservedLine: string;
/** 5 on hand in lot L1. */
let lotLine: string;
let levelId: string;
let channelId: string;
let sourceLocationId: string;
beforeAll(async () => {
  server = await startTestServer();
  a = await createTenant(server.app.prisma);
  const organizationId = a.org.id;
  productId = (await server.call('POST', '/api/products', { token: a.key, body: { sku: 'REFUSE-INV', name: 'Refusals' } })).body.id;
  const at = { productMasterId: productId, locationId: a.warehouse.id };
  reservedLine = (await addStock(server.app, organizationId, at, { ON_HAND: 5, RESERVED: 3 })).id;
  lotLine = (await addStock(server.app, organizationId, { ...at, lotCode: 'L1' }, { ON_HAND: 5 })).id;
  levelId = (await server.app.prisma.inventoryLevel.create({ data: { organizationId, ...at, minQuantity: 1, reorderQuantity: 5, maxQuantity: 10 } })).id;
  channelId = (await server.app.prisma.channel.create({ data: { organizationId, name: 'Web' } })).id;
  sourceLocationId = (await server.app.prisma.location.create({ data: { organizationId, code: 'REFUSE-SRC', name: 'Replenishment source' } })).id;
});
afterAll(() => server?.close());

const run = (name: string, args: Record<string, unknown> = {}) => runMutation(server, a.key, name, args);
const unknownId = randomUUID();
/** A new batch over the product's lines at the warehouse; the batches open before are cancelled first (a line is in one open batch at most). */
const countBatch = async () => {
  const open = (await server.call('GET', `/api/inventory/cycle-count?mode=batches&locationId=${a.warehouse.id}`, { token: a.key })).body.batches as { id: string }[];
  for (const { id } of open) await server.call('POST', `/api/inventory/cycle-count/${id}`, { token: a.key, body: { action: 'cancel' } });
  return (await server.call('POST', '/api/inventory/cycle-count', { token: a.key, body: { locationId: a.warehouse.id, productMasterIds: [productId] } })).body.id as string;
};

/** A replenishment item from the warehouse to a second location of the tenant. */
const replenishmentItem = (extra: Record<string, unknown> = {}) => ({
  productMasterId: productId, locationId: a.warehouse.id, quantity: 5, sourceType: 'LOCATION', sourceLocationId: sourceLocationId, needBy: '2031-01-01', ...extra,
});
/** A new replenishment record, cancelled: every move refuses it. */
const cancelledReplenishment = async () => {
  const created = await server.call('POST', '/api/inventory/replenishment', { token: a.key, body: { action: 'create', items: [replenishmentItem()] } });
  const id = created.body.data[0].id as string;
  await server.call('POST', '/api/inventory/replenishment', { token: a.key, body: { action: 'cancel', id } });
  return id;
};

describe('refusals of inventory mutations', () => {
  itProvokesEachRefusal({
    adjustStock: {
      ValidationError: ['VALIDATION_ERROR', () => run('adjustStock', { input: { inventoryItemId: unknownId, newQtyOnHand: 4, reasonCodeId: 'LOST' } })],
      InsufficientStockError: ['INSUFFICIENT_STOCK', () => run('adjustStock', { input: { inventoryItemId: reservedLine, newQtyOnHand: 1, reasonCodeId: 'LOST' } })],
    },
    adjustStockBy: {
      ValidationError: ['VALIDATION_ERROR', () => run('adjustStockBy', { input: { inventoryItemId: reservedLine, delta: -1, reasonCodeId: 'NO_SUCH_REASON' } })],
      InsufficientStockError: ['INSUFFICIENT_STOCK', () => run('adjustStockBy', { input: { inventoryItemId: reservedLine, delta: -4, reasonCodeId: 'LOST' } })],
    },
    correctLot: {
      ValidationError: ['VALIDATION_ERROR', () => run('correctLot', { input: { inventoryItemId: lotLine, quantity: 1, toLotCode: 'L1' } })],
      InsufficientStockError: ['INSUFFICIENT_STOCK', () => run('correctLot', { input: { inventoryItemId: lotLine, quantity: 9, toLotCode: 'L2' } })],
    },
    updateCycleCountAbc: {
      ValidationError: ['VALIDATION_ERROR', () => run('updateCycleCountAbc', { input: { aPercent: 99 } })],
    },
    createCycleCountBatch: {
      ValidationError: ['VALIDATION_ERROR', () => run('createCycleCountBatch', { input: { locationId: unknownId, productMasterIds: [productId] } })],
      ConflictError: ['INVALID_STATE', async () => {
        await countBatch();
        return run('createCycleCountBatch', { input: { locationId: a.warehouse.id, productMasterIds: [productId] } });
      }],
    },
    updateCycleCountBatch: {
      ValidationError: ['VALIDATION_ERROR', async () => run('updateCycleCountBatch', { id: await countBatch(), input: { action: 'RECORD', counts: [{ lineId: unknownId, countedQty: 1 }] } })],
      NotFoundError: ['NOT_FOUND', () => run('updateCycleCountBatch', { id: unknownId, input: { action: 'CANCEL' } })],
      ConflictError: ['INVALID_STATE', async () => {
        const id = await countBatch();
        await run('updateCycleCountBatch', { id, input: { action: 'CANCEL' } });
        return run('updateCycleCountBatch', { id, input: { action: 'CANCEL' } });
      }],
    },
    resolveCycleCountLines: {
      ValidationError: ['VALIDATION_ERROR', () => run('resolveCycleCountLines', { input: { resolutions: [{ lineId: unknownId, action: 'ACCEPT' }] } })],
      ConflictError: ['INVALID_STATE', async () => {
        const batch = (await server.call('GET', `/api/inventory/cycle-count/${await countBatch()}`, { token: a.key })).body;
        return run('resolveCycleCountLines', { input: { resolutions: [{ lineId: batch.lines[0].id, action: 'ACCEPT' }] } });
      }],
      InsufficientStockError: ['INSUFFICIENT_STOCK', async () => {
        const id = await countBatch();
        const batch = (await server.call('GET', `/api/inventory/cycle-count/${id}`, { token: a.key })).body;
        const lineId = batch.lines.find((l: { stockLineId: string }) => l.stockLineId === reservedLine).id;
        await server.call('POST', `/api/inventory/cycle-count/${id}`, { token: a.key, body: { action: 'record', counts: [{ lineId, countedQty: 1 }] } });
        return run('resolveCycleCountLines', { input: { resolutions: [{ lineId, action: 'ACCEPT' }] } });
      }],
    },
    recordStock: {
      ValidationError: ['VALIDATION_ERROR', () => run('recordStock', { input: { lines: [{ productMasterId: unknownId, locationId: a.warehouse.id, quantity: 1 }] } })],
    },
    recordCount: {
      ValidationError: ['VALIDATION_ERROR', () => run('recordCount', { input: { lines: [{ productMasterId: unknownId, locationId: a.warehouse.id, quantity: 1 }] } })],
      InsufficientStockError: ['INSUFFICIENT_STOCK', () => run('recordCount', { input: { lines: [{ productMasterId: productId, locationId: a.warehouse.id, quantity: 1 }] } })],
    },
    placeInventoryHold: {
      ValidationError: ['VALIDATION_ERROR', () => run('placeInventoryHold', { input: { scope: 'STOCK_LINE', stockLineId: unknownId, reasonCode: 'QC' } })],
      InsufficientStockError: ['INSUFFICIENT_STOCK', () => run('placeInventoryHold', { input: { scope: 'STOCK_LINE', stockLineId: lotLine, quantity: 50, reasonCode: 'QC' } })],
    },
    releaseInventoryHold: {
      ValidationError: ['VALIDATION_ERROR', () => run('releaseInventoryHold', { input: { holdId: unknownId } })],
      ConflictError: [
        'INVALID_STATE',
        async () => {
          const hold = await server.call('POST', '/api/inventory/holds', { token: a.key, body: { scope: 'STOCK_LINE', stockLineId: lotLine, quantity: 1, reasonCode: 'QC' } });
          await server.call('POST', '/api/inventory/holds/release', { token: a.key, body: { holdId: hold.body.id } });
          return run('releaseInventoryHold', { input: { holdId: hold.body.id } });
        },
      ],
    },
    markExpired: {
      ValidationError: ['VALIDATION_ERROR', () => run('markExpired', { input: { lines: [{ stockLineId: unknownId }] } })],
    },
    markExpiredConsumed: {
      ValidationError: ['VALIDATION_ERROR', () => run('markExpiredConsumed', { input: { lines: [{ stockLineId: lotLine }] } })],
    },
    destroyExpiredStock: {
      ValidationError: ['VALIDATION_ERROR', () => run('destroyExpiredStock', { input: { lines: [{ stockLineId: lotLine }], documentNumber: 'D-1' } })],
    },
    confirmPutAway: {
      ValidationError: ['VALIDATION_ERROR', () => run('confirmPutAway', { input: { locationId: unknownId, lines: [{ stockLineId: reservedLine, quantity: 1 }] } })],
      InsufficientStockError: ['INSUFFICIENT_STOCK', async () => {
        const bin = await server.app.prisma.bin.create({ data: { organizationId: a.org.id, locationId: a.warehouse.id, code: 'PUT-AWAY-REFUSAL' } });
        return run('confirmPutAway', { input: { locationId: a.warehouse.id, lines: [{ stockLineId: reservedLine, quantity: 50, binId: bin.id }] } });
      }],
    },
    updateReplenishmentConfig: {
      ValidationError: ['VALIDATION_ERROR', () => run('updateReplenishmentConfig', { input: { locationId: a.warehouse.id, reviewPeriodDays: 0 } })],
      NotFoundError: ['NOT_FOUND', () => run('updateReplenishmentConfig', { input: { locationId: unknownId } })],
    },
    createReplenishmentRecords: {
      ValidationError: ['VALIDATION_ERROR', () => run('createReplenishmentRecords', { input: { items: [replenishmentItem({ quantity: 0 })] } })],
      NotFoundError: ['NOT_FOUND', () => run('createReplenishmentRecords', { input: { items: [replenishmentItem({ productMasterId: unknownId })] } })],
    },
    ...Object.fromEntries(
      (['approve', 'convert', 'cancel'] as const).map((move) => {
        const name = `${move}ReplenishmentRecord`;
        // Approving needs PROPOSED, converting APPROVED, cancelling PROPOSED or APPROVED: a cancelled record refuses all three.
        return [
          name,
          {
            ValidationError: ['VALIDATION_ERROR', () => run(name, { input: { id: ' ' } })],
            NotFoundError: ['NOT_FOUND', () => run(name, { input: { id: unknownId } })],
            ConflictError: ['INVALID_STATE', async () => run(name, { input: { id: await cancelledReplenishment() } })],
          },
        ];
      }),
    ),
    replenishmentAction: {
      ValidationError: ['VALIDATION_ERROR', () => run('replenishmentAction', { input: { action: 'approve' } })],
      NotFoundError: ['NOT_FOUND', () => run('replenishmentAction', { input: { action: 'cancel', id: unknownId } })],
      ConflictError: ['INVALID_STATE', async () => run('replenishmentAction', { input: { action: 'convert', id: await cancelledReplenishment() } })],
    },
    moveStock: {
      ValidationError: ['VALIDATION_ERROR', () => run('moveStock', { id: reservedLine, input: { action: 'HOLD', quantity: 0 } })],
      NotFoundError: ['NOT_FOUND', () => run('moveStock', { id: unknownId, input: { action: 'HOLD', quantity: 1 } })],
      InsufficientStockError: ['INSUFFICIENT_STOCK', () => run('moveStock', { id: reservedLine, input: { action: 'HOLD', quantity: 50 } })],
    },
    upsertInventoryLevel: {
      ValidationError: ['VALIDATION_ERROR', () => run('upsertInventoryLevel', { input: { productMasterId: productId, locationId: a.warehouse.id, minQuantity: 20 } })],
      NotFoundError: ['NOT_FOUND', () => run('upsertInventoryLevel', { input: { productMasterId: unknownId, locationId: a.warehouse.id } })],
    },
    updateInventoryLevel: {
      ValidationError: ['VALIDATION_ERROR', () => run('updateInventoryLevel', { id: levelId, input: { minQuantity: 20 } })],
      NotFoundError: ['NOT_FOUND', () => run('updateInventoryLevel', { id: unknownId, input: { minQuantity: 2 } })],
    },
    deleteInventoryLevel: { NotFoundError: ['NOT_FOUND', () => run('deleteInventoryLevel', { id: unknownId })] },
    setAllocationPolicy: {
      ValidationError: ['VALIDATION_ERROR', () => run('setAllocationPolicy', { input: { channelId, locationId: a.warehouse.id, mode: 'SHARE' } })],
      NotFoundError: ['NOT_FOUND', () => run('setAllocationPolicy', { input: { channelId: unknownId, locationId: a.warehouse.id, mode: 'SHARE', sharePct: 0.5 } })],
    },
    deleteAllocationPolicy: { NotFoundError: ['NOT_FOUND', () => run('deleteAllocationPolicy', { id: unknownId })] },
  });
});
