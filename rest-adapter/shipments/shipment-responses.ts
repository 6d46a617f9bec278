import { z } from 'zod';
import { SHIPMENT_STATUSES } from '../../src/contracts/shipments/shipments.js';
import { dateTime, integer, nullableString, stockAllocationFields } from '../common-responses.js';

const allocation = z
  .object(stockAllocationFields)
  .meta({ id: 'ShipmentAllocation', description: 'Units of a shipment line on one stock line (a lot in a bin): reserved, then picked, then shipped from it.' });

const line = z
  .object({
    id: z.string(),
    lineNumber: integer,
    orderLineId: nullableString.describe("The sales order line shipped (null on a transfer's shipment)."),
    transferLineId: nullableString.describe("The transfer line shipped (null on a sales order's shipment, and on a cancelled shipment of a transfer edited since)."),
    productMasterId: z.string(),
    quantity: integer,
    allocations: z.array(allocation),
  })
  .meta({ id: 'ShipmentLine', description: 'Units of one sales order line or transfer line on a shipment.' });

export const shipment = z
  .object({
    id: z.string(),
    number: integer.describe('Number of the shipment in the organization, from 1.'),
    reference: z.string().describe('SH- and the number in six digits or more.'),
    salesOrderId: nullableString.describe('The sales order shipped (null when it ships a transfer).'),
    transferId: nullableString.describe('The inventory transfer shipped (null when it ships a sales order).'),
    locationId: z.string().describe("The location shipped from (the order's fulfillment location, or the transfer's source)."),
    status: z.enum(SHIPMENT_STATUSES),
    carrier: nullableString,
    trackingNumber: nullableString,
    packageCount: integer.nullable(),
    weightKg: z.number().nullable(),
    note: nullableString,
    createdByType: z.string().describe('USER or API_KEY.'),
    createdBy: z.string(),
    pickedAt: dateTime.nullable(),
    packedAt: dateTime.nullable(),
    shippedAt: dateTime.nullable(),
    deliveredAt: dateTime.nullable(),
    cancelledAt: dateTime.nullable(),
    createdAt: dateTime,
    updatedAt: dateTime,
    lines: z.array(line),
  })
  .meta({ id: 'Shipment', description: 'An outbound shipment of (part of) a sales order from its fulfillment location.' });

export const shipmentList = z
  .object({ shipments: z.array(shipment), data: z.array(shipment), total: integer, limit: integer, offset: integer })
  .describe('`shipments` and `data` hold the same shipments, newest first.');
