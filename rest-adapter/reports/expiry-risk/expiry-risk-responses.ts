import { z } from 'zod';
import { calendarDate, integer } from '../../common-responses.js';

const item = z
  .object({
    lotId: z.string(),
    lotCode: z.string(),
    productMasterId: z.string(),
    sku: z.string(),
    productName: z.string(),
    locationId: z.string(),
    expiryDate: calendarDate,
    daysLeft: integer.describe('Days from today (UTC) to the expiry date; negative when it has passed.'),
    quantity: integer.describe('Units on hand at the location, not yet marked expired.'),
    reserved: integer.describe('Of them, reserved for orders (expected to sell).'),
    onHold: integer.describe('Of them, on hold (not expected to sell).'),
    recalled: integer.describe('Of them, recalled (not expected to sell).'),
    unitCost: z.number().nullable(),
    value: z.number().describe('quantity × unit cost (none: 0).'),
    demandPerDay: z.number().describe('Expected demand of the product at the location, units per day.'),
    demandSource: z.enum(['PLANNER', 'FORECAST', 'HISTORY', 'LEDGER']).nullable().describe('Where demandPerDay came from; null when no source has a number (0 per day).'),
    expectedToSell: integer.describe('Units expected to leave before the expiry date: reserved and picked ones, and the demand reaching this lot first expiry first out.'),
    atRiskUnits: integer.describe('quantity − expectedToSell.'),
    atRiskValue: z.number().describe('atRiskUnits × unit cost.'),
  })
  .meta({ id: 'ExpiryRiskItem', description: 'A lot expiring in the window, with the units and value that will not sell in time.' });

export const expiryRiskList = z.object({ data: z.array(item).describe('Largest value at risk first, then expiry date, SKU and lot code; at most 2,000 lots.') });
