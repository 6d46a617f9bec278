import { z } from 'zod';
import { calendarDate, integer, nullableString } from '../../common-responses.js';
import { adjustedStockLine, ledgerEntry } from '../adjustments/adjustments-responses.js';

export const recordStockResult = z
  .object({ lines: z.array(adjustedStockLine).describe('One entry per request line, in request order: its stock line after the batch.') })
  .meta({ id: 'RecordStockResult' });

export const recordCountResult = z
  .object({
    lines: z.array(adjustedStockLine).describe('One entry per request line, in request order.'),
    transactions: z.array(ledgerEntry).describe('COUNT rows written; none for a line whose count equalled its on hand.'),
    counted: integer,
    changed: integer,
  })
  .meta({ id: 'RecordCountResult' });

export const countSheet = z
  .object({
    locationId: z.string(),
    location: z.object({ id: z.string(), code: z.string(), name: z.string() }).partial().optional(),
    lines: z.array(
      z
        .object({
          inventoryItemId: z.string(),
          productMasterId: z.string(),
          sku: z.string(),
          productName: z.string(),
          lotId: nullableString,
          lotCode: nullableString,
          expiryDate: calendarDate.nullable(),
          binId: nullableString,
          binCode: nullableString,
          qtyOnHand: integer,
          qtyAvailable: integer,
        })
        .partial(),
    ),
    total: integer,
    pagination: z.object({ limit: integer, offset: integer, hasMore: z.boolean(), total: integer }).partial(),
  })
  .meta({ id: 'CountSheet' });
