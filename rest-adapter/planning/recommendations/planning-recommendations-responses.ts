import { z } from 'zod';
import { calendarDate, integer, nullableString } from '../../common-responses.js';

export const planningRecommendation = z
  .object({
    productMasterId: z.string(),
    sku: z.string(),
    productName: z.string(),
    locationId: z.string(),
    action: z.enum(['ORDER', 'MOVE', 'EXPEDITE']).describe('ORDER from a supplier, MOVE from a location with surplus, EXPEDITE an open purchase order expected after the stock-out.'),
    quantity: integer.describe('Units to order or move (up to the target), or the open units of the purchase order to expedite.'),
    needBy: calendarDate.describe('When the units must be there: the day the projection goes below the reorder point (EXPEDITE: the projected stock-out).'),
    orderBy: calendarDate.describe('needBy − lead time, not before today.'),
    sourceType: z.enum(['SUPPLIER', 'LOCATION']).nullable().describe('Where the units come from; null when no supplier is on record.'),
    supplierId: nullableString,
    sourceLocationId: nullableString,
    transferRecommendationId: nullableString.describe('MOVE: the pending or approved transfer recommendation for the same move, when one exists.'),
    purchaseOrderId: nullableString.describe('EXPEDITE: the purchase order to hurry.'),
    startQuantity: z.number().describe('Available now.'),
    inboundQuantity: z.number().describe('Units coming in within the horizon.'),
    outboundQuantity: z.number().describe('Units going out within the horizon besides demand.'),
    minQuantity: integer,
    reorderQuantity: integer,
    maxQuantity: integer,
    targetQuantity: z.number(),
    projectedAtArrival: z.number(),
    reorderCrossingDate: calendarDate.nullable(),
    stockOutDate: calendarDate.nullable(),
    daysOfCover: z.number().nullable().describe('Days until the projection reaches zero; null without demand.'),
    demandRate: z.number().describe('Units per day.'),
    demandSource: z.enum(['PLANNER', 'FORECAST', 'HISTORY', 'LEDGER']).nullable(),
    leadTimeDays: integer,
    leadTimeSource: z.enum(['LEVEL', 'SUPPLIER', 'DEFAULT']),
    horizonDays: integer,
    reason: z.string(),
  })
  .meta({ id: 'PlanningRecommendation', description: 'What to order, move or expedite for a product at a location (docs/planning.md).' });

export const planningRecommendationList = z.object({ data: z.array(planningRecommendation) }).describe('Most urgent first: by needBy, EXPEDITE first, then days of cover, then SKU.');
