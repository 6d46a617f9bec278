import { productCreate, productUpdate } from '../../src/contracts/products/product-input.js';
import { productListQuery } from '../../src/contracts/products/product-list.js';
import { defineRoutes } from '../route.js';
import { jsonContent, pathParam, responses } from '../openapi-common.js';
import { product, productPage } from './product-responses.js';

const PRODUCT = 'id sku name description organizationId createdAt updatedAt';

const productResponse = (description: string) => ({ description, ...jsonContent(product) });

export const productRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/api/products',
    operation: `query ($page: Int, $limit: Int, $search: String, $sku: String) {
      productsPage(page: $page, limit: $limit, search: $search, sku: $sku) { items { ${PRODUCT} } page limit total totalPages }
    }`,
    input: { query: productListQuery },
    variables: ({ query }) => ({ page: query.page, limit: query.limit, search: query.search, sku: query.sku }),
    result: ({ productsPage: { items, ...meta } }) => ({ data: items, meta }),
    doc: {
      operationId: 'listProducts',
      summary: 'List products',
      tags: ['Products'],
      responses: responses(
        {
          200: {
            description: 'A page of products, newest first',
            ...jsonContent(productPage),
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
    input: { body: productCreate },
    variables: ({ body }) => ({ input: body }),
    result: (data) => data.createProduct,
    status: 201,
    doc: {
      operationId: 'createProduct',
      summary: 'Create a product',
      tags: ['Products'],
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
    input: { body: productUpdate },
    variables: ({ params, body }) => ({ id: params.id, input: body }),
    result: (data) => data.updateProduct,
    doc: {
      operationId: 'updateProduct',
      summary: 'Update a product',
      tags: ['Products'],
      parameters: [pathParam('id', 'Product id')],
      responses: responses({ 200: productResponse('The changed product') }, [400, 401, 403, 404]),
    },
  },
]);
