import { z } from 'zod';
import { calendarDate, dateTime, integer, nullableString } from '../../common-responses.js';
import { planningRecommendation } from '../../planning/recommendations/planning-recommendations-responses.js';

const settings = {
  locationId: z.string(),
  method: z.enum(['MIN_MAX', 'FORECAST_COVER']),
  reviewPeriodDays: integer.describe('Days between reviews.'),
  safetyStockDays: integer.describe('Days of demand kept as safety stock.'),
  defaultSourceLocationId: nullableString.describe('The default source location; at most one of the two defaults is set.'),
  defaultSupplierId: nullableString.describe('The default supplier.'),
};

export const replenishmentConfig = z
  .object({
    id: nullableString.describe('The stored configuration; null when these are the defaults.'),
    ...settings,
    stored: z.boolean().describe('false: nothing stored, these are the defaults (MIN_MAX, 7, 0, no source).'),
    updatedAt: dateTime.nullable(),
    updatedBy: nullableString.describe('User or API key id of the last change; null for the defaults.'),
  })
  .meta({ id: 'ReplenishmentConfig', description: "A location's replenishment configuration, stored or default." });

const record = z
  .object({
    id: z.string(),
    productMasterId: z.string(),
    locationId: z.string(),
    quantity: integer,
    sourceType: z.enum(['SUPPLIER', 'LOCATION']),
    supplierId: nullableString,
    sourceLocationId: nullableString,
    needBy: calendarDate,
    reason: nullableString,
    status: z.enum(['PROPOSED', 'APPROVED', 'ORDERED', 'CANCELLED']),
    purchaseOrderId: nullableString.describe('The draft purchase order a SUPPLIER record was converted to.'),
    transferId: nullableString.describe('The DRAFT inventory transfer a LOCATION record was converted to.'),
    comment: nullableString,
    createdAt: dateTime,
    updatedAt: dateTime,
    createdByType: z.string(),
    createdBy: z.string(),
    approvedAt: dateTime.nullable(),
    approvedBy: nullableString,
    orderedAt: dateTime.nullable(),
    orderedBy: nullableString,
    cancelledAt: dateTime.nullable(),
    cancelledBy: nullableString,
  })
  .meta({ id: 'ReplenishmentRecord', description: 'A suggestion to order or move stock to a location, and what became of it.' });

export const replenishmentRecordList = z
  .object({ records: z.array(record), data: z.array(record), total: integer, limit: integer, offset: integer })
  .describe('`records` and `data` hold the same records, newest first.');

export const replenishmentActionResult = z
  .object({ data: z.array(record).describe('The records created (create), or the one record moved.') })
  .meta({ id: 'ReplenishmentActionResult' });

export const replenishmentSuggestionList = z
  .object({
    locationId: z.string(),
    method: z.enum(['MIN_MAX', 'FORECAST_COVER']).describe('The method used: the one asked, else the configuration.'),
    reviewPeriodDays: integer.nullable().describe("The review period used; null: each level's replenishment period."),
    safetyStockDays: integer,
    supplierId: z.string().nullable().describe('The supplier orders come from, when asked or configured.'),
    sourceLocationId: z.string().nullable().describe('The location moves come from, when asked or configured.'),
    configStored: z.boolean().describe('Whether the location has a stored configuration (else the defaults applied).'),
    data: z.array(planningRecommendation).describe('Most urgent first. ORDER and MOVE suggestions carry what POST /api/inventory/replenishment (action create) takes; EXPEDITE ones name a purchase order to hurry.'),
  })
  .meta({ id: 'ReplenishmentSuggestions' });
