import { builder } from '../builder.js';
import { SalesOrderStatus } from '../../generated/prisma/enums.js';
import { countSalesOrders, findSalesOrders } from '../../services/supply/supply-queries.js';
import { NodeRef } from '../node/node-interface.js';

const SalesOrderStatusEnum = builder.enumType(SalesOrderStatus, {
  name: 'SalesOrderStatus',
  description: 'Where a sales order stands: OPEN (nothing reserved), PARTIALLY_ALLOCATED (some units backordered), ALLOCATED (all reserved), CANCELLED, FULFILLED.',
});

builder.prismaObject('SalesOrder', {
  interfaces: [NodeRef],
  description: 'Demand to fulfil from a location. Its stock is reserved first-expiring lots first; what cannot be reserved is backordered.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Identifier.' }),
    externalId: t.exposeString('externalId', { description: 'External order identifier, unique within the organization (the import key).' }),
    status: t.field({ type: SalesOrderStatusEnum, description: 'Status of the order.', resolve: (o) => o.status }),
    fulfillmentLocationId: t.exposeID('fulfillmentLocationId', { description: 'Location whose stock fulfils the order.' }),
    fulfillmentLocation: t.relation('fulfillmentLocation', { description: 'Location whose stock fulfils the order.' }),
    lines: t.relation('lines', { description: 'Lines of the order, by line number.', query: { orderBy: { lineNumber: 'asc' } } }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the order was created.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When the order was last changed.' }),
  }),
});

builder.prismaObject('SalesOrderLine', {
  interfaces: [NodeRef],
  description: 'A requested quantity of one product; requestedQty = reservedQty + backorderedQty.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Identifier.' }),
    lineNumber: t.exposeInt('lineNumber', { description: 'Position of the line in the order, from 1.' }),
    productMasterId: t.exposeID('productMasterId', { description: 'The product.' }),
    product: t.relation('productMaster', { description: 'The product.' }),
    requestedQty: t.exposeInt('requestedQty', { description: 'Units requested.' }),
    reservedQty: t.exposeInt('reservedQty', { description: 'Units reserved at the fulfillment location.' }),
    backorderedQty: t.exposeInt('backorderedQty', { description: 'Units that could not be reserved (the shortfall).' }),
    allocations: t.relation('allocations', { description: 'Which stock lines hold the reserved units.', query: { orderBy: { id: 'asc' } } }),
  }),
});

builder.prismaObject('SalesOrderAllocation', {
  interfaces: [NodeRef],
  description: 'Units of an order line reserved on one stock line.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Identifier.' }),
    stockLineId: t.exposeID('stockLineId', { description: 'The stock line (inventory item) holding the reservation.' }),
    stockLine: t.relation('stockLine', { description: 'The stock line holding the reservation.' }),
    quantity: t.exposeInt('quantity', { description: 'Units reserved on that line.' }),
  }),
});

builder.queryFields((t) => ({
  salesOrders: t.prismaConnection({
    type: 'SalesOrder',
    cursor: 'id',
    description: 'Sales orders of the organization in creation order, as a Relay connection.',
    authScopes: { permission: 'inventory.read' },
    args: { locationId: t.arg.id({ description: 'Only orders fulfilled from this location (404 when it is not one of the organization\'s).' }) },
    totalCount: (_parent, args, ctx) => countSalesOrders(ctx, { locationId: args.locationId == null ? null : String(args.locationId) }),
    resolve: (query, _parent, args, ctx) => findSalesOrders(ctx, { locationId: args.locationId == null ? null : String(args.locationId) }, query),
  }),
}));
