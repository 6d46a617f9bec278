import { binMove, locationBinsQuery } from '../../../src/contracts/transfers/bin-moves/bin-move.js';
import { defineRoutes } from '../../route.js';
import { jsonContent, responses } from '../../openapi-common.js';
import { binMoveResult, locationBins } from './bin-move-responses.js';

const tags = ['Inventory Transfers'];

export const binMoveRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/api/inventory/transfers/bins',
    operation: `query ($locationId: ID!, $productMasterId: ID) {
      locationBins(locationId: $locationId, productMasterId: $productMasterId) {
        location { id name code }
        bins { id: binId code locationId totalOnHand totalAvailable stock { stockLineId productMasterId sku productName lotId lotCode expiryDate qtyOnHand qtyAvailable } }
      }
    }`,
    input: { query: locationBinsQuery },
    variables: ({ query }) => query,
    result: ({ locationBins: report }) => ({ ...report, data: report.bins }),
    doc: {
      operationId: 'listLocationBins',
      summary: 'Bins of a location with their stock',
      description: 'Every bin of the location (by code), each with its stock lines that have units on hand and totals. A missing locationId: 400.',
      tags,
      responses: responses({ 200: { description: 'The bins', ...jsonContent(locationBins) } }, [400, 401, 403, 404]),
    },
  },
  {
    method: 'POST',
    path: '/api/inventory/transfers/bins',
    operation: `mutation ($input: BinMoveInput!) {
      moveBinStock(input: $input) { success moveId locationId productMasterId fromBinId toBinId quantity pieces { lotId quantity fromStockLineId toStockLineId } }
    }`,
    input: { body: binMove },
    variables: ({ body }) => ({ input: body }),
    result: (data) => data.moveBinStock,
    doc: {
      operationId: 'moveBinStock',
      summary: 'Move stock between two bins of a location',
      description:
        'Moves available units of a product from fromBinId to toBinId (same location), in one transaction: BIN_MOVE ledger rows out of the source ' +
        'lines and into the same lots in the destination bin (lines created when missing), all with sourceType BIN_MOVE and sourceId moveId. ' +
        'Without lotId, first-expiring lots first. More than is available in the bin: 400 INSUFFICIENT_STOCK, nothing changed. Unknown or foreign ids in the body: 400 naming the field.',
      tags,
      responses: responses({ 200: { description: 'The move', ...jsonContent(binMoveResult) } }, [400, 401, 403]),
    },
  },
]);
