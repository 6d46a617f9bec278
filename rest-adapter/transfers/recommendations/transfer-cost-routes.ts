import { transferCostInput, transferCostQuery } from '../../../src/contracts/transfers/recommendations/recommendations.js';
import { jsonContent, responses } from '../../openapi-common.js';
import { defineRoutes } from '../../route.js';
import { transferCostList, transferCostResponse } from './recommendation-responses.js';

const COST = 'id sourceLocationId destLocationId costPerUnit createdAt updatedAt';
const transfers = { tags: ['Transfers'] };

export const transferCostRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/api/transfers/costs',
    operation: `query ($sourceLocationId: ID, $destLocationId: ID) { transferCosts(sourceLocationId: $sourceLocationId, destLocationId: $destLocationId) { costs { ${COST} } defaultCostPerUnit } }`,
    input: { query: transferCostQuery },
    variables: ({ query }) => query,
    result: ({ transferCosts }) => ({ costs: transferCosts.costs, data: transferCosts.costs, defaultCostPerUnit: transferCosts.defaultCostPerUnit }),
    doc: {
      operationId: 'listTransferCosts',
      summary: 'Transfer costs per location pair',
      description: 'The cost per unit set for each direction of a location pair, and defaultCostPerUnit, what every other pair costs. A filter location not of the organization: 404.',
      ...transfers,
      responses: responses({ 200: { description: 'The costs', ...jsonContent(transferCostList) } }, [400, 401, 403, 404]),
    },
  },
  {
    method: 'PUT',
    path: '/api/transfers/costs',
    operation: `mutation ($input: TransferCostInput!) { setTransferCost(input: $input) { ${COST} } }`,
    input: { body: transferCostInput },
    variables: ({ body }) => ({ input: body }),
    result: ({ setTransferCost }) => setTransferCost,
    doc: {
      operationId: 'setTransferCost',
      summary: 'Set the transfer cost of a location pair',
      description:
        'Creates or replaces the cost per unit of moving stock from sourceLocationId to destLocationId (that direction only), used by the estimatedROI of recommendations ' +
        'generated afterwards. Locations not of the organization: 400 naming them.',
      ...transfers,
      responses: responses({ 200: { description: 'The cost as stored', ...jsonContent(transferCostResponse) } }, [400, 401, 403]),
    },
  },
]);
