import { lotValidation, lotValidationQuery } from '../../../src/contracts/inventory/lot-control/lot-validation.js';
import { defineRoutes, type RouteSpec } from '../../route.js';
import { jsonContent, responses } from '../../openapi-common.js';
import { lotValidationResult } from './lot-control-responses.js';

const OPERATION = `query ($input: LotValidationInput!) {
  validateLots(input: $input) {
    productMasterId locationId requestedQuantity minShelfLifeDays minShelfLifeSource pickableQuantity allocatedQuantity canFulfill shortfall
    lines { stockLineId lotId lotCode binId expiryDate daysToExpiry qtyAvailable qtyToPick pickable refusal { code message } }
  }
}`;

const DESCRIPTION =
  'Which lots a pick of `quantity` units of the product at the location may take, first expiry first out (lines without expiry last), ' +
  'optionally only from one lot (lotId or lotCode) or bin. Every line is listed with the units a pick would take from it, or its refusal: ' +
  'EXPIRED, RECALLED, SHORT_DATED (fewer days of shelf life left than the product\'s minShelfLifeDays, else the organization\'s, else 0), ' +
  'ON_HOLD or NO_AVAILABLE_UNITS. canFulfill and shortfall say whether the quantity can be met. The answer comes from the reservations ' +
  'service that picks, in a transaction that writes nothing. A product, location, lot or bin that is not the organization\'s is 400 naming the field.';

const doc = (operationId: string, summary: string) => ({
  operationId,
  summary,
  description: DESCRIPTION,
  tags: ['Inventory'],
  responses: responses({ 200: { description: 'The lines in pick order and whether the quantity can be met', ...jsonContent(lotValidationResult) } }, [400, 401, 403]),
});

const result: RouteSpec['result'] = (data) => data.validateLots;

export const lotControlRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/api/inventory/lot-control/validate',
    operation: OPERATION,
    input: { query: lotValidationQuery },
    variables: ({ query }) => ({ input: Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined)) }),
    result,
    doc: doc('getLotPickValidation', 'Which lots may be picked (query)'),
  },
  {
    method: 'POST',
    path: '/api/inventory/lot-control/validate',
    operation: OPERATION,
    input: { body: lotValidation },
    variables: ({ body }) => ({ input: body }),
    result,
    doc: doc('validateLotPick', 'Which lots may be picked'),
  },
]);
