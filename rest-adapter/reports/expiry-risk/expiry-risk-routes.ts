import { expiryRiskQuery } from '../../../src/contracts/reports/expiry-risk/expiry-risk-query.js';
import { jsonContent, responses } from '../../openapi-common.js';
import { defineRoutes } from '../../route.js';
import { expiryRiskList } from './expiry-risk-responses.js';

const ITEM =
  'lotId lotCode productMasterId sku productName locationId expiryDate daysLeft quantity reserved onHold recalled unitCost value demandPerDay demandSource expectedToSell atRiskUnits atRiskValue';

export const expiryRiskRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/api/reports/expiry-risk',
    operation: `query ($locationId: ID!, $from: Date, $to: Date) { expiryRisk(locationId: $locationId, from: $from, to: $to) { ${ITEM} } }`,
    input: { query: expiryRiskQuery },
    variables: ({ query }) => query,
    result: (data) => ({ data: data.expiryRisk }),
    doc: {
      operationId: 'expiryRiskReport',
      summary: 'Lots expiring in a window and the value that will not sell in time',
      description:
        'Lots of the location expiring from `from` (default today, UTC) through `to` (default 90 days later, at most 3660 days after from), each with the units expected to sell ' +
        'before the expiry date and the units and value at risk. Demand per day is the planning one (a planner\'s number on the inventory level, else the forecast of record, ' +
        'else 8 weeks of demand history, else 56 days of ledger outflows), served first expiry first out across the product\'s lots; reserved and picked units count as selling, ' +
        'held and recalled ones do not. Largest value at risk first; at most 2,000 lots. Permission reports.read. A missing locationId or a bad window: 400; a location that is not the organization\'s: 404.',
      tags: ['Reports'],
      responses: responses({ 200: { description: 'The lots at risk', ...jsonContent(expiryRiskList) } }, [400, 401, 403, 404]),
    },
  },
]);
