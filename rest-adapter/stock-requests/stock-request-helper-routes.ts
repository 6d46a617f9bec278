import { stockRequestProductSearchQuery, stockRequestStocklistQuery } from '../../src/contracts/stock-requests/stock-request-products.js';
import { stockRequestCategoryQuery, stockRequestDashboardQuery, stockRequestPendingQuery } from '../../src/contracts/stock-requests/stock-request-queries.js';
import { jsonContent, responses } from '../openapi-common.js';
import { defineRoutes } from '../route.js';
import {
  stockRequestDashboard,
  stockRequestFilterValues,
  stockRequestPendingList,
  stockRequestProductSearch,
  stockRequestsByCategory,
  stockRequestStocklist,
} from './stock-request-helper-responses.js';
import { REQUEST } from './stock-request-routes.js';

const tags = ['Stock Requests'];
const STOCK = 'requestingOnHand requestingAvailable supplyingOnHand supplyingAvailable';
const FILTER_VARIABLES = '$status: String, $priority: String, $requestingLocationId: ID, $supplyingLocationId: ID, $requesterId: ID, $from: Date, $to: Date, $search: String';
const FILTER_ARGS = 'status: $status, priority: $priority, requestingLocationId: $requestingLocationId, supplyingLocationId: $supplyingLocationId, requesterId: $requesterId, from: $from, to: $to, search: $search';

/** Static paths under /api/stock-requests: the area lists them before /{id}, so `by-category` is never taken for an id. */
export const stockRequestHelperRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/api/stock-requests/by-category',
    operation: `query (${FILTER_VARIABLES}) {
      stockRequestsByCategory(${FILTER_ARGS}) { categoryId categoryName requestCount lineCount quantityRequested quantityApproved quantityFulfilled }
    }`,
    input: { query: stockRequestCategoryQuery },
    variables: ({ query }) => ({ ...query, status: query.status?.join(','), priority: query.priority?.join(',') }),
    result: ({ stockRequestsByCategory: rows }) => ({ categories: rows, data: rows }),
    doc: {
      operationId: 'stockRequestsByCategory',
      summary: 'Requested, approved and fulfilled units by product category',
      description:
        "Over the lines of the requests matching the list's filters (status, priority, requestingLocationId, supplyingLocationId, requesterId, from/to on the " +
        'creation day, search): per category of the product, by name, products without a category (or deleted since) in one last row with a null category; at most ' +
        "1000 categories. Locations that are not the organization's: 404.",
      tags,
      responses: responses({ 200: { description: 'Units by category', ...jsonContent(stockRequestsByCategory) } }, [400, 401, 403, 404]),
    },
  },
  {
    method: 'GET',
    path: '/api/stock-requests/dashboard',
    operation: `query ($locationId: ID, $from: Date, $to: Date) {
      stockRequestDashboard(locationId: $locationId, from: $from, to: $to) {
        total byStatus { status count } overdue approvedCount medianApprovalHours fulfilledCount medianFulfilmentHours
      }
    }`,
    input: { query: stockRequestDashboardQuery },
    variables: ({ query }) => query,
    result: (data) => data.stockRequestDashboard,
    doc: {
      operationId: 'stockRequestDashboard',
      summary: 'Stock requests at a glance',
      description:
        'Counts by state (every state, 0 included), overdue (neededBy before today, UTC, and not REJECTED, FULFILLED or CANCELLED), and the median hours from ' +
        'submission to approval and from approval to fulfilment (null when there is none), over the requests made by or to locationId if given and created ' +
        "between from and to (days, UTC, both included; at most 3660 days apart) if given. A location that is not the organization's: 404.",
      tags,
      responses: responses({ 200: { description: 'The dashboard', ...jsonContent(stockRequestDashboard) } }, [400, 401, 403, 404]),
    },
  },
  {
    method: 'GET',
    path: '/api/stock-requests/filters',
    operation: `query {
      stockRequestFilterValues { statuses priorities requestingLocations { id code name } supplyingLocations { id code name } requesters { requesterType requesterId name } }
    }`,
    result: (data) => data.stockRequestFilterValues,
    doc: {
      operationId: 'stockRequestFilterValues',
      summary: 'The values each list filter can take',
      description: 'Every status and priority, and the requesting and supplying locations (by code) and requesters (by name) the organization\'s requests name, at most 500 of each.',
      tags,
      responses: responses({ 200: { description: 'The filter values', ...jsonContent(stockRequestFilterValues) } }, [400, 401, 403]),
    },
  },
  {
    method: 'GET',
    path: '/api/stock-requests/pending-approvals',
    operation: `query ($requestingLocationId: ID, $supplyingLocationId: ID, $limit: Int, $offset: Int) {
      stockRequestsPendingApprovalPage(requestingLocationId: $requestingLocationId, supplyingLocationId: $supplyingLocationId, limit: $limit, offset: $offset) {
        requests { ${REQUEST} } total limit offset
      }
    }`,
    input: { query: stockRequestPendingQuery },
    variables: ({ query }) => query,
    result: ({ stockRequestsPendingApprovalPage: page }) => ({ ...page, data: page.requests }),
    doc: {
      operationId: 'listStockRequestsPendingApproval',
      summary: 'Stock requests the caller may approve',
      description:
        'SUBMITTED requests (stockrequests.approve): every one for a tenant administrator (an ADMIN user or an API key with the * scope), else those of other ' +
        'requesters, the rule of POST /{id}/approve. Most urgent first, then the longest waiting; filters requestingLocationId and supplyingLocationId (404 when not ' +
        "the organization's); limit/offset paging (default 50, at most 100).",
      tags,
      responses: responses({ 200: { description: 'A page of requests', ...jsonContent(stockRequestPendingList) } }, [400, 401, 403, 404]),
    },
  },
  {
    method: 'GET',
    path: '/api/stock-requests/products/search',
    operation: `query ($requestingLocationId: ID!, $supplyingLocationId: ID!, $search: String, $limit: Int, $offset: Int) {
      stockRequestProductSearch(requestingLocationId: $requestingLocationId, supplyingLocationId: $supplyingLocationId, search: $search, limit: $limit, offset: $offset) {
        requestingLocationId supplyingLocationId products { productMasterId sku name categoryId ${STOCK} } total limit offset
      }
    }`,
    input: { query: stockRequestProductSearchQuery },
    variables: ({ query }) => query,
    result: ({ stockRequestProductSearch: page }) => ({ ...page, data: page.products }),
    doc: {
      operationId: 'searchStockRequestProducts',
      summary: 'Products a location may ask for, with stock',
      description:
        'Needs stockrequests.read and products.read. Every product of the organization (products have no active flag), by SKU, those whose SKU or name contains ' +
        'search (any case), with units on hand and available at requestingLocationId and supplyingLocationId (both required; 404 when not the organization\'s); ' +
        'limit/offset paging (default 20, at most 100).',
      tags,
      responses: responses({ 200: { description: 'A page of products', ...jsonContent(stockRequestProductSearch) } }, [400, 401, 403, 404]),
    },
  },
  {
    method: 'GET',
    path: '/api/stock-requests/products/stocklist',
    operation: `query ($requestingLocationId: ID!, $supplyingLocationId: ID, $limit: Int, $offset: Int) {
      stockRequestStocklist(requestingLocationId: $requestingLocationId, supplyingLocationId: $supplyingLocationId, limit: $limit, offset: $offset) {
        requestingLocationId supplyingLocationId total limit offset
        items { productMasterId sku name minQuantity reorderQuantity maxQuantity ${STOCK} suggestedQuantity action needBy reason }
      }
    }`,
    input: { query: stockRequestStocklistQuery },
    variables: ({ query }) => query,
    result: ({ stockRequestStocklist: page }) => ({ ...page, data: page.items }),
    doc: {
      operationId: 'stockRequestStocklist',
      summary: "A location's usual list, with suggested quantities",
      description:
        'The products with an inventory level at requestingLocationId (required), by SKU, with their levels, units on hand and available there (and at ' +
        'supplyingLocationId when given), and suggestedQuantity from the planning recommendations of the location (GET /api/planning/recommendations): what brings ' +
        "the projected stock back to the level's target (its maximum when it has one) on arrival; 0 when the projection stays above the reorder point within the " +
        "lead time and review period. Locations that are not the organization's: 404. limit/offset paging (default 100, at most 200).",
      tags,
      responses: responses({ 200: { description: 'A page of the list', ...jsonContent(stockRequestStocklist) } }, [400, 401, 403, 404]),
    },
  },
]);
