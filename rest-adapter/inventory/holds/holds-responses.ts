import { z } from 'zod';
import { dateTime, integer, nullableString, unitTotal } from '../../common-responses.js';

const holdLine = z
  .object({
    id: z.string(),
    stockLineId: z.string(),
    productMasterId: z.string(),
    locationId: z.string(),
    lotId: nullableString,
    binId: nullableString,
    quantity: integer.describe('Units held when the hold was placed.'),
    releasedQuantity: integer.describe('Of those, units released since.'),
    heldQuantity: integer.describe('Units still held.'),
  })
  .meta({ id: 'InventoryHoldLine', description: 'Units of one stock line a hold holds.' });

export const inventoryHold = z
  .object({
    id: z.string(),
    scope: z.enum(['STOCK_LINE', 'LOT', 'PRODUCT_AT_LOCATION']),
    status: z.enum(['ACTIVE', 'RELEASED', 'EXPIRED']),
    stockLineId: nullableString.describe('The stock line named (scope STOCK_LINE).'),
    lotId: nullableString.describe("The lot named (scope LOT), or the named stock line's lot."),
    productMasterId: nullableString,
    locationId: nullableString.describe('The location named (null for a lot held at every location).'),
    reasonCode: z.string(),
    note: nullableString,
    expiresAt: dateTime.nullable(),
    createdByType: z.enum(['USER', 'API_KEY']),
    createdBy: z.string(),
    releasedAt: dateTime.nullable(),
    releasedBy: nullableString,
    releaseNote: nullableString,
    createdAt: dateTime,
    updatedAt: dateTime,
    totalQuantity: unitTotal('Units held when placed, over all lines.'),
    totalReleased: unitTotal('Units released since, over all lines.'),
    totalHeld: unitTotal('Units still held, over all lines.'),
    lines: z.array(holdLine),
  })
  .meta({ id: 'InventoryHold', description: 'A hold on stock: ACTIVE → RELEASED, or EXPIRED once its expiresAt passed.' });

export const inventoryHoldList = z
  .object({ holds: z.array(inventoryHold), data: z.array(inventoryHold), total: integer, limit: integer, offset: integer })
  .describe('`holds` and `data` hold the same page, newest first.');
