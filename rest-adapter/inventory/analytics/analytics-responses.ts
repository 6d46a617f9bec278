import { z } from 'zod';
import { dateTime, integer, nullableString, unitTotal } from '../../common-responses.js';

/** The figures' definitions: the description of the analytics schema and of its route. */
export const ANALYTICS_DEFINITIONS = [
  'Figures are for the caller\'s organization, limited to one location and/or one product category when given.',
  '- totalUnits: units on hand now, summed over the stock lines.',
  '- totalValue: on hand × the product\'s unitCost, summed; a product without a unitCost counts 0.',
  '- Outbound units: the negative on-hand changes in the stock ledger within the period (both ends included), ' +
    'as a positive number; lot corrections (LOT_CORRECTION), bin moves (BIN_MOVE) and put-aways (PUT_AWAY) are moves inside the location and do not count; ' +
    'a shipped inventory transfer (TRANSFER_OUT) does.',
  '- turnoverRate: outbound units ÷ average on hand, for the period (not annualised). Average on hand is ' +
    '(on hand at `from` + on hand at `to`) ÷ 2, each reconstructed from today\'s on hand and the ledger. 0 when the average is 0. Rounded to 4 decimals.',
  '- averageDaysOnHand: days in the period ÷ turnoverRate, rounded to 2 decimals; null when turnoverRate is 0 (nothing went out).',
  '- slowMovingItems: product-location pairs with units on hand and no outbound movement in the period.',
  '- expiringItems: stock lines with units on hand whose lot expires from today (UTC) through today + 30 days; ' +
    'lots already expired are not counted. Relative to today, not to the period.',
  '- inTransitUnits: units shipped by IN_TRANSIT inventory transfers and not yet received (with locationId: those heading to that location); ' +
    'they are in no location\'s on hand until received. inTransitValue: the same × unitCost, rounded to 4 decimals.',
  '- byCategory: value and units per product category, highest value first; products without a category form one entry with categoryId and categoryName null.',
].join('\n');

const inventoryAnalytics = z
  .object({
    totalValue: z.number(),
    totalUnits: unitTotal('Units on hand now.'),
    turnoverRate: z.number(),
    averageDaysOnHand: z.number().nullable(),
    slowMovingItems: integer,
    expiringItems: integer,
    inTransitUnits: unitTotal('Units in transit now.'),
    inTransitValue: z.number(),
    byCategory: z.array(z.object({ categoryId: nullableString, categoryName: nullableString, value: z.number(), units: unitTotal('Units on hand of the category.') })),
  })
  .meta({ id: 'InventoryAnalytics', description: ANALYTICS_DEFINITIONS });

export const analyticsReport = z.object({ analytics: inventoryAnalytics, period: z.object({ from: dateTime, to: dateTime }) });
