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

export const expiredStockActionResult = z
  .object({
    success: z.literal(true),
    action: z.enum(['EXPIRE', 'CONSUME']),
    lines: z.array(
      z
        .object({
          stockLineId: z.string(),
          lotId: nullableString,
          lotCode: nullableString,
          expiryDate: calendarDate.nullable(),
          quantity: integer,
          qtyOnHand: integer,
          qtyExpired: integer,
        })
        .meta({ id: 'ExpiredStockActionLine' }),
    ),
    totalQuantity: integer,
  })
  .meta({ id: 'ExpiredStockActionResult' });
