import { analyticsQuery } from '../../src/contracts/inventory/analytics-query.js';
import { defineRoutes } from '../route.js';
import { jsonContent, responses, schemaRef } from '../openapi-common.js';

const DEFINITIONS = [
  'Figures are for the caller\'s organization, limited to one location and/or one product category when given.',
  '- totalUnits: units on hand now, summed over the stock lines.',
  '- totalValue: on hand × the product\'s unitCost, summed; a product without a unitCost counts 0.',
  '- Outbound units: the negative on-hand changes in the stock ledger within the period (both ends included), ' +
    'as a positive number; lot corrections (LOT_CORRECTION) are moves inside the location and do not count.',
  '- turnoverRate: outbound units ÷ average on hand, for the period (not annualised). Average on hand is ' +
    '(on hand at `from` + on hand at `to`) ÷ 2, each reconstructed from today\'s on hand and the ledger. 0 when the average is 0. Rounded to 4 decimals.',
  '- averageDaysOnHand: days in the period ÷ turnoverRate, rounded to 2 decimals; null when turnoverRate is 0 (nothing went out).',
  '- slowMovingItems: product-location pairs with units on hand and no outbound movement in the period.',
  '- expiringItems: stock lines with units on hand whose lot expires from today (UTC) through today + 30 days; ' +
    'lots already expired are not counted. Relative to today, not to the period.',
  '- byCategory: value and units per product category, highest value first; products without a category form one entry with categoryId and categoryName null.',
].join('\n');

const category = {
  type: 'object',
  required: ['categoryId', 'categoryName', 'value', 'units'],
  properties: {
    categoryId: { type: ['string', 'null'] },
    categoryName: { type: ['string', 'null'] },
    value: { type: 'number' },
    units: { type: 'number' },
  },
};

export const analyticsSchemas = {
  InventoryAnalytics: {
    type: 'object',
    description: DEFINITIONS,
    required: ['totalValue', 'totalUnits', 'turnoverRate', 'averageDaysOnHand', 'slowMovingItems', 'expiringItems', 'byCategory'],
    properties: {
      totalValue: { type: 'number' },
      totalUnits: { type: 'number' },
      turnoverRate: { type: 'number' },
      averageDaysOnHand: { type: ['number', 'null'] },
      slowMovingItems: { type: 'integer' },
      expiringItems: { type: 'integer' },
      byCategory: { type: 'array', items: category },
    },
  },
};

export const analyticsRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/api/inventory/analytics',
    operation: `query ($locationId: ID, $categoryId: ID, $fromDate: String, $toDate: String) {
      inventoryAnalytics(locationId: $locationId, categoryId: $categoryId, fromDate: $fromDate, toDate: $toDate) {
        analytics { totalValue totalUnits turnoverRate averageDaysOnHand slowMovingItems expiringItems
          byCategory { categoryId categoryName value units } }
        period { from to }
      }
    }`,
    input: { query: analyticsQuery },
    variables: ({ query }) => query,
    result: (data) => data.inventoryAnalytics,
    doc: {
      operationId: 'getInventoryAnalytics',
      summary: 'Inventory analytics for a period',
      description: DEFINITIONS,
      tags: ['Inventory'],
      responses: responses(
        {
          200: {
            description: 'The figures and the period they cover',
            ...jsonContent({
              type: 'object',
              required: ['analytics', 'period'],
              properties: {
                analytics: schemaRef('InventoryAnalytics'),
                period: {
                  type: 'object',
                  required: ['from', 'to'],
                  properties: { from: { type: 'string', format: 'date-time' }, to: { type: 'string', format: 'date-time' } },
                },
              },
            }),
          },
        },
        [400, 401, 403, 404],
      ),
    },
  },
]);
