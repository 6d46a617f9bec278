import { analyticsQuery } from '../../../src/contracts/inventory/analytics/analytics-query.js';
import { defineRoutes } from '../../route.js';
import { jsonContent, responses } from '../../openapi-common.js';
import { ANALYTICS_DEFINITIONS, analyticsReport } from './analytics-responses.js';

export const analyticsRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/api/inventory/analytics',
    operation: `query ($locationId: ID, $categoryId: ID, $fromDate: String, $toDate: String) {
      inventoryAnalytics(locationId: $locationId, categoryId: $categoryId, fromDate: $fromDate, toDate: $toDate) {
        analytics { totalValue totalUnits turnoverRate averageDaysOnHand slowMovingItems expiringItems inTransitUnits inTransitValue
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
      description: ANALYTICS_DEFINITIONS,
      tags: ['Inventory'],
      responses: responses(
        {
          200: {
            description: 'The figures and the period they cover',
            ...jsonContent(analyticsReport),
          },
        },
        [400, 401, 403, 404],
      ),
    },
  },
]);
