import { MAX_DECIMAL } from '../../src/kernel/input-limits.js';
import { defineRoutes, intParam, stringParam } from '../route.js';

const SKU_RULE = 'Unique within the organization whatever its case; stored trimmed in Unicode NFC; control and invisible characters (zero-width space, BOM, soft hyphen) are refused.';
import { jsonContent, pathParam, queryParam, responses, schemaRef } from '../openapi-common.js';

const PRODUCT = 'id sku name description organizationId createdAt updatedAt';

export const productSchemas = {
  Product: {
    type: 'object',
    required: ['id', 'sku', 'name', 'organizationId', 'createdAt', 'updatedAt'],
    properties: {
      id: { type: 'string' },
      sku: { type: 'string' },
      name: { type: 'string' },
      description: { type: ['string', 'null'] },
      organizationId: { type: 'string' },
      createdAt: { type: 'string', format: 'date-time' },
      updatedAt: { type: 'string', format: 'date-time' },
    },
  },
  ProductCreate: {
    type: 'object',
    required: ['sku', 'name'],
    additionalProperties: false,
    properties: {
      sku: { type: 'string', minLength: 1, maxLength: 100, description: SKU_RULE },
      name: { type: 'string', minLength: 1, maxLength: 300 },
      description: { type: ['string', 'null'], maxLength: 5000 },
      unitCost: { type: ['number', 'null'], minimum: 0, maximum: MAX_DECIMAL, description: 'Cost of one unit, used to value stock (stored with 4 decimals).' },
      categoryId: { type: ['string', 'null'] },
    },
  },
  ProductUpdate: {
    type: 'object',
    additionalProperties: false,
    description: 'Absent fields stay as they are; null clears description, unitCost or categoryId.',
    properties: {
      sku: { type: 'string', minLength: 1, maxLength: 100, description: SKU_RULE },
      name: { type: 'string', minLength: 1, maxLength: 300 },
      description: { type: ['string', 'null'], maxLength: 5000 },
      unitCost: { type: ['number', 'null'], minimum: 0, maximum: MAX_DECIMAL },
      categoryId: { type: ['string', 'null'] },
    },
  },
};

const productResponse = (description: string) => ({ description, ...jsonContent(schemaRef('Product')) });

export const productRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/api/products',
    operation: `query ($page: Int, $limit: Int, $search: String) {
      productsPage(page: $page, limit: $limit, search: $search) { items { ${PRODUCT} } page limit total totalPages }
    }`,
    variables: ({ query }) => ({ page: intParam(query.page), limit: intParam(query.limit), search: stringParam(query.search) }),
    result: ({ productsPage: { items, ...meta } }) => ({ data: items, meta }),
    doc: {
      operationId: 'listProducts',
      summary: 'List products',
      tags: ['Products'],
      parameters: [
        queryParam('page', 'Page number', { type: 'integer', minimum: 1, default: 1 }),
        queryParam('limit', 'Page size', { type: 'integer', minimum: 1, maximum: 100, default: 50 }),
        queryParam('search', 'Case-insensitive match on SKU or name'),
      ],
      responses: responses(
        {
          200: {
            description: 'A page of products, newest first',
            ...jsonContent({
              type: 'object',
              properties: { data: { type: 'array', items: schemaRef('Product') }, meta: schemaRef('Pagination') },
            }),
          },
        },
        [400, 401, 403],
      ),
    },
  },
  {
    method: 'POST',
    path: '/api/products',
    operation: `mutation ($input: ProductCreateInput!) { createProduct(input: $input) { ${PRODUCT} } }`,
    variables: ({ body }) => ({ input: body }),
    result: (data) => data.createProduct,
    status: 201,
    doc: {
      operationId: 'createProduct',
      summary: 'Create a product',
      tags: ['Products'],
      requestBody: { required: true, ...jsonContent(schemaRef('ProductCreate')) },
      responses: responses({ 201: productResponse('The new product') }, [400, 401, 403]),
    },
  },
  {
    method: 'GET',
    path: '/api/products/:id',
    operation: `query ($id: ID!) { product(id: $id) { ${PRODUCT} } }`,
    variables: ({ params }) => ({ id: params.id }),
    result: (data) => data.product,
    doc: {
      operationId: 'getProduct',
      summary: 'Get a product',
      tags: ['Products'],
      parameters: [pathParam('id', 'Product id')],
      responses: responses({ 200: productResponse('The product') }, [401, 403, 404]),
    },
  },
  {
    method: 'PATCH',
    path: '/api/products/:id',
    operation: `mutation ($id: ID!, $input: ProductUpdateInput!) { updateProduct(id: $id, input: $input) { ${PRODUCT} } }`,
    variables: ({ params, body }) => ({ id: params.id, input: body }),
    result: (data) => data.updateProduct,
    doc: {
      operationId: 'updateProduct',
      summary: 'Update a product',
      tags: ['Products'],
      parameters: [pathParam('id', 'Product id')],
      requestBody: { required: true, ...jsonContent(schemaRef('ProductUpdate')) },
      responses: responses({ 200: productResponse('The changed product') }, [400, 401, 403, 404]),
    },
  },
]);
