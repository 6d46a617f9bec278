import { z } from 'zod';
import { calendarDate, dateTime, integer, nullableString } from '../../common-responses.js';

export const inventoryListItem = z
  .object({
    id: z.string(),
    productMasterId: z.string(),
    locationId: z.string(),
    quantityOnHand: integer,
    quantityReserved: integer,
    quantityAvailable: integer.describe('On hand minus reserved, on hold, picked, recalled and expired; never below 0.'),
    lotId: nullableString,
    binId: nullableString,
    expiryDate: calendarDate.nullable(),
    createdAt: dateTime,
    updatedAt: dateTime,
  })
  .meta({ id: 'InventoryListItem', description: 'A stock line in the inventory list naming. lotId, binId and expiryDate are null when the line has no lot or bin.' });

export const stockLinePage = z.object({
  items: z.array(inventoryListItem),
  pagination: z.object({ page: integer, pageSize: integer, total: integer, totalPages: integer }),
  data: z.array(inventoryListItem).describe('The same list as items.'),
});
