import { builder } from '../builder.js';
import { PurchaseOrderStatus } from '../../generated/prisma/enums.js';
import { countPurchaseOrders, findPurchaseOrders } from '../../services/supply/supply-queries.js';
import { NodeRef } from '../node/node-interface.js';

const PurchaseOrderStatusEnum = builder.enumType(PurchaseOrderStatus, {
  name: 'PurchaseOrderStatus',
  description: 'Where a purchase order stands (an import defaults it to PENDING).',
});

export const PurchaseOrderType = builder.prismaObject('PurchaseOrder', {
  interfaces: [NodeRef],
  description: 'Inbound supply: an order to a supplier for goods expected at a destination location. Its number is the idempotent import key.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Identifier.' }),
    number: t.exposeString('number', { description: 'Purchase order number, unique within the organization.' }),
    status: t.field({ type: PurchaseOrderStatusEnum, description: 'Status of the order.', resolve: (po) => po.status }),
    expectedAt: t.expose('expectedAt', { type: 'Date', nullable: true, description: 'When the goods are expected, if known.' }),
    supplierId: t.exposeID('supplierId', { description: 'The supplier.' }),
    destinationLocationId: t.exposeID('destinationLocationId', { description: 'Location that receives the goods.' }),
    supplier: t.relation('supplier', { description: 'The supplier.' }),
    destinationLocation: t.relation('destinationLocation', { description: 'Location that receives the goods.' }),
    lines: t.relation('lines', { description: 'Lines of the order, by line number.', query: { orderBy: { lineNumber: 'asc' } } }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the order was created.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When the order was last changed.' }),
  }),
});

builder.prismaObject('PurchaseOrderLine', {
  interfaces: [NodeRef],
  description: 'An expected receipt: a quantity of one product on a purchase order.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Identifier.' }),
    lineNumber: t.exposeInt('lineNumber', { description: 'Position of the line in the order, from 1.' }),
    productMasterId: t.exposeID('productMasterId', { description: 'The product.' }),
    product: t.relation('productMaster', { description: 'The product.' }),
    quantity: t.exposeInt('quantity', { description: 'Units ordered.' }),
    receivedQuantity: t.exposeInt('receivedQuantity', { description: 'Units received so far.' }),
    unitCost: t.expose('unitCost', { type: 'Decimal', nullable: true, description: 'Cost of one unit, if given.' }),
    expectedAt: t.expose('expectedAt', { type: 'Date', nullable: true, description: 'When this line is expected (the order\'s date unless the line gave its own).' }),
  }),
});

builder.queryFields((t) => ({
  purchaseOrders: t.prismaConnection({
    type: 'PurchaseOrder',
    cursor: 'id',
    description: 'Purchase orders of the organization in creation order, as a Relay connection.',
    authScopes: { permission: 'procurement.read' },
    args: {
      status: t.arg({ type: PurchaseOrderStatusEnum, description: 'Only orders in this status.' }),
      locationId: t.arg.id({ description: 'Only orders to this destination location (404 when it is not one of the organization\'s).' }),
    },
    totalCount: (_parent, args, ctx) => countPurchaseOrders(ctx, { status: args.status, locationId: args.locationId == null ? null : String(args.locationId) }),
    resolve: (query, _parent, args, ctx) =>
      findPurchaseOrders(ctx, { status: args.status, locationId: args.locationId == null ? null : String(args.locationId) }, query),
  }),
}));
