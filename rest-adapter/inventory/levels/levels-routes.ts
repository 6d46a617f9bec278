import { inventoryLevelUpdate, inventoryLevelUpsert } from '../../../src/contracts/inventory/levels/inventory-level.js';
import { defineRoutes } from '../../route.js';
import { jsonContent, pathParam, responses } from '../../openapi-common.js';
import { inventoryLevel, levelDeleted, productLevels } from './levels-responses.js';

const LEVEL = `id productMasterId locationId minQuantity reorderQuantity maxQuantity status abcClass
  expectedLeadTimeDays replenishmentPeriodDays forecastPeriodDays forecastQuantity preferredBinLocationId
  replenishmentLocationId comments createdAt updatedAt product { id sku name } productMaster { id globalSku productName }`;

const levelResponse = (description: string) => ({ description, ...jsonContent(inventoryLevel) });

export const inventoryLevelRoutes = defineRoutes([
  {
    method: 'POST',
    path: '/api/inventory-levels',
    operation: `mutation ($input: InventoryLevelInput!) { upsertInventoryLevel(input: $input) { ${LEVEL} } }`,
    input: { body: inventoryLevelUpsert },
    variables: ({ body }) => ({ input: body }),
    result: (data) => data.upsertInventoryLevel,
    doc: {
      operationId: 'upsertInventoryLevel',
      summary: 'Create or update the inventory level of a product at a location',
      tags: ['Inventory'],
      responses: responses(
        { 200: levelResponse('The level as stored (the same id when it already existed)') },
        [400, 401, 403, 404],
      ),
    },
  },
  {
    method: 'PATCH',
    path: '/api/inventory-levels/:id',
    operation: `mutation ($id: ID!, $input: InventoryLevelUpdateInput!) { updateInventoryLevel(id: $id, input: $input) { ${LEVEL} } }`,
    input: { body: inventoryLevelUpdate },
    variables: ({ params, body }) => ({ id: params.id, input: body }),
    result: (data) => data.updateInventoryLevel,
    doc: {
      operationId: 'updateInventoryLevel',
      summary: 'Update an inventory level',
      tags: ['Inventory'],
      parameters: [pathParam('id', 'Inventory level id')],
      responses: responses({ 200: levelResponse('The changed level') }, [400, 401, 403, 404]),
    },
  },
  {
    method: 'DELETE',
    path: '/api/inventory-levels/:id',
    operation: 'mutation ($id: ID!) { deleteInventoryLevel(id: $id) { success message } }',
    variables: ({ params }) => ({ id: params.id }),
    result: (data) => data.deleteInventoryLevel,
    doc: {
      operationId: 'deleteInventoryLevel',
      summary: 'Delete an inventory level',
      tags: ['Inventory'],
      parameters: [pathParam('id', 'Inventory level id')],
      responses: responses(
        { 200: { description: 'Deleted', ...jsonContent(levelDeleted) } },
        [401, 403, 404],
      ),
    },
  },
  {
    method: 'GET',
    path: '/api/products/:id/inventory-levels',
    operation: `query ($id: ID!) { productInventoryLevels(productId: $id) { ${LEVEL} location { id code name } } }`,
    variables: ({ params }) => ({ id: params.id }),
    result: (data) => ({ data: data.productInventoryLevels }),
    doc: {
      operationId: 'listProductInventoryLevels',
      summary: 'Inventory levels of a product',
      description: 'The levels of the product at every location of the organization. Needs both products.read and inventory.read.',
      tags: ['Inventory', 'Products'],
      parameters: [pathParam('id', 'Product id')],
      responses: responses(
        {
          200: {
            description: 'The product’s levels',
            ...jsonContent(productLevels),
          },
        },
        [401, 403, 404],
      ),
    },
  },
]);
