import { planningRecommendationQuery } from '../../../src/contracts/planning/recommendations/planning-recommendations.js';
import { jsonContent, responses } from '../../openapi-common.js';
import { defineRoutes } from '../../route.js';
import { planningRecommendationList } from './planning-recommendations-responses.js';

export const RECOMMENDATION_FIELDS =
  'productMasterId sku productName locationId action quantity needBy orderBy sourceType supplierId sourceLocationId transferRecommendationId purchaseOrderId ' +
  'startQuantity inboundQuantity outboundQuantity minQuantity reorderQuantity maxQuantity targetQuantity projectedAtArrival reorderCrossingDate stockOutDate ' +
  'daysOfCover demandRate demandSource leadTimeDays leadTimeSource horizonDays reason';

export const planningRecommendationRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/api/planning/recommendations',
    operation: `query ($locationId: ID!) { planningRecommendations(locationId: $locationId) { ${RECOMMENDATION_FIELDS} } }`,
    input: { query: planningRecommendationQuery },
    variables: ({ query }) => query,
    result: (data) => ({ data: data.planningRecommendations }),
    doc: {
      operationId: 'listPlanningRecommendations',
      summary: 'What to order, move or expedite at a location',
      description:
        'For each product with an inventory level at the location whose projected stock (available now + open purchase orders, transfers in transit and ' +
        'approved transfer recommendations in − backorders and approved transfer recommendations out − the demand rate per day) goes below its reorder point ' +
        'within its lead time + review period: EXPEDITE an open purchase order expected after the projected stock-out, else MOVE from the location with the ' +
        'most units beyond its own cover when that covers the quantity, else ORDER from a supplier, up to the maximum. Demand: a planner\'s number, else the ' +
        'forecast of record, else 8 weeks of demand history, else ledger outflows. Most urgent first. A missing locationId: 400; one that is not the organization\'s: 404.',
      tags: ['Planning'],
      responses: responses({ 200: { description: 'The recommendations', ...jsonContent(planningRecommendationList) } }, [400, 401, 403, 404]),
    },
  },
]);
