import { inventorySummaryQuery } from '../../../src/contracts/dashboard/inventory-summary/inventory-summary-query.js';
import { defineRoutes } from '../../route.js';
import { jsonContent, responses } from '../../openapi-common.js';
import { INVENTORY_SUMMARY_DEFINITIONS, inventorySummaryBody } from './inventory-summary-responses.js';

export const inventorySummaryRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/api/dashboard/widgets/inventory-summary',
    operation: `query ($locationId: ID!, $asOf: DateTime) {
      inventorySummary(locationId: $locationId, asOf: $asOf) {
        locationId asOf onHand available reserved onHold picked recalled expired inTransit value inTransitValue
        productsBelowMin productsAboveMax productsOutOfStock lotsExpiringSoon unitsExpiringSoon expiringWithinDays
        computedFrom { method snapshotId snapshotAt ledgerRows }
      }
    }`,
    input: { query: inventorySummaryQuery },
    variables: ({ query }) => query,
    result: (data) => data.inventorySummary,
    doc: {
      operationId: 'getInventorySummaryWidget',
      summary: 'Inventory summary of a location, now or as of a moment',
      description:
        `${INVENTORY_SUMMARY_DEFINITIONS}\n` +
        "A missing locationId, an asOf that is not a date-time with a time zone, in the future or more than the bound ago: 400 naming it; a location that is not the organization's: 404.",
      tags: ['Dashboard'],
      responses: responses({ 200: { description: 'The summary', ...jsonContent(inventorySummaryBody) } }, [400, 401, 403, 404]),
    },
  },
]);
