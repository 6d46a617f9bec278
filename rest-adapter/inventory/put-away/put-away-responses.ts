import { z } from 'zod';
import { calendarDate, integer, nullableString } from '../../common-responses.js';

const task = z
  .object({
    stockLineId: z.string().describe('The un-binned stock line: what a confirmation names.'),
    locationId: z.string(),
    productMasterId: z.string(),
    sku: z.string(),
    productName: z.string(),
    lotId: nullableString,
    lotCode: nullableString,
    expiryDate: calendarDate.nullable(),
    qtyOnHand: integer,
    qtyToPutAway: integer.describe('Units available to move into a bin.'),
    suggestedBinId: nullableString.describe('The suggested bin; null with rule NONE.'),
    suggestedBinCode: nullableString,
    suggestionRule: z
      .enum(['PREFERRED_BIN', 'SAME_LOT', 'SAME_PRODUCT', 'EMPTY_BIN', 'NONE'])
      .describe("Which rule chose the bin, tried in this order: the level's preferred bin, a bin holding the product and lot, one holding the product, the first empty bin by code."),
  })
  .meta({ id: 'PutAwayTask', description: 'Stock received at a location and not yet in a bin, with a suggested bin.' });

export const putAwayTaskList = z
  .object({ tasks: z.array(task), data: z.array(task), total: integer, limit: integer, offset: integer })
  .describe('`tasks` and `data` hold the same tasks, by SKU, then lot expiry (none last).');

export const putAwayConfirmation = z
  .object({
    putAwayId: z.string().describe('sourceId of the PUT_AWAY ledger rows.'),
    locationId: z.string(),
    lines: z.array(z.object({ stockLineId: z.string(), productMasterId: z.string(), lotId: nullableString, binId: z.string(), quantity: integer, toStockLineId: z.string() })),
  })
  .meta({ id: 'PutAwayConfirmation' });
