import { availabilityCheck } from '../../src/contracts/inventory/availability-check.js';
import { STOCK_MOVE_ACTIONS, stockMove } from '../../src/contracts/inventory/stock-move.js';
import { availabilityLineQuery, availabilityQuery, stockLineListQuery } from '../../src/contracts/inventory/stock-line-queries.js';
import { defineRoutes } from '../route.js';
import { jsonContent, nullableString, pathParam, responses, schemaRef } from '../openapi-common.js';

const LIST_ITEM = 'id productMasterId locationId quantityOnHand quantityReserved quantityAvailable lotId binId expiryDate createdAt updatedAt';
const LINE = 'id productMasterId locationId lotId binId expiryDate qtyOnHand qtyAvailable qtyReserved qtyOnHold qtyPicked qtyRecalled qtyExpired';
const TOTALS = 'totalOnHand totalAvailable totalReserved totalOnHold totalPicked totalRecalled totalExpired';
const TRANSACTION = 'id inventoryItemId transactionType bucket deltaQty qtyBefore qtyAfter reasonCodeId reasonCode comment sourceType sourceId createdBy actorType createdAt';

const integer = { type: 'integer' } as const;
const totalProperties = {
  totalOnHand: integer,
  totalAvailable: integer,
  totalReserved: { type: 'integer', description: 'Reserved over the lines (not in the published list; added).' },
  totalOnHold: integer,
  totalPicked: integer,
  totalRecalled: integer,
  totalExpired: integer,
};

export const inventorySchemas = {
  InventoryListItem: {
    type: 'object',
    description: 'A stock line in the inventory list naming. lotId, binId and expiryDate are null when the line has no lot or bin.',
    required: ['id', 'productMasterId', 'locationId', 'quantityOnHand', 'quantityReserved', 'quantityAvailable', 'lotId', 'binId', 'expiryDate', 'createdAt', 'updatedAt'],
    properties: {
      id: { type: 'string' },
      productMasterId: { type: 'string' },
      locationId: { type: 'string' },
      quantityOnHand: integer,
      quantityReserved: integer,
      quantityAvailable: { type: 'integer', description: 'On hand minus reserved, on hold, picked, recalled and expired; never below 0.' },
      lotId: nullableString,
      binId: nullableString,
      expiryDate: { type: ['string', 'null'], format: 'date' },
      createdAt: { type: 'string', format: 'date-time' },
      updatedAt: { type: 'string', format: 'date-time' },
    },
  },
  AvailabilityLine: {
    type: 'object',
    description: 'A stock line in the availability naming. qtyAvailable follows the include flags; it is 0 for a line of an expired or recalled lot that is not included.',
    required: ['id', 'productMasterId', 'locationId', 'lotId', 'binId', 'qtyOnHand', 'qtyAvailable', 'qtyOnHold', 'qtyPicked', 'qtyRecalled', 'qtyExpired'],
    properties: {
      id: { type: 'string' },
      productMasterId: { type: 'string' },
      locationId: { type: 'string' },
      lotId: nullableString,
      binId: nullableString,
      expiryDate: { type: ['string', 'null'], format: 'date' },
      qtyOnHand: integer,
      qtyAvailable: integer,
      qtyReserved: integer,
      qtyOnHold: integer,
      qtyPicked: integer,
      qtyRecalled: integer,
      qtyExpired: integer,
    },
  },
  AvailabilityTotals: { type: 'object', required: Object.keys(totalProperties), properties: totalProperties },
  AvailabilitySummary: {
    type: 'object',
    required: ['productMasterId', 'locationId', 'totalOnHand', 'totalAvailable', 'totalOnHold', 'totalPicked'],
    properties: {
      productMasterId: { type: ['string', 'null'], description: 'The product filtered on, or null.' },
      locationId: { type: ['string', 'null'], description: 'The location filtered on, or null.' },
      ...totalProperties,
      stockLines: { type: 'array', items: schemaRef('AvailabilityLine'), description: 'Only with includeStockLines=true.' },
    },
  },
  AvailabilityCheckResult: {
    type: 'object',
    required: ['sku', 'locationId', 'requestedQuantity', 'availableQuantity', 'isAvailable'],
    properties: {
      sku: { type: 'string' },
      locationId: { type: 'string', description: 'The location as the item named it (id, code or normalized form).' },
      requestedQuantity: integer,
      availableQuantity: { type: 'integer', description: '0 for an unknown SKU.' },
      isAvailable: { type: 'boolean' },
    },
  },
  StockMoveTransaction: {
    type: 'object',
    description: 'A stock ledger row written by a move.',
    properties: {
      id: { type: 'string' },
      inventoryItemId: { type: 'string' },
      transactionType: { type: 'string', enum: [...STOCK_MOVE_ACTIONS] },
      bucket: { type: 'string', enum: ['ON_HAND', 'RESERVED', 'ON_HOLD', 'PICKED', 'RECALLED', 'EXPIRED'] },
      deltaQty: integer,
      qtyBefore: integer,
      qtyAfter: integer,
      reasonCodeId: nullableString,
      reasonCode: nullableString,
      comment: nullableString,
      sourceType: nullableString,
      sourceId: nullableString,
      createdBy: { type: 'string' },
      actorType: { type: 'string', enum: ['USER', 'API_KEY'] },
      createdAt: { type: 'string', format: 'date-time' },
    },
  },
  StockMoveResponse: {
    type: 'object',
    required: ['success', 'inventoryItem', 'transactions'],
    properties: {
      success: { type: 'boolean', enum: [true] },
      inventoryItem: schemaRef('AvailabilityLine'),
      transactions: { type: 'array', items: schemaRef('StockMoveTransaction'), description: 'One row per bucket changed.' },
    },
  },
};

const lineResponse = (description: string) => ({ description, ...jsonContent(schemaRef('AvailabilityLine')) });

export const inventoryRoutes = defineRoutes([
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
            ...jsonContent({
              type: 'object',
              required: ['items', 'pagination', 'data'],
              properties: {
                items: { type: 'array', items: schemaRef('InventoryListItem') },
                pagination: {
                  type: 'object',
                  required: ['page', 'pageSize', 'total', 'totalPages'],
                  properties: { page: integer, pageSize: integer, total: integer, totalPages: integer },
                },
                data: { type: 'array', items: schemaRef('InventoryListItem'), description: 'The same list as items.' },
              },
            }),
          },
        },
        [400, 401, 403, 404],
      ),
    },
  },
  {
    method: 'GET',
    path: '/api/inventory/availability',
    operation: `query ($locationId: ID, $productMasterId: ID, $productId: ID, $lotId: ID, $binId: ID, $includeExpired: Boolean,
        $includeRecalled: Boolean, $includeOnHold: Boolean, $summary: Boolean, $includeStockLines: Boolean) {
      availability(locationId: $locationId, productMasterId: $productMasterId, productId: $productId, lotId: $lotId, binId: $binId,
          includeExpired: $includeExpired, includeRecalled: $includeRecalled, includeOnHold: $includeOnHold, summary: $summary,
          includeStockLines: $includeStockLines) {
        type count totals { ${TOTALS} } lines { ${LINE} }
        summary { productMasterId locationId ${TOTALS} stockLines { ${LINE} } }
      }
    }`,
    input: { query: availabilityQuery },
    variables: ({ query }) => query,
    result: ({ availability: { type, count, totals, lines, summary } }) => {
      if (type === 'stockLines') return { type, count, totals, data: lines };
      const { stockLines, ...rest } = summary;
      return { type, data: stockLines ? { ...rest, stockLines } : rest };
    },
    doc: {
      operationId: 'getAvailability',
      summary: 'Availability to promise',
      description:
        'Available = on hand − reserved − picked − on hold − recalled − expired, never below 0 (on hold, recalled and expired units count ' +
        'when their include flag is true). Lines of lots that expired before today or are recalled are left out unless includeExpired / ' +
        'includeRecalled. At least one of productMasterId (or productId), locationId, lotId, binId is required (400 otherwise); a named ' +
        'product, location, lot or bin that is not the organization\'s is 404. productId is a deprecated alias of productMasterId: 400 when ' +
        'both are given and differ.',
      tags: ['Inventory'],
      responses: responses(
        {
          200: {
            description: 'Stock lines with totals, or the summary',
            ...jsonContent({
              oneOf: [
                {
                  type: 'object',
                  required: ['type', 'count', 'totals', 'data'],
                  properties: {
                    type: { type: 'string', enum: ['stockLines'] },
                    count: integer,
                    totals: schemaRef('AvailabilityTotals'),
                    data: { type: 'array', items: schemaRef('AvailabilityLine') },
                  },
                },
                {
                  type: 'object',
                  required: ['type', 'data'],
                  properties: { type: { type: 'string', enum: ['summary'] }, data: schemaRef('AvailabilitySummary') },
                },
              ],
            }),
          },
        },
        [400, 401, 403, 404],
      ),
    },
  },
  {
    method: 'POST',
    path: '/api/inventory/availability/check',
    operation: `query ($input: AvailabilityCheckInput!) {
      checkAvailability(input: $input) { sku locationId requestedQuantity availableQuantity isAvailable }
    }`,
    input: { body: availabilityCheck },
    variables: ({ body }) => ({ input: body }),
    result: ({ checkAvailability }) => ({ results: checkAvailability }),
    doc: {
      operationId: 'checkAvailability',
      summary: 'Check availability of many SKUs',
      description:
        'For each item, whether the SKU at the location has at least the quantity available (lines of expired or recalled lots do not count). ' +
        'An item names its location by id, code or normalized form <organizationId>-<locationId> (as imports do). An unknown SKU gives availableQuantity 0 ' +
        'and isAvailable false without failing the batch; a location that is not the organization\'s refuses the batch with 400 VALIDATION_ERROR and ' +
        'details["items.N.locationId"] for each such item (the stock of a location the caller got wrong is not 0). Items are independent: ' +
        'two items for the same SKU and location are each compared with the same stock. 1 to 1000 items.',
      tags: ['Inventory'],
      responses: responses(
        {
          200: {
            description: 'One result per item, in request order',
            ...jsonContent({ type: 'object', required: ['results'], properties: { results: { type: 'array', items: schemaRef('AvailabilityCheckResult') } } }),
          },
        },
        [400, 401, 403],
      ),
    },
  },
  {
    method: 'GET',
    path: '/api/inventory/availability/:id',
    operation: `query ($id: ID!, $includeExpired: Boolean, $includeRecalled: Boolean, $includeOnHold: Boolean) {
      availabilityLine(id: $id, includeExpired: $includeExpired, includeRecalled: $includeRecalled, includeOnHold: $includeOnHold) { ${LINE} }
    }`,
    input: { query: availabilityLineQuery },
    variables: ({ params, query }) => ({ id: params.id, ...query }),
    result: (data) => data.availabilityLine,
    doc: {
      operationId: 'getStockLineAvailability',
      summary: 'Availability of one stock line',
      tags: ['Inventory'],
      parameters: [pathParam('id', 'Stock line (inventory item) id')],
      responses: responses({ 200: lineResponse('The stock line') }, [400, 401, 403, 404]),
    },
  },
  {
    method: 'POST',
    path: '/api/inventory/availability/:id',
    operation: `mutation ($id: ID!, $input: StockMoveInput!) {
      moveStock(id: $id, input: $input) { success inventoryItem { ${LINE} } transactions { ${TRANSACTION} } }
    }`,
    input: { body: stockMove },
    variables: ({ params, body }) => ({ id: params.id, input: body }),
    result: (data) => data.moveStock,
    doc: {
      operationId: 'moveStock',
      summary: 'Move quantity between the buckets of a stock line',
      description:
        'Reserve, release, pick, unpick, hold, release a hold, recall, release a recall or expire `quantity` units of one line, atomically: ' +
        'the quantities change and one ledger row per changed bucket is written, or nothing happens. Moves into reserved, on hold, recalled ' +
        'or expired take from available; moves out of a bucket need that much in it; otherwise 400 INSUFFICIENT_STOCK. RESERVE and PICK are ' +
        'refused for a line of an expired or recalled lot. On hand never changes here (shipping picked stock is not part of this endpoint).',
      tags: ['Inventory'],
      parameters: [pathParam('id', 'Stock line (inventory item) id')],
      responses: responses({ 200: { description: 'The line after the move and its ledger rows', ...jsonContent(schemaRef('StockMoveResponse')) } }, [400, 401, 403, 404]),
    },
  },
]);
