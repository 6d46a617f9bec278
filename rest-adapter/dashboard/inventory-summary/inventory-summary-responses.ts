import { z } from 'zod';
import { dateTime, integer, nullableString, unitTotal } from '../../common-responses.js';

/** The figures' definitions: the description of the summary schema and of its route. */
export const INVENTORY_SUMMARY_DEFINITIONS = [
  "Stock of one location of the caller's organization, now (no asOf: from the stock lines) or as of asOf (rebuilt from the stock ledger: " +
    "each stock line's quantity of each bucket is that of its last ledger row at or before asOf, 0 if none; the latest stock snapshot at or before asOf " +
    'stands for the rows before it). Levels (min and max), unit costs and lot recall flags are those of now: they have no history.',
  '- onHand, reserved, onHold, picked, recalled, expired: units of each bucket, summed over the location\'s stock lines; the last five are parts of on hand.',
  '- available: per stock line, on hand minus reserved, on hold, picked, recalled and expired (at least 0), 0 for a line whose lot is recalled or ' +
    'expired before the day of asOf (UTC); summed. The rule of the availability endpoints.',
  '- inTransit: units shipped by inventory transfers to this location (TRANSFER_OUT ledger rows) and not yet received there or returned to the source ' +
    '(TRANSFER_IN rows), as of asOf; in no location\'s on hand. inTransitValue: the same × unitCost.',
  '- value: on hand × the product\'s unitCost, summed (a product without unitCost counts 0), rounded to 4 decimals.',
  '- productsBelowMin / productsAboveMax: inventory levels of the location with minQuantity (maxQuantity) above 0 whose product has fewer (more) units available than it.',
  '- productsOutOfStock: products with an inventory level at the location or a stock line there created by asOf, with no unit available.',
  '- lotsExpiringSoon: lots with units on hand at the location expiring from the day of asOf through expiringWithinDays (30) days later; ' +
    'lots already expired are not counted. unitsExpiringSoon: their units on hand.',
  '- computedFrom: method STOCK_LINES (now) or LEDGER (asOf), the snapshot used (snapshotId, snapshotAt; null when none) and the ledger rows read after it.',
].join('\n');

export const inventorySummaryBody = z
  .object({
    locationId: z.string(),
    asOf: dateTime.describe('The moment the figures are for: asOf as asked, else the time of the request.'),
    onHand: unitTotal('Units on hand.'),
    available: unitTotal('Units available.'),
    reserved: unitTotal('Units reserved.'),
    onHold: unitTotal('Units on hold.'),
    picked: unitTotal('Units picked.'),
    recalled: unitTotal('Units recalled.'),
    expired: unitTotal('Units expired.'),
    inTransit: unitTotal('Units in transit to the location.'),
    value: z.number(),
    inTransitValue: z.number(),
    productsBelowMin: integer,
    productsAboveMax: integer,
    productsOutOfStock: integer,
    lotsExpiringSoon: integer,
    unitsExpiringSoon: unitTotal('Units on hand of the lots expiring soon.'),
    expiringWithinDays: integer,
    computedFrom: z.object({
      method: z.enum(['STOCK_LINES', 'LEDGER']),
      snapshotId: nullableString,
      snapshotAt: dateTime.nullable(),
      ledgerRows: integer,
    }),
  })
  .meta({ id: 'InventorySummary', description: INVENTORY_SUMMARY_DEFINITIONS });
