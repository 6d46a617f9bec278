import { z } from 'zod';
import { calendarDate, integer, nullableString, unitTotal } from '../common-responses.js';
import { stockRequest } from './stock-request-responses.js';

const status = z.enum(['DRAFT', 'SUBMITTED', 'APPROVED', 'REJECTED', 'PARTIALLY_FULFILLED', 'FULFILLED', 'CANCELLED']);

const categoryRow = z
  .object({
    categoryId: nullableString.describe('Null: products without a category, or deleted since.'),
    categoryName: nullableString,
    requestCount: integer.describe('Requests with at least one line in the category.'),
    lineCount: integer,
    quantityRequested: unitTotal('Units requested.'),
    quantityApproved: unitTotal('Units approved (lines without an approved quantity count 0).'),
    quantityFulfilled: unitTotal('Units fulfilled (0 until fulfilment is served).'),
  })
  .meta({ id: 'StockRequestCategoryQuantities', description: 'Units asked for, approved and fulfilled in one product category.' });

export const stockRequestsByCategory = z
  .object({ categories: z.array(categoryRow), data: z.array(categoryRow) })
  .describe('`categories` and `data` hold the same rows, by category name (uncategorized last).');

export const stockRequestDashboard = z
  .object({
    total: integer,
    byStatus: z.array(z.object({ status, count: integer })).describe('Every state, in workflow order, 0 included.'),
    overdue: integer.describe('neededBy before today (UTC), and not REJECTED, FULFILLED or CANCELLED.'),
    approvedCount: integer.describe('Requests with a submission and an approval time.'),
    medianApprovalHours: z.number().nullable().describe('Median hours from submission to approval (two decimals); null when none.'),
    fulfilledCount: integer.describe('Requests moved to FULFILLED after an approval.'),
    medianFulfilmentHours: z.number().nullable().describe('Median hours from approval to the move to FULFILLED (two decimals); null when none.'),
  })
  .meta({ id: 'StockRequestDashboard', description: 'Stock requests at a glance.' });

const location = z.object({ id: z.string(), code: z.string(), name: z.string() });

export const stockRequestFilterValues = z
  .object({
    statuses: z.array(status),
    priorities: z.array(z.enum(['LOW', 'NORMAL', 'HIGH', 'URGENT'])),
    requestingLocations: z.array(location).describe('Locations that made requests, by code (at most 500).'),
    supplyingLocations: z.array(location).describe('Locations asked by requests, by code (at most 500).'),
    requesters: z
      .array(z.object({ requesterType: z.string().describe('USER or API_KEY.'), requesterId: z.string(), name: nullableString }))
      .describe('Users and API keys that created requests, by name (at most 500).'),
  })
  .meta({ id: 'StockRequestFilterValues', description: 'The values each filter of the stock-request list can take in the organization.' });

export const stockRequestPendingList = z
  .object({ requests: z.array(stockRequest), data: z.array(stockRequest), total: integer, limit: integer, offset: integer })
  .describe('`requests` and `data` hold the same requests, most urgent first, then the longest waiting.');

const stock = {
  requestingOnHand: unitTotal('Units on hand at the requesting location.'),
  requestingAvailable: unitTotal('Units available at the requesting location (on hand less reserved, held, picked, recalled and expired).'),
  supplyingOnHand: unitTotal('Units on hand at the supplying location.').nullable().describe('Null when no supplying location was named.'),
  supplyingAvailable: unitTotal('Units available at the supplying location.').nullable().describe('Null when no supplying location was named.'),
};

const requestableProduct = z
  .object({ productMasterId: z.string(), sku: z.string(), name: z.string(), categoryId: nullableString, ...stock })
  .meta({ id: 'StockRequestableProduct', description: 'A product a location may ask for, with its stock at both locations.' });

export const stockRequestProductSearch = z
  .object({
    requestingLocationId: z.string(),
    supplyingLocationId: z.string(),
    products: z.array(requestableProduct),
    data: z.array(requestableProduct),
    total: integer,
    limit: integer,
    offset: integer,
  })
  .describe('`products` and `data` hold the same products, by SKU.');

const stocklistItem = z
  .object({
    productMasterId: z.string(),
    sku: z.string(),
    name: z.string(),
    minQuantity: integer,
    reorderQuantity: integer,
    maxQuantity: integer,
    ...stock,
    suggestedQuantity: integer.describe("Units to ask for: what brings the projection back to the level's target (its maximum when set) on arrival; 0 when no recommendation."),
    action: z.enum(['ORDER', 'MOVE', 'EXPEDITE']).nullable().describe('The planning recommendation behind the suggestion (null: none).'),
    needBy: calendarDate.nullable(),
    reason: nullableString,
  })
  .meta({ id: 'StockRequestStocklistItem', description: "A product of a location's usual list." });

export const stockRequestStocklist = z
  .object({
    requestingLocationId: z.string(),
    supplyingLocationId: nullableString,
    items: z.array(stocklistItem),
    data: z.array(stocklistItem),
    total: integer,
    limit: integer,
    offset: integer,
  })
  .describe('`items` and `data` hold the same products, by SKU.');
