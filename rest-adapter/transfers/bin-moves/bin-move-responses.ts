import { z } from 'zod';
import { calendarDate, integer, nullableString, unitTotal } from '../../common-responses.js';

const binStock = z.object({
  stockLineId: z.string(),
  productMasterId: z.string(),
  sku: z.string(),
  productName: z.string(),
  lotId: nullableString,
  lotCode: nullableString,
  expiryDate: calendarDate.nullable(),
  qtyOnHand: integer,
  qtyAvailable: integer,
});

const bin = z
  .object({ id: z.string(), code: z.string(), locationId: z.string(), totalOnHand: unitTotal('On hand in the bin.'), totalAvailable: unitTotal('Available in the bin.'), stock: z.array(binStock) })
  .meta({ id: 'LocationBin', description: 'A bin with the stock lines in it that have units on hand.' });

export const locationBins = z
  .object({ location: z.object({ id: z.string(), name: z.string(), code: z.string() }), bins: z.array(bin), data: z.array(bin) })
  .describe('`bins` and `data` hold the same bins, by code.');

export const binMoveResult = z
  .object({
    success: z.literal(true),
    moveId: z.string().describe('sourceId of the BIN_MOVE ledger rows.'),
    locationId: z.string(),
    productMasterId: z.string(),
    fromBinId: z.string(),
    toBinId: z.string(),
    quantity: integer,
    pieces: z.array(z.object({ lotId: nullableString, quantity: integer, fromStockLineId: z.string(), toStockLineId: z.string() })),
  })
  .meta({ id: 'BinMove' });
