import { Prisma } from '../../generated/prisma/client.js';
import type { AuthInfo } from '../../context.js';
import type { Permission } from '../../auth/permissions.js';

/** The plan capability forecasting reads need (the same name the forecasting fields check). */
const FORECASTING = 'ai.forecasting.demand';

/** Who may read an entity through `node`: the permission (and capability, session) its own lookups need. */
interface Readable {
  permission: Permission;
  capability?: string;
  session?: boolean;
}

interface NodeTable {
  /** Table (or join) the ids are read from, the row aliased `x`. */
  from: Prisma.Sql;
  /** The organization id of the row: its own, or its parent's (`p`) for child tables that have none. */
  org: Prisma.Sql;
  readable: Readable;
}

const own = (table: string) => Prisma.sql`${Prisma.raw(table)} x`;
const ownOrg = Prisma.sql`x."organizationId"`;
const parentOrg = Prisma.sql`p."organizationId"`;
const forecasts: Readable = { permission: 'forecast.read', capability: FORECASTING };

/**
 * Every GraphQL type that is an entity with its own identity (the Node interface), with the table that
 * holds its rows and who may read them. Ids are the rows' uuid v7 ids, unique across tables, so an id
 * names one row of one of these tables at most.
 */
export const NODE_TABLES = {
  Product: { from: own('product_masters'), org: ownOrg, readable: { permission: 'products.read' } },
  Location: { from: own('locations'), org: ownOrg, readable: { permission: 'inventory.read' } },
  Channel: { from: own('channels'), org: ownOrg, readable: { permission: 'inventory.read' } },
  Category: { from: own('categories'), org: ownOrg, readable: { permission: 'products.read' } },
  Lot: { from: own('lots'), org: ownOrg, readable: { permission: 'inventory.read' } },
  Bin: { from: own('bins'), org: ownOrg, readable: { permission: 'inventory.read' } },
  StockLine: { from: own('stock_lines'), org: ownOrg, readable: { permission: 'inventory.read' } },
  StockTransaction: { from: own('stock_transactions'), org: ownOrg, readable: { permission: 'inventory.adjust' } },
  ReasonCode: { from: own('reason_codes'), org: ownOrg, readable: { permission: 'inventory.adjust' } },
  InventoryLevel: { from: own('inventory_levels'), org: ownOrg, readable: { permission: 'inventory.read' } },
  CycleCountBatch: { from: own('cycle_count_batches'), org: ownOrg, readable: { permission: 'inventory.cyclecount' } },
  CycleCountLine: {
    from: Prisma.sql`cycle_count_lines x JOIN cycle_count_batches p ON p.id = x."batchId"`,
    org: parentOrg,
    readable: { permission: 'inventory.cyclecount' },
  },
  AllocationPolicy: { from: own('channel_allocation_policies'), org: ownOrg, readable: { permission: 'inventory.read' } },
  ApiKey: { from: own('api_keys'), org: ownOrg, readable: { permission: 'apikeys.manage', session: true } },
  ImportJob: { from: own('import_jobs'), org: ownOrg, readable: { permission: 'import.read' } },
  ExternalEvent: { from: own('external_events'), org: ownOrg, readable: forecasts },
  ForecastScenario: { from: own('forecast_scenarios'), org: ownOrg, readable: forecasts },
  ForecastRun: { from: own('forecast_runs'), org: ownOrg, readable: forecasts },
  ForecastChange: { from: own('forecast_changes'), org: ownOrg, readable: forecasts },
  ForecastOverride: { from: own('forecast_overrides'), org: ownOrg, readable: forecasts },
  DemandRecord: { from: own('demand_history'), org: ownOrg, readable: { permission: 'planning.read' } },
  InventoryTransfer: { from: own('inventory_transfers'), org: ownOrg, readable: { permission: 'transfers.read' } },
  InventoryTransferLine: {
    from: Prisma.sql`inventory_transfer_lines x JOIN inventory_transfers p ON p.id = x."transferId"`,
    org: parentOrg,
    readable: { permission: 'transfers.read' },
  },
  InventoryTransferLot: {
    from: Prisma.sql`inventory_transfer_line_lots x JOIN inventory_transfer_lines l ON l.id = x."transferLineId" JOIN inventory_transfers p ON p.id = l."transferId"`,
    org: parentOrg,
    readable: { permission: 'transfers.read' },
  },
  StockRequest: { from: own('stock_requests'), org: ownOrg, readable: { permission: 'stockrequests.read' } },
  StockRequestLine: {
    from: Prisma.sql`stock_request_lines x JOIN stock_requests p ON p.id = x."requestId"`,
    org: parentOrg,
    readable: { permission: 'stockrequests.read' },
  },
  StockRequestEvent: {
    from: Prisma.sql`stock_request_events x JOIN stock_requests p ON p.id = x."requestId"`,
    org: parentOrg,
    readable: { permission: 'stockrequests.read' },
  },
  TransferRecommendation: { from: own('transfer_recommendations'), org: ownOrg, readable: { permission: 'transfers.read' } },
  TransferCost: { from: own('transfer_costs'), org: ownOrg, readable: { permission: 'transfers.read' } },
  Supplier: { from: own('suppliers'), org: ownOrg, readable: { permission: 'procurement.read' } },
  PurchaseOrder: { from: own('purchase_orders'), org: ownOrg, readable: { permission: 'procurement.read' } },
  PurchaseOrderLine: {
    from: Prisma.sql`purchase_order_lines x JOIN purchase_orders p ON p.id = x."purchaseOrderId"`,
    org: parentOrg,
    readable: { permission: 'procurement.read' },
  },
  InventoryHold: { from: own('inventory_holds'), org: ownOrg, readable: { permission: 'inventory.read' } },
  InventoryHoldLine: {
    from: Prisma.sql`inventory_hold_lines x JOIN inventory_holds p ON p.id = x."holdId"`,
    org: parentOrg,
    readable: { permission: 'inventory.read' },
  },
  ReplenishmentConfig: { from: own('replenishment_configs'), org: ownOrg, readable: { permission: 'replenishment.read' } },
  ReplenishmentRecord: { from: own('replenishment_records'), org: ownOrg, readable: { permission: 'replenishment.read' } },
  SalesOrder: { from: own('sales_orders'), org: ownOrg, readable: { permission: 'inventory.read' } },
  SalesOrderLine: {
    from: Prisma.sql`sales_order_lines x JOIN sales_orders p ON p.id = x."salesOrderId"`,
    org: parentOrg,
    readable: { permission: 'inventory.read' },
  },
  SalesOrderAllocation: {
    from: Prisma.sql`sales_order_allocations x JOIN sales_order_lines l ON l.id = x."orderLineId" JOIN sales_orders p ON p.id = l."salesOrderId"`,
    org: parentOrg,
    readable: { permission: 'inventory.read' },
  },
  Shipment: { from: own('shipments'), org: ownOrg, readable: { permission: 'shipping.read' } },
  ShipmentLine: {
    from: Prisma.sql`shipment_lines x JOIN shipments p ON p.id = x."shipmentId"`,
    org: parentOrg,
    readable: { permission: 'shipping.read' },
  },
  ShipmentAllocation: {
    from: Prisma.sql`shipment_allocations x JOIN shipment_lines l ON l.id = x."lineId" JOIN shipments p ON p.id = l."shipmentId"`,
    org: parentOrg,
    readable: { permission: 'shipping.read' },
  },
  Booking: { from: own('bookings'), org: ownOrg, readable: { permission: 'planning.read' } },
  BookingLine: {
    from: Prisma.sql`booking_lines x JOIN bookings p ON p.id = x."bookingId"`,
    org: parentOrg,
    readable: { permission: 'planning.read' },
  },
  BookingAllocation: {
    from: Prisma.sql`booking_allocations x JOIN booking_lines l ON l.id = x."lineId" JOIN bookings p ON p.id = l."bookingId"`,
    org: parentOrg,
    readable: { permission: 'planning.read' },
  },
  WebhookEndpoint: { from: own('webhook_endpoints'), org: ownOrg, readable: { permission: 'admin.read' } },
  WebhookDelivery: { from: own('webhook_deliveries'), org: ownOrg, readable: { permission: 'admin.read' } },
  WebhookAttempt: {
    from: Prisma.sql`webhook_attempts x JOIN webhook_deliveries p ON p.id = x."deliveryId"`,
    org: parentOrg,
    readable: { permission: 'admin.read' },
  },
  Alert: { from: own('alerts'), org: ownOrg, readable: { permission: 'reports.read' } },
  AlertRule: { from: own('alert_rules'), org: ownOrg, readable: { permission: 'reports.read' } },
} satisfies Record<string, NodeTable>;

export type NodeTypeName = keyof typeof NODE_TABLES;

export const NODE_TYPE_NAMES = Object.keys(NODE_TABLES) as NodeTypeName[];

/** Whether the caller may read entities of this type (else `node` answers null for them, as for an unknown id). */
export function mayRead(auth: AuthInfo, type: NodeTypeName): boolean {
  const readable: Readable = NODE_TABLES[type].readable;
  if (!auth.permissions.has(readable.permission)) return false;
  if (readable.capability && !auth.organization.capabilities.includes(readable.capability)) return false;
  return !readable.session || auth.actor.type === 'user';
}
