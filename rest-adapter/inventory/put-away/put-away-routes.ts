import { putAwayConfirm, putAwayTaskQuery } from '../../../src/contracts/inventory/put-away/put-away.js';
import { defineRoutes } from '../../route.js';
import { jsonContent, responses } from '../../openapi-common.js';
import { putAwayConfirmation, putAwayTaskList } from './put-away-responses.js';

const tags = ['Inventory'];

const TASK = 'stockLineId locationId productMasterId sku productName lotId lotCode expiryDate qtyOnHand qtyToPutAway suggestedBinId suggestedBinCode suggestionRule';

export const putAwayRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/api/inventory/put-away',
    operation: `query ($locationId: ID!, $productMasterId: ID, $lotId: ID, $limit: Int, $offset: Int) {
      putAwayTasksPage(locationId: $locationId, productMasterId: $productMasterId, lotId: $lotId, limit: $limit, offset: $offset) { tasks { ${TASK} } total limit offset }
    }`,
    input: { query: putAwayTaskQuery },
    variables: ({ query }) => query,
    result: ({ putAwayTasksPage: page }) => ({ ...page, data: page.tasks }),
    doc: {
      operationId: 'listPutAwayTasks',
      summary: 'Stock waiting to be put away, with suggested bins',
      description:
        'Stock lines of the location without a bin that have units available to move (lots expired or recalled excluded), by SKU then lot expiry, ' +
        "each with a suggested bin: the inventory level's preferred bin when it is a bin of the location, else the first bin by code holding the product " +
        'and lot, else the product, else the first empty bin (suggestionRule says which). Filters productMasterId, lotId; limit/offset paging (default 50, at most 200). ' +
        "A missing locationId: 400; ids that are not the organization's: 404.",
      tags,
      responses: responses({ 200: { description: 'A page of put-away tasks', ...jsonContent(putAwayTaskList) } }, [400, 401, 403, 404]),
    },
  },
  {
    method: 'POST',
    path: '/api/inventory/put-away',
    operation: `mutation ($input: PutAwayConfirmInput!) {
      confirmPutAway(input: $input) { putAwayId locationId lines { stockLineId productMasterId lotId binId quantity toStockLineId } }
    }`,
    input: { body: putAwayConfirm },
    variables: ({ body }) => ({ input: body }),
    result: (data) => data.confirmPutAway,
    doc: {
      operationId: 'confirmPutAway',
      summary: 'Confirm a put-away into bins',
      description:
        'Body {locationId, lines: [{stockLineId, quantity, binId? | binCode?}], comment?}. Each line moves units of an un-binned stock line of the location ' +
        'into a bin of the location (by id, by code, or else the suggested bin), partial quantities allowed, all lines or none, in one transaction: PUT_AWAY ledger rows ' +
        'out of the un-binned line and into the bin line of the same lot (created when missing), sourceType PUT_AWAY, sourceId putAwayId. More than a line has ' +
        "available: 400 INSUFFICIENT_STOCK naming lines.N.quantity; a bin of another location, or ids that are not the organization's: 400 naming the field; nothing changed.",
      tags,
      responses: responses({ 200: { description: 'The put-away', ...jsonContent(putAwayConfirmation) } }, [400, 401, 403]),
    },
  },
]);
