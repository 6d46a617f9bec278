import { z } from 'zod';
import { calendarDate, integer, nullableString, unitTotal } from '../../common-responses.js';

const expiredLine = z
  .object({
    stockLineId: z.string(),
    productMasterId: z.string(),
    sku: z.string(),
    locationId: z.string(),
    lotId: z.string(),
    lotCode: z.string(),
    binId: nullableString,
    expiryDate: calendarDate,
    daysExpired: integer.describe('Days from the expiry date to asOf.'),
    qtyOnHand: integer,
    qtyExpired: integer.describe('Units already marked expired.'),
    qtyAvailable: integer.describe('Units mark-expired would move.'),
    unitCost: z.number().nullable(),
    value: z.number().describe('On hand × unit cost (0 without a unit cost).'),
  })
  .meta({ id: 'ExpiredStockLine' });

export const expiredStock = z
  .object({
    asOf: calendarDate,
    data: z.array(expiredLine),
    totals: z.object({
      lines: integer,
      units: unitTotal('Units on hand over the matching lines.'),
      expiredUnits: unitTotal('Units already marked expired over the matching lines.'),
      value: z.number().describe('Value of the units on hand at unit cost; products without one count 0.'),
    }),
    pagination: z.object({ limit: integer, offset: integer, total: integer, hasMore: z.boolean() }),
  })
  .meta({ id: 'ExpiredStock' });

const actionLine = z
  .object({
    stockLineId: z.string(),
    lotId: nullableString,
    lotCode: nullableString,
    expiryDate: calendarDate.nullable(),
    quantity: integer,
    qtyOnHand: integer,
    qtyExpired: integer,
  })
  .meta({ id: 'ExpiredStockActionLine' });

export const expiredStockActionResult = z
  .object({
    success: z.literal(true),
    action: z.enum(['EXPIRE', 'CONSUME']),
    lines: z.array(actionLine),
    totalQuantity: integer,
  })
  .meta({ id: 'ExpiredStockActionResult' });

export const expiredStockDestructionResult = z
  .object({
    success: z.literal(true),
    action: z.enum(['TRANSFER_OUT', 'DESTROY']).describe('TRANSFER_OUT: sent to the destruction location on transfers; DESTROY: written off under documentNumber.'),
    lines: z.array(actionLine),
    totalQuantity: integer,
    destinationLocationId: nullableString.describe('The destruction location (null for a write-off).'),
    documentNumber: nullableString.describe('The destruction certificate or write-off document.'),
    transfers: z
      .array(
        z
          .object({
            transferId: z.string(),
            reference: nullableString.describe('The document number, when given.'),
            sourceLocationId: z.string(),
            destLocationId: z.string(),
            status: z.string().describe('IN_TRANSIT: receive it at the destination with POST /api/inventory/transfers/{id} (action receive).'),
            stockLineIds: z.array(z.string()).describe('The stock lines whose units it carries.'),
            totalQuantity: integer,
          })
          .meta({ id: 'ExpiredStockDestructionTransfer' }),
      )
      .describe('One transfer per source location (empty for a write-off).'),
  })
  .meta({ id: 'ExpiredStockDestructionResult' });
