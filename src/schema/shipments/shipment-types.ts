import { shipmentReference, type ShipmentWithLines } from '../../services/shipments/shipment-shape.js';
import { builder } from '../builder.js';
import { readScopesOf } from '../link-scopes.js';
import { BinType } from '../inventory/stock-lines/stock-line.js';
import { LocationType } from '../master-data/location.js';
import { NodeRef } from '../node/node-interface.js';
import { ProductType } from '../products/product.js';
import { linked } from '../record-loaders.js';

type ShipmentLine = ShipmentWithLines['lines'][number];
type ShipmentAllocation = ShipmentLine['allocations'][number];

export const ShipmentStatusEnum = builder.enumType('ShipmentStatus', {
  description: 'Where a shipment is: RESERVED → PICKED → PACKED → SHIPPED → DELIVERED; CANCELLED from RESERVED, PICKED or PACKED.',
  values: {
    RESERVED: { description: 'Created from a sales order or a DRAFT transfer; its units reserved at the location it ships from, first-expiring lots first.' },
    PICKED: { description: 'Every unit taken off its lot and bin (picked), waiting to be packed.' },
    PACKED: { description: 'Packed in packages (count, weight), waiting for the carrier.' },
    SHIPPED: { description: "Handed to the carrier: the units left the location through the ledger (a transfer's shipment: the transfer is IN_TRANSIT)." },
    DELIVERED: { description: "Received by the customer, or at the transfer's destination (where the transfer's own receive books the units). Final." },
    CANCELLED: { description: 'Cancelled before it shipped: reservations released, picked units back on the shelf. Final.' },
  } as const,
});

export const ShipmentAllocationRef = builder.objectRef<ShipmentAllocation>('ShipmentAllocation').implement({
  interfaces: [NodeRef],
  description: 'Units of a shipment line held on one stock line (a lot in a bin): reserved, then picked, then shipped from it.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Identifier.' }),
    stockLineId: t.exposeID('stockLineId', { description: 'The stock line the units are (or were) on.' }),
    lotId: t.exposeID('lotId', { nullable: true, description: 'Its lot (null for stock without lots).' }),
    lotCode: t.string({ nullable: true, description: 'The lot code (part of what the shipment records, as a packing slip prints it: no inventory permission needed).', resolve: async (row, _args, ctx) => (row.lotId ? ((await linked(ctx, 'lot', row.lotId))?.code ?? null) : null) }),
    binId: t.exposeID('binId', { nullable: true, description: 'Its bin (null when not in a bin).' }),
    bin: t.field({ type: BinType, nullable: true, authScopes: readScopesOf('Bin'), description: 'The bin (null when none).', resolve: (row, _args, ctx) => linked(ctx, 'bin', row.binId) }),
    quantity: t.exposeInt('quantity', { description: 'Units.' }),
  }),
});

export const ShipmentLineRef = builder.objectRef<ShipmentLine>('ShipmentLine').implement({
  interfaces: [NodeRef],
  description: 'Units of one sales order line or transfer line on a shipment, with the lots and bins holding them.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Identifier.' }),
    lineNumber: t.exposeInt('lineNumber', { description: 'Position on the shipment, from 1.' }),
    orderLineId: t.exposeID('orderLineId', { nullable: true, description: "The sales order line shipped (null on a transfer's shipment)." }),
    transferLineId: t.exposeID('transferLineId', {
      nullable: true,
      description: "The transfer line shipped (null on a sales order's shipment, and on a cancelled shipment of a transfer edited since).",
    }),
    productMasterId: t.exposeID('productMasterId', { description: 'The product.' }),
    product: t.field({ type: ProductType, nullable: true, authScopes: readScopesOf('Product'), description: 'The product (null only when it was deleted since).', resolve: (row, _args, ctx) => linked(ctx, 'product', row.productMasterId) }),
    quantity: t.exposeInt('quantity', { description: 'Units shipped on this line.' }),
    allocations: t.field({ type: [ShipmentAllocationRef], description: 'The lots and bins the units are reserved on, picked from or shipped from.', resolve: (row) => row.allocations }),
  }),
});

export const ShipmentRef = builder.objectRef<ShipmentWithLines>('Shipment').implement({
  interfaces: [NodeRef],
  description: 'An outbound shipment of (part of) a sales order from its fulfillment location, or of a whole inventory transfer from its source.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Identifier.' }),
    number: t.exposeInt('number', { description: 'Number of the shipment in the organization, from 1.' }),
    reference: t.string({ description: 'The number as people write it: SH- and six digits or more.', resolve: (row) => shipmentReference(row) }),
    salesOrderId: t.exposeID('salesOrderId', { nullable: true, description: 'The sales order shipped (null when it ships a transfer).' }),
    transferId: t.exposeID('transferId', { nullable: true, description: 'The inventory transfer shipped (null when it ships a sales order).' }),
    locationId: t.exposeID('locationId', { description: "The location shipped from (the order's fulfillment location, or the transfer's source)." }),
    location: t.field({ type: LocationType, nullable: true, authScopes: readScopesOf('Location'), description: 'The location (null only when it was deleted since).', resolve: (row, _args, ctx) => linked(ctx, 'location', row.locationId) }),
    status: t.field({ type: ShipmentStatusEnum, description: 'Where the shipment is.', resolve: (row) => row.status }),
    carrier: t.exposeString('carrier', { nullable: true, description: 'The carrier (set when shipped).' }),
    trackingNumber: t.exposeString('trackingNumber', { nullable: true, description: "The carrier's tracking number (set when shipped)." }),
    packageCount: t.exposeInt('packageCount', { nullable: true, description: 'Packages (set when packed).' }),
    weightKg: t.exposeFloat('weightKg', { nullable: true, description: 'Total weight in kilograms (when given at packing).' }),
    note: t.exposeString('note', { nullable: true, description: 'Free text given at creation.' }),
    createdByType: t.exposeString('createdByType', { description: 'USER or API_KEY.' }),
    createdBy: t.exposeString('createdBy', { description: 'The id of the user or API key that created it.' }),
    pickedAt: t.expose('pickedAt', { type: 'DateTime', nullable: true, description: 'When it was picked.' }),
    packedAt: t.expose('packedAt', { type: 'DateTime', nullable: true, description: 'When it was packed.' }),
    shippedAt: t.expose('shippedAt', { type: 'DateTime', nullable: true, description: 'When it shipped.' }),
    deliveredAt: t.expose('deliveredAt', { type: 'DateTime', nullable: true, description: 'When it was delivered.' }),
    cancelledAt: t.expose('cancelledAt', { type: 'DateTime', nullable: true, description: 'When it was cancelled.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When it last changed.' }),
    lines: t.field({ type: [ShipmentLineRef], description: 'The lines, in order.', resolve: (row) => row.lines }),
  }),
});
