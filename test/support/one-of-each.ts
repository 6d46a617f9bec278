import { operatorContext } from '../../src/context.js';
import type { App } from '../../src/context.js';
import { createLocationFor } from '../../src/services/admin/admin.js';
import { addStock } from './stock.js';
import type { Tenant } from './fixtures.js';

/**
 * Test set-up only: one row of every entity type the Node interface covers, in this tenant, keyed by its
 * GraphQL type name. Rows are written directly (as fixtures), except stock, which goes through the ledger.
 */
export async function oneOfEach(app: App, tenant: Tenant, tag: string): Promise<Record<string, string>> {
  const db = app.prisma;
  const organizationId = tenant.org.id;
  const actor = { createdByType: 'USER', createdBy: tenant.admin.id };
  const product = await db.productMaster.create({ data: { organizationId, sku: `NODE-${tag}`, name: `Node ${tag}` } });
  const location = tenant.warehouse;
  const other = await createLocationFor(operatorContext(db, 'test-setup'), { organizationId, code: `N2-${tag}`, name: `Second ${tag}` });
  const channel = await db.channel.create({ data: { organizationId, name: `Web ${tag}` } });
  const category = await db.category.create({ data: { organizationId, name: `Cat ${tag}` } });
  const stockLine = await addStock(app, organizationId, { productMasterId: product.id, locationId: location.id, lotCode: `L-${tag}`, expiryDate: '2033-01-01', binCode: `B-${tag}` }, { ON_HAND: 10 });
  const transaction = await db.stockTransaction.findFirstOrThrow({ where: { stockLineId: stockLine.id } });
  const reasonCode = await db.reasonCode.create({ data: { organizationId, code: `RC-${tag}`, name: 'Damage' } });
  const level = await db.inventoryLevel.create({ data: { organizationId, productMasterId: product.id, locationId: location.id } });
  const countBatch = await db.cycleCountBatch.create({
    include: { lines: true },
    data: { organizationId, locationId: location.id, createdBy: tenant.admin.id, snapshotSeq: 0n, lines: { create: { organizationId, locationId: location.id, productMasterId: product.id, sku: product.sku, stockLineId: stockLine.id, lotId: stockLine.lotId, binId: stockLine.binId, snapshotQty: 10, snapshotSeq: 0n } } },
  });
  const policy = await db.channelAllocationPolicy.create({ data: { organizationId, channelId: channel.id, locationId: location.id, sharePct: 50 } });
  const apiKey = await db.apiKey.findFirstOrThrow({ where: { organizationId } });
  const importJob = await db.importJob.create({ data: { organizationId, kind: 'CATALOG', totalRows: 0, totalChunks: 0, state: 'COMPLETED', ...actor } });
  const event = await db.externalEvent.create({ data: { organizationId, name: `Sale ${tag}`, type: 'PROMOTION', startsAt: new Date('2030-01-01'), endsAt: new Date('2030-01-08') } });
  const scenario = await db.forecastScenario.create({ data: { organizationId, name: `Scenario ${tag}`, type: 'CUSTOM', ...actor } });
  const run = await db.forecastRun.create({ data: { organizationId, scenarioId: scenario.id, horizon: 4, levels: [0.8], totalSeries: 0, totalBatches: 0, ...actor } });
  const change = await db.forecastChange.create({ data: { organizationId, scenarioId: scenario.id, kind: 'GENERATE', actorType: 'USER', actorId: tenant.admin.id } });
  const override = await db.forecastOverride.create({
    data: { organizationId, productMasterId: product.id, locationId: location.id, periodStart: new Date('2030-01-07'), quantity: 5, setByType: 'USER', setBy: tenant.admin.id },
  });
  const demand = await db.demandHistory.create({ data: { organizationId, productMasterId: product.id, locationId: location.id, weekStart: new Date('2025-01-06'), actualUnits: 3 } });
  const transfer = await db.inventoryTransfer.create({ data: { organizationId, sourceLocationId: location.id, destLocationId: other.id, ...actor } });
  const transferLine = await db.inventoryTransferLine.create({ data: { transferId: transfer.id, lineNumber: 1, productMasterId: product.id, quantity: 2 } });
  const transferLot = await db.inventoryTransferLineLot.create({
    data: { transferLineId: transferLine.id, sourceStockLineId: stockLine.id, lotId: stockLine.lotId, binId: stockLine.binId, quantity: 2 },
  });
  const recommendation = await db.transferRecommendation.create({
    data: {
      organizationId, productMasterId: product.id, sourceLocationId: location.id, destLocationId: other.id, quantity: 2, priority: 'HIGH',
      reason: 'test', unitTransferCost: 1, unitsAtRisk: 2, expiresAt: new Date('2030-01-01'), ...actor,
    },
  });
  const cost = await db.transferCost.create({ data: { organizationId, sourceLocationId: location.id, destLocationId: other.id, costPerUnit: 1.5 } });
  const supplier = await db.supplier.create({ data: { organizationId, code: `S-${tag}`, name: 'Supplier' } });
  const purchaseOrder = await db.purchaseOrder.create({ data: { organizationId, number: `PO-${tag}`, supplierId: supplier.id, destinationLocationId: location.id } });
  const purchaseOrderLine = await db.purchaseOrderLine.create({ data: { purchaseOrderId: purchaseOrder.id, lineNumber: 1, productMasterId: product.id, quantity: 4 } });
  const salesOrder = await db.salesOrder.create({ data: { organizationId, externalId: `SO-${tag}`, fulfillmentLocationId: location.id } });
  const salesOrderLine = await db.salesOrderLine.create({ data: { salesOrderId: salesOrder.id, lineNumber: 1, productMasterId: product.id, requestedQty: 1 } });
  const allocation = await db.salesOrderAllocation.create({ data: { orderLineId: salesOrderLine.id, stockLineId: stockLine.id, quantity: 1 } });
  const replenishmentConfig = await db.replenishmentConfig.create({ data: { organizationId, locationId: other.id, defaultSupplierId: supplier.id, updatedByType: 'USER', updatedBy: tenant.admin.id } });
  const replenishmentRecord = await db.replenishmentRecord.create({
    data: {
      organizationId, productMasterId: product.id, locationId: location.id, quantity: 4, sourceType: 'SUPPLIER', supplierId: supplier.id, needBy: new Date('2030-01-01'),
      status: 'ORDERED', purchaseOrderId: purchaseOrder.id, ...actor,
    },
  });
  const stockRequest = await db.stockRequest.create({
    include: { lines: true },
    data: {
      organizationId, number: (await db.stockRequest.count({ where: { organizationId } })) + 1, requestingLocationId: other.id, supplyingLocationId: location.id,
      neededBy: new Date('2030-01-01'), requesterType: 'USER', requesterId: tenant.admin.id, lines: { create: { productMasterId: product.id, quantityRequested: 2 } },
    },
  });
  const stockRequestEvent = await db.stockRequestEvent.create({ data: { requestId: stockRequest.id, kind: 'CREATED', toStatus: 'DRAFT', actorType: 'USER', actorId: tenant.admin.id } });
  const shipment = await db.shipment.create({
    include: { lines: true },
    data: {
      organizationId, number: (await db.shipment.count({ where: { organizationId } })) + 1, salesOrderId: salesOrder.id, locationId: location.id, createdByType: 'USER', createdBy: tenant.admin.id,
      lines: { create: { lineNumber: 1, orderLineId: salesOrderLine.id, productMasterId: product.id, quantity: 1 } },
    },
  });
  const shipmentAllocation = await db.shipmentAllocation.create({ data: { lineId: shipment.lines[0]!.id, stockLineId: stockLine.id, lotId: stockLine.lotId, binId: stockLine.binId, quantity: 1 } });
  const booking = await db.booking.create({
    include: { lines: true },
    data: {
      organizationId, number: (await db.booking.count({ where: { organizationId } })) + 1, customer: 'Wholesale Co', locationId: location.id, week: new Date('2030-01-07'),
      createdByType: 'USER', createdBy: tenant.admin.id, lines: { create: { lineNumber: 1, productMasterId: product.id, quantity: 1 } },
    },
  });
  const bookingAllocation = await db.bookingAllocation.create({ data: { lineId: booking.lines[0]!.id, stockLineId: stockLine.id, lotId: stockLine.lotId, binId: stockLine.binId, quantity: 1 } });
  const hold = await db.inventoryHold.create({
    data: { organizationId, scope: 'STOCK_LINE', stockLineId: stockLine.id, lotId: stockLine.lotId, productMasterId: product.id, locationId: location.id, reasonCode: 'QC', ...actor },
  });
  const holdLine = await db.inventoryHoldLine.create({ data: { holdId: hold.id, stockLineId: stockLine.id, quantity: 0 } });
  const webhookEndpoint = await db.webhookEndpoint.create({ data: { organizationId, url: `https://93.184.215.14/${tag}`, eventTypes: ['*'], secret: `whsec_${tag}` } });
  const webhookDelivery = await db.webhookDelivery.create({ data: { organizationId, endpointId: webhookEndpoint.id, eventId: 1n, eventType: 'stock.changed', status: 'FAILED' } });
  const webhookAttempt = await db.webhookAttempt.create({ data: { deliveryId: webhookDelivery.id, number: 1, statusCode: 500, error: 'Answered 500', durationMs: 3 } });
  const alertRule = await db.alertRule.create({ data: { organizationId, kind: 'AVAILABLE_BELOW_MIN' } });
  const alert = await db.alert.create({
    data: {
      organizationId, ruleId: alertRule.id, kind: 'AVAILABLE_BELOW_MIN', severity: 'WARNING', dedupKey: `${product.id}:${location.id}`, productId: product.id, locationId: location.id,
      subjectType: 'STOCK_LINE', subjectId: stockLine.id, message: 'Available 0 is below the minimum 1', details: { available: 0, minQuantity: 1 },
    },
  });
  return {
    Product: product.id,
    Location: location.id,
    Channel: channel.id,
    Category: category.id,
    Lot: stockLine.lotId!,
    Bin: stockLine.binId!,
    StockLine: stockLine.id,
    StockTransaction: transaction.id,
    ReasonCode: reasonCode.id,
    InventoryLevel: level.id,
    CycleCountBatch: countBatch.id,
    CycleCountLine: countBatch.lines[0]!.id,
    AllocationPolicy: policy.id,
    ApiKey: apiKey.id,
    ImportJob: importJob.id,
    ExternalEvent: event.id,
    ForecastScenario: scenario.id,
    ForecastRun: run.id,
    ForecastChange: change.id,
    ForecastOverride: override.id,
    DemandRecord: demand.id,
    InventoryTransfer: transfer.id,
    InventoryTransferLine: transferLine.id,
    InventoryTransferLot: transferLot.id,
    TransferRecommendation: recommendation.id,
    TransferCost: cost.id,
    Supplier: supplier.id,
    PurchaseOrder: purchaseOrder.id,
    PurchaseOrderLine: purchaseOrderLine.id,
    ReplenishmentConfig: replenishmentConfig.id,
    ReplenishmentRecord: replenishmentRecord.id,
    StockRequest: stockRequest.id,
    StockRequestLine: stockRequest.lines[0]!.id,
    StockRequestEvent: stockRequestEvent.id,
    InventoryHold: hold.id,
    InventoryHoldLine: holdLine.id,
    SalesOrder: salesOrder.id,
    SalesOrderLine: salesOrderLine.id,
    SalesOrderAllocation: allocation.id,
    Shipment: shipment.id,
    ShipmentLine: shipment.lines[0]!.id,
    ShipmentAllocation: shipmentAllocation.id,
    Booking: booking.id,
    BookingLine: booking.lines[0]!.id,
    BookingAllocation: bookingAllocation.id,
    WebhookEndpoint: webhookEndpoint.id,
    WebhookDelivery: webhookDelivery.id,
    WebhookAttempt: webhookAttempt.id,
    Alert: alert.id,
    AlertRule: alertRule.id,
  };
}
