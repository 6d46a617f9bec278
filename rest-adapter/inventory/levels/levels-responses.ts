import { z } from 'zod';
import { INVARIANT } from '../../../src/contracts/inventory/levels/inventory-level.js';
import { dateTime, integer, nullableString } from '../../common-responses.js';

const levelFields = {
  id: z.string(),
  productMasterId: z.string(),
  locationId: z.string(),
  minQuantity: integer,
  reorderQuantity: integer,
  maxQuantity: integer,
  status: z.string(),
  abcClass: z.enum(['A', 'B', 'C']).nullable(),
  expectedLeadTimeDays: integer.nullable(),
  replenishmentPeriodDays: integer.nullable(),
  forecastPeriodDays: integer.nullable(),
  forecastQuantity: z.number().nullable(),
  preferredBinLocationId: nullableString,
  replenishmentLocationId: nullableString,
  comments: nullableString,
  createdAt: dateTime,
  updatedAt: dateTime,
  product: z.object({ id: z.string(), sku: z.string(), name: z.string() }).partial(),
  productMaster: z.object({ id: z.string(), globalSku: z.string(), productName: z.string() }).partial(),
};

export const inventoryLevel = z.object(levelFields).meta({ id: 'InventoryLevel', description: `Planning parameters of a product at a location. ${INVARIANT}` });

const levelWithLocation = z
  .object({ ...levelFields, location: z.object({ id: z.string(), code: z.string(), name: z.string() }).partial() })
  .meta({ id: 'InventoryLevelWithLocation', description: 'An inventory level with its location.' });

export const productLevels = z.object({ data: z.array(levelWithLocation) });

export const levelDeleted = z
  .object({ success: z.boolean(), message: z.string().meta({ examples: ['Inventory level deleted'] }) })
  .meta({ id: 'InventoryLevelDeleteResult' });
