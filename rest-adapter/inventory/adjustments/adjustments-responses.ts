import { z } from 'zod';
import { calendarDate, dateTime, integer, nullableString } from '../../common-responses.js';

/** Response schemas of the adjustment, ledger history, lot correction, count and record-stock routes (their inputs come from src/contracts). */

export const stockBucket = z.enum(['ON_HAND', 'RESERVED', 'ON_HOLD', 'PICKED', 'RECALLED', 'EXPIRED']);
export const actorType = z.enum(['USER', 'API_KEY']);

export const adjustedStockLine = z
  .object({
    id: z.string().describe('inventoryItemId'),
    productMasterId: z.string(),
    locationId: z.string(),
    lotId: nullableString,
    lotCode: nullableString,
    expiryDate: calendarDate.nullable(),
    binId: nullableString,
    binCode: nullableString,
    qtyOnHand: integer.describe('Units physically at the line.'),
    qtyAvailable: integer.describe('On hand minus reserved, on hold, picked, recalled and expired (never below 0).'),
    qtyOnHold: integer,
    qtyPicked: integer,
    qtyRecalled: integer,
    qtyExpired: integer,
    qtyReserved: integer,
  })
  .meta({ id: 'AdjustedStockLine', description: 'A stock line (inventory item) as the change left it, read in the same transaction (availability naming).' });

export const ledgerEntry = z
  .object({
    id: z.string(),
    inventoryItemId: z.string(),
    productMasterId: z.string(),
    locationId: z.string(),
    transactionType: z.string().describe('ADJUSTMENT, RECEIPT, COUNT, LOT_CORRECTION, RESERVE, PICK, ...'),
    bucket: stockBucket.describe('Which quantity changed.'),
    deltaQty: integer.describe('Signed change; qtyAfter - qtyBefore.'),
    qtyBefore: integer,
    qtyAfter: integer,
    reasonCodeId: nullableString,
    reasonCode: nullableString.describe('The reason code as it was at the time.'),
    comment: nullableString,
    rootCause: nullableString,
    createdAt: dateTime,
    createdBy: z.string().describe('User id, or API key id, that made the change.'),
    actorType: actorType,
    sourceType: nullableString.describe('ADJUSTMENT, LOT_CORRECTION, RECORD_STOCK, RECORD_COUNT, ...'),
    sourceId: nullableString.describe('Shared by the rows one request wrote.'),
  })
  .meta({ id: 'LedgerEntry', description: 'A stock ledger row (history entry): one change of one quantity of one stock line.' });

export const adjustmentResult = z
  .object({
    success: z.literal(true),
    transaction: ledgerEntry,
    inventoryItem: adjustedStockLine,
    message: z.string().describe('The signed change, for example "Adjusted on hand by -5 (from 20 to 15)".'),
  })
  .meta({ id: 'AdjustmentResult' });

export const lotCorrectionResult = z
  .object({
    success: z.literal(true),
    fromInventoryItem: adjustedStockLine,
    toInventoryItem: adjustedStockLine,
    transactions: z.array(ledgerEntry).length(2).describe('Source row (-quantity) then target row (+quantity).'),
    message: z.string(),
  })
  .meta({ id: 'LotCorrectionResult' });

const reasonCode = z
  .object({
    id: z.string(),
    code: z.string().describe('Unique in the organization, for example DAMAGED.'),
    name: z.string(),
    direction: z.enum(['INCREASE', 'DECREASE', 'ANY']).describe('Which adjustments may use it.'),
  })
  .meta({ id: 'ReasonCode' });

export const reasonCodeList = z.object({ reasonCodes: z.array(reasonCode), data: z.array(reasonCode) });

export const ledgerHistory = z
  .object({
    entries: z.array(ledgerEntry),
    total: integer,
    pagination: z
      .object({
        limit: integer,
        offset: integer,
        hasMore: z.boolean(),
        page: integer,
        pageSize: integer,
        total: integer,
        totalPages: integer,
      })
      .partial()
      .describe('Both pagination shapes of the interface: limit/offset/hasMore and page/pageSize/total/totalPages.'),
  })
  .meta({ id: 'LedgerHistory' });
