import { INVARIANT, inventoryLevelUpdate, inventoryLevelUpsert } from '../../src/contracts/inventory/inventory-level.js';
import { defineRoutes } from '../route.js';
import { jsonContent, pathParam, responses, schemaRef } from '../openapi-common.js';

const LEVEL = `id productMasterId locationId minQuantity reorderQuantity maxQuantity status abcClass
  expectedLeadTimeDays replenishmentPeriodDays forecastPeriodDays forecastQuantity preferredBinLocationId
  replenishmentLocationId comments createdAt updatedAt product { id sku name } productMaster { id globalSku productName }`;

const levelProperties = {
  id: { type: 'string' },
  productMasterId: { type: 'string' },
  locationId: { type: 'string' },
  minQuantity: { type: 'integer' },
  reorderQuantity: { type: 'integer' },
  maxQuantity: { type: 'integer' },
  status: { type: 'string' },
  abcClass: { type: ['string', 'null'], enum: ['A', 'B', 'C', null] },
  expectedLeadTimeDays: { type: ['integer', 'null'] },
  replenishmentPeriodDays: { type: ['integer', 'null'] },
  forecastPeriodDays: { type: ['integer', 'null'] },
  forecastQuantity: { type: ['number', 'null'] },
  preferredBinLocationId: { type: ['string', 'null'] },
  replenishmentLocationId: { type: ['string', 'null'] },
  comments: { type: ['string', 'null'] },
  createdAt: { type: 'string', format: 'date-time' },
  updatedAt: { type: 'string', format: 'date-time' },
  product: { type: 'object', properties: { id: { type: 'string' }, sku: { type: 'string' }, name: { type: 'string' } } },
  productMaster: {
    type: 'object',
    properties: { id: { type: 'string' }, globalSku: { type: 'string' }, productName: { type: 'string' } },
  },
};

export const inventoryLevelSchemas = {
  InventoryLevel: {
    type: 'object',
    description: `Planning parameters of a product at a location. ${INVARIANT}`,
    required: Object.keys(levelProperties),
    properties: levelProperties,
  },
  InventoryLevelWithLocation: {
    type: 'object',
    description: 'An inventory level with its location.',
    required: [...Object.keys(levelProperties), 'location'],
    properties: {
      ...levelProperties,
      location: { type: 'object', properties: { id: { type: 'string' }, code: { type: 'string' }, name: { type: 'string' } } },
    },
  },
  InventoryLevelDeleteResult: {
    type: 'object',
    required: ['success', 'message'],
    properties: { success: { type: 'boolean' }, message: { type: 'string', examples: ['Inventory level deleted'] } },
  },
};

const levelResponse = (description: string) => ({ description, ...jsonContent(schemaRef('InventoryLevel')) });

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
        { 200: { description: 'Deleted', ...jsonContent(schemaRef('InventoryLevelDeleteResult')) } },
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
            ...jsonContent({
              type: 'object',
              required: ['data'],
              properties: { data: { type: 'array', items: schemaRef('InventoryLevelWithLocation') } },
            }),
          },
        },
        [401, 403, 404],
      ),
    },
  },
]);
