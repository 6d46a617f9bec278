import { Prisma } from '../../generated/prisma/client.js';
import type { RequestContext } from '../../context.js';
import { DomainError } from '../../kernel/errors.js';
import { authOf, orgId } from '../tenant.js';
import { HOLD_WITH_LINES } from '../inventory/holds/hold-shape.js';
import { countLinesById } from '../inventory/cycle-counts/batch-reads.js';
import { SHIPMENT_WITH_LINES } from '../shipments/shipment-shape.js';
import { BOOKING_WITH_LINES } from '../bookings/booking-shape.js';
import { REQUEST_WITH_LINES } from '../stock-requests/stock-request-shape.js';
import { TRANSFER_WITH_LINES } from '../transfers/inventory-transfers/transfer-shape.js';
import { recommendationColumns, type TransferRecommendationRow } from '../transfers/recommendations/recommendation-rows.js';
import { ENDPOINT_FIELDS } from '../webhooks/webhook-endpoints.js';
import { mayRead, NODE_TABLES, NODE_TYPE_NAMES, type NodeTypeName } from './node-types.js';

/** How many ids one `nodes` call may name. */
export const MAX_NODE_IDS = 100;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An entity found by its id: its GraphQL type and the row that type resolves from. */
export interface FoundNode {
  type: NodeTypeName;
  record: { id: string };
}

type Load = (ctx: RequestContext, ids: string[]) => Promise<{ id: string }[]>;

const inIds = (ids: string[]) => ({ where: { id: { in: ids } } });

// The ids given here were found in the caller's organization by nodeTypesOf, so reading them by id alone is
// tenant-safe; each loader reads the shape its GraphQL type resolves from.
const LOADERS: Record<NodeTypeName, Load> = {
  Product: (ctx, ids) => ctx.prisma.productMaster.findMany(inIds(ids)),
  Location: (ctx, ids) => ctx.prisma.location.findMany(inIds(ids)),
  Channel: (ctx, ids) => ctx.prisma.channel.findMany(inIds(ids)),
  Category: (ctx, ids) => ctx.prisma.category.findMany(inIds(ids)),
  Lot: (ctx, ids) => ctx.prisma.lot.findMany(inIds(ids)),
  Bin: (ctx, ids) => ctx.prisma.bin.findMany(inIds(ids)),
  StockLine: (ctx, ids) => ctx.prisma.stockLine.findMany(inIds(ids)),
  StockTransaction: (ctx, ids) => ctx.prisma.stockTransaction.findMany(inIds(ids)),
  ReasonCode: (ctx, ids) => ctx.prisma.reasonCode.findMany(inIds(ids)),
  InventoryLevel: (ctx, ids) => ctx.prisma.inventoryLevel.findMany(inIds(ids)),
  CycleCountBatch: async (ctx, ids) =>
    (await ctx.prisma.cycleCountBatch.findMany({ ...inIds(ids), include: { _count: { select: { lines: true } } } })).map(({ _count, ...row }) => ({ ...row, itemCount: _count.lines })),
  CycleCountLine: (ctx, ids) => countLinesById(ctx, ids),
  AllocationPolicy: (ctx, ids) => ctx.prisma.channelAllocationPolicy.findMany(inIds(ids)),
  ApiKey: (ctx, ids) => ctx.prisma.apiKey.findMany(inIds(ids)),
  ImportJob: (ctx, ids) => ctx.prisma.importJob.findMany(inIds(ids)),
  ExternalEvent: (ctx, ids) => ctx.prisma.externalEvent.findMany(inIds(ids)),
  ForecastScenario: (ctx, ids) => ctx.prisma.forecastScenario.findMany(inIds(ids)),
  ForecastRun: (ctx, ids) => ctx.prisma.forecastRun.findMany(inIds(ids)),
  ForecastChange: (ctx, ids) => ctx.prisma.forecastChange.findMany(inIds(ids)),
  ForecastOverride: (ctx, ids) => ctx.prisma.forecastOverride.findMany(inIds(ids)),
  DemandRecord: (ctx, ids) => ctx.prisma.demandHistory.findMany(inIds(ids)),
  InventoryTransfer: (ctx, ids) => ctx.prisma.inventoryTransfer.findMany({ ...inIds(ids), ...TRANSFER_WITH_LINES }),
  InventoryTransferLine: (ctx, ids) => ctx.prisma.inventoryTransferLine.findMany({ ...inIds(ids), include: TRANSFER_WITH_LINES.include.lines.include }),
  InventoryTransferLot: (ctx, ids) =>
    ctx.prisma.inventoryTransferLineLot.findMany({ ...inIds(ids), include: TRANSFER_WITH_LINES.include.lines.include.shipments.include }),
  TransferRecommendation: (ctx, ids) =>
    ctx.prisma.$queryRaw<TransferRecommendationRow[]>`SELECT ${recommendationColumns('r')} FROM transfer_recommendations r WHERE r.id = ANY(${ids}::text[])`,
  TransferCost: (ctx, ids) => ctx.prisma.transferCost.findMany(inIds(ids)),
  Supplier: (ctx, ids) => ctx.prisma.supplier.findMany(inIds(ids)),
  PurchaseOrder: (ctx, ids) => ctx.prisma.purchaseOrder.findMany(inIds(ids)),
  PurchaseOrderLine: (ctx, ids) => ctx.prisma.purchaseOrderLine.findMany(inIds(ids)),
  InventoryHold: (ctx, ids) => ctx.prisma.inventoryHold.findMany({ ...inIds(ids), ...HOLD_WITH_LINES }),
  InventoryHoldLine: (ctx, ids) => ctx.prisma.inventoryHoldLine.findMany({ ...inIds(ids), include: HOLD_WITH_LINES.include.lines.include }),
  StockRequest: (ctx, ids) => ctx.prisma.stockRequest.findMany({ ...inIds(ids), ...REQUEST_WITH_LINES }),
  StockRequestLine: (ctx, ids) => ctx.prisma.stockRequestLine.findMany(inIds(ids)),
  StockRequestEvent: (ctx, ids) => ctx.prisma.stockRequestEvent.findMany(inIds(ids)),
  ReplenishmentConfig: (ctx, ids) => ctx.prisma.replenishmentConfig.findMany(inIds(ids)),
  ReplenishmentRecord: (ctx, ids) => ctx.prisma.replenishmentRecord.findMany(inIds(ids)),
  SalesOrder: (ctx, ids) => ctx.prisma.salesOrder.findMany(inIds(ids)),
  SalesOrderLine: (ctx, ids) => ctx.prisma.salesOrderLine.findMany(inIds(ids)),
  SalesOrderAllocation: (ctx, ids) => ctx.prisma.salesOrderAllocation.findMany(inIds(ids)),
  Shipment: (ctx, ids) => ctx.prisma.shipment.findMany({ ...inIds(ids), ...SHIPMENT_WITH_LINES }),
  ShipmentLine: (ctx, ids) => ctx.prisma.shipmentLine.findMany({ ...inIds(ids), include: SHIPMENT_WITH_LINES.include.lines.include }),
  ShipmentAllocation: (ctx, ids) => ctx.prisma.shipmentAllocation.findMany(inIds(ids)),
  Booking: (ctx, ids) => ctx.prisma.booking.findMany({ ...inIds(ids), ...BOOKING_WITH_LINES }),
  BookingLine: (ctx, ids) => ctx.prisma.bookingLine.findMany({ ...inIds(ids), include: BOOKING_WITH_LINES.include.lines.include }),
  BookingAllocation: (ctx, ids) => ctx.prisma.bookingAllocation.findMany(inIds(ids)),
  WebhookEndpoint: (ctx, ids) => ctx.prisma.webhookEndpoint.findMany({ ...inIds(ids), select: ENDPOINT_FIELDS }),
  WebhookDelivery: (ctx, ids) => ctx.prisma.webhookDelivery.findMany({ ...inIds(ids), include: { attempts: { orderBy: { number: 'asc' } } } }),
  WebhookAttempt: (ctx, ids) => ctx.prisma.webhookAttempt.findMany(inIds(ids)),
  Alert: (ctx, ids) => ctx.prisma.alert.findMany(inIds(ids)),
  AlertRule: (ctx, ids) => ctx.prisma.alertRule.findMany(inIds(ids)),
};

/**
 * The type of each id that names an entity of the caller's organization the caller may read, in one
 * statement over every entity table. Malformed ids (not a UUID), unknown and foreign ids, and ids of types
 * the caller may not read are absent from the answer.
 */
export async function nodeTypesOf(ctx: RequestContext, ids: readonly string[]): Promise<Map<string, NodeTypeName>> {
  const auth = authOf(ctx);
  const wanted = [...new Set(ids.filter((id) => UUID.test(id)))];
  const types = NODE_TYPE_NAMES.filter((type) => mayRead(auth, type));
  if (!wanted.length || !types.length) return new Map();
  const organization = orgId(ctx);
  const branches = types.map((type) => {
    const { from, org } = NODE_TABLES[type];
    return Prisma.sql`SELECT x.id, ${type}::text AS type FROM ${from} WHERE x.id = ANY(${wanted}::text[]) AND ${org} = ${organization}`;
  });
  const rows = await ctx.prisma.$queryRaw<{ id: string; type: NodeTypeName }[]>(Prisma.join(branches, ' UNION ALL '));
  return new Map(rows.map((row) => [row.id, row.type]));
}

/**
 * The entities of these ids, in their order: null for an id that is malformed, unknown, another
 * organization's, or of a type the caller may not read (the same answer, so nothing about it leaks).
 * One statement finds the types, then one per type present reads the rows.
 */
export async function nodesByIds(ctx: RequestContext, ids: readonly string[]): Promise<(FoundNode | null)[]> {
  const types = await nodeTypesOf(ctx, ids);
  const byType = new Map<NodeTypeName, string[]>();
  for (const [id, type] of types) byType.set(type, [...(byType.get(type) ?? []), id]);
  const found = new Map<string, FoundNode>();
  await Promise.all(
    [...byType].map(async ([type, typeIds]) => {
      for (const record of await LOADERS[type](ctx, typeIds)) found.set(record.id, { type, record });
    }),
  );
  return ids.map((id) => found.get(id) ?? null);
}

/** Refuses a `nodes` call naming more than MAX_NODE_IDS ids. */
export function checkNodeIdCount(ids: readonly unknown[]): void {
  if (ids.length > MAX_NODE_IDS) {
    throw new DomainError('VALIDATION_ERROR', `At most ${MAX_NODE_IDS} ids per call (got ${ids.length})`, {
      details: { ids: [`At most ${MAX_NODE_IDS} ids`] },
    });
  }
}
