import { z } from 'zod';
import { STOCK_MOVE_ACTIONS } from '../../../src/contracts/inventory/availability/stock-move.js';
import { calendarDate, dateTime, integer, nullableString, unitTotal } from '../../common-responses.js';
import { actorType, stockBucket } from '../adjustments/adjustments-responses.js';

export const availabilityLine = z
  .object({
    id: z.string(),
    productMasterId: z.string(),
    locationId: z.string(),
    lotId: nullableString,
    binId: nullableString,
    expiryDate: calendarDate.nullable().optional(),
    qtyOnHand: integer,
    qtyAvailable: integer,
    qtyReserved: integer.optional(),
    qtyOnHold: integer,
    qtyPicked: integer,
    qtyRecalled: integer,
    qtyExpired: integer,
  })
  .meta({
    id: 'AvailabilityLine',
    description: 'A stock line in the availability naming. qtyAvailable follows the include flags; it is 0 for a line of an expired or recalled lot that is not included.',
  });

const totals = {
  totalOnHand: unitTotal('On hand over the lines.'),
  totalAvailable: unitTotal('Available over the lines.'),
  totalReserved: unitTotal('Reserved over the lines (not in the published list; added).'),
  totalOnHold: unitTotal('On hold over the lines.'),
  totalPicked: unitTotal('Picked over the lines.'),
  totalRecalled: unitTotal('Recalled over the lines.'),
  totalExpired: unitTotal('Expired over the lines.'),
};

const availabilityTotals = z.object(totals).meta({ id: 'AvailabilityTotals' });

const availabilitySummary = z
  .object({
    productMasterId: nullableString.describe('The product filtered on, or null.'),
    locationId: nullableString.describe('The location filtered on, or null.'),
    totalOnHand: totals.totalOnHand,
    totalAvailable: totals.totalAvailable,
    totalReserved: totals.totalReserved.optional(),
    totalOnHold: totals.totalOnHold,
    totalPicked: totals.totalPicked,
    totalRecalled: totals.totalRecalled.optional(),
    totalExpired: totals.totalExpired.optional(),
    stockLines: z.array(availabilityLine).describe('Only with includeStockLines=true.').optional(),
  })
  .meta({ id: 'AvailabilitySummary' });

// Told apart by `type` (an enum of one value, as the document's oneOf check expects).
export const availability = z.discriminatedUnion('type', [
  z.object({ type: z.enum(['stockLines']), count: integer, totals: availabilityTotals, data: z.array(availabilityLine) }),
  z.object({ type: z.enum(['summary']), data: availabilitySummary }),
]);

const availabilityCheckResult = z
  .object({
    sku: z.string(),
    locationId: z.string().describe('The location as the item named it (id, code or normalized form).'),
    requestedQuantity: integer,
    availableQuantity: unitTotal('Available over the SKU’s stock lines at the location; 0 for an unknown SKU.'),
    isAvailable: z.boolean(),
  })
  .meta({ id: 'AvailabilityCheckResult' });

export const availabilityCheckResults = z.object({ results: z.array(availabilityCheckResult) });

const stockMoveTransaction = z
  .object({
    id: z.string(),
    inventoryItemId: z.string(),
    transactionType: z.enum(STOCK_MOVE_ACTIONS),
    bucket: stockBucket,
    deltaQty: integer,
    qtyBefore: integer,
    qtyAfter: integer,
    reasonCodeId: nullableString,
    reasonCode: nullableString,
    comment: nullableString,
    sourceType: nullableString,
    sourceId: nullableString,
    createdBy: z.string(),
    actorType,
    createdAt: dateTime,
  })
  .partial()
  .meta({ id: 'StockMoveTransaction', description: 'A stock ledger row written by a move.' });

export const stockMoveResult = z
  .object({
    success: z.literal(true),
    inventoryItem: availabilityLine,
    transactions: z.array(stockMoveTransaction).describe('One row per bucket changed.'),
  })
  .meta({ id: 'StockMoveResponse' });
