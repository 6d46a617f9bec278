import { z } from 'zod';
import { calendarDate, dateTime, integer, nullableString, unitTotal } from '../../common-responses.js';

const status = z.enum(['DRAFT', 'IN_TRANSIT', 'RECEIVED', 'CANCELLED']);

const transferLot = z
  .object({
    id: z.string(),
    sourceStockLineId: z.string().describe('The source stock line the units left.'),
    lotId: nullableString,
    lotCode: nullableString,
    expiryDate: calendarDate.nullable(),
    binId: nullableString.describe('The source bin.'),
    quantity: integer.describe('Units shipped from this stock line.'),
    receivedQuantity: integer,
    returnedQuantity: integer.describe('Units returned to the source by a cancellation.'),
  })
  .meta({ id: 'InventoryTransferLot', description: 'Units of a shipped line taken from one source stock line (lot and bin).' });

const transferLine = z
  .object({
    id: z.string().describe('Name it in a receipt.'),
    lineNumber: integer,
    productMasterId: z.string(),
    quantity: integer,
    lotId: nullableString,
    binId: nullableString,
    destBinId: nullableString,
    shippedQuantity: integer,
    receivedQuantity: integer,
    inTransitQuantity: integer.describe('Shipped and not received (0 once cancelled).'),
    lots: z.array(transferLot).describe('Where the shipped units came from.'),
  })
  .meta({ id: 'InventoryTransferLine', description: 'One product of a transfer.' });

export const inventoryTransfer = z
  .object({
    id: z.string(),
    sourceLocationId: z.string(),
    destLocationId: z.string(),
    status,
    reference: nullableString,
    notes: nullableString,
    expectedAt: calendarDate.nullable(),
    sourceType: nullableString.describe('What it was made for, for example RECOMMENDATION.'),
    sourceId: nullableString,
    createdByType: z.enum(['USER', 'API_KEY']),
    createdBy: z.string(),
    shippedAt: dateTime.nullable(),
    shippedBy: nullableString,
    receivedAt: dateTime.nullable(),
    cancelledAt: dateTime.nullable(),
    cancelledBy: nullableString,
    createdAt: dateTime,
    updatedAt: dateTime,
    totalQuantity: unitTotal('Units asked, over all lines.'),
    totalShipped: unitTotal('Units shipped, over all lines.'),
    totalReceived: unitTotal('Units received, over all lines.'),
    lines: z.array(transferLine),
  })
  .meta({ id: 'InventoryTransfer', description: 'Stock moving from one location to another: DRAFT → IN_TRANSIT → RECEIVED, or CANCELLED.' });

export const inventoryTransferList = z
  .object({ transfers: z.array(inventoryTransfer), data: z.array(inventoryTransfer), total: integer, limit: integer, offset: integer })
  .describe('`transfers` and `data` hold the same page, newest first.');

const inTransitRow = z.object({ productMasterId: z.string(), locationId: z.string(), inbound: unitTotal('Units on their way to the location.'), outbound: unitTotal('Units shipped from the location, not yet received.') }).meta({ id: 'InTransitStock' });

export const inTransitReport = z
  .object({ inTransit: z.array(inTransitRow), data: z.array(inTransitRow), totalInbound: unitTotal('Inbound over the entries.'), totalOutbound: unitTotal('Outbound over the entries.') })
  .describe('`inTransit` and `data` hold the same entries, by location then product.');
