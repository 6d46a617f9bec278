import { stockLineListQuery } from '../../../src/contracts/inventory/stock-lines/stock-line-queries.js';
import { defineRoutes } from '../../route.js';
import { jsonContent, responses } from '../../openapi-common.js';
import { stockLinePage } from './stock-lines-responses.js';

const LIST_ITEM = 'id productMasterId locationId quantityOnHand quantityReserved quantityAvailable lotId binId expiryDate createdAt updatedAt';

export const stockLineRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/api/inventory',
    operation: `query ($locationId: ID, $productMasterId: ID, $lotId: ID, $binId: ID, $search: String, $page: Int, $limit: Int) {
      stockLinesPage(locationId: $locationId, productMasterId: $productMasterId, lotId: $lotId, binId: $binId, search: $search, page: $page, limit: $limit) {
        items { ${LIST_ITEM} } page pageSize total totalPages
      }
    }`,
    input: { query: stockLineListQuery },
    variables: ({ query: { q, ...filters } }) => ({ ...filters, search: q }),
    // Both documented shapes in one body: `items` + `pagination` (reference) and `data` (machine-readable).
    result: ({ stockLinesPage: { items, ...pagination } }) => ({ items, pagination, data: items }),
    doc: {
      operationId: 'listStockLines',
      summary: 'List stock lines (inventory items)',
      description:
        'Stock lines of the organization in id (creation) order. The two published variants are served together: `items` with ' +
        '`pagination` and `data` hold the same page. limit defaults to 20 (reference variant) and accepts up to 200 (machine-readable variant).',
      tags: ['Inventory'],
      responses: responses(
        {
          200: {
            description: 'A page of stock lines',
            ...jsonContent(stockLinePage),
          },
        },
        [400, 401, 403, 404],
      ),
    },
  },
]);
