import { availabilityCheck } from '../../../src/contracts/inventory/availability/availability-check.js';
import { stockMove } from '../../../src/contracts/inventory/availability/stock-move.js';
import { availabilityLineQuery, availabilityQuery } from '../../../src/contracts/inventory/availability/availability-queries.js';
import { defineRoutes } from '../../route.js';
import { jsonContent, pathParam, responses } from '../../openapi-common.js';
import { availability, availabilityCheckResults, availabilityLine, stockMoveResult } from './availability-responses.js';

const LINE = 'id: stockLineId productMasterId locationId lotId binId expiryDate qtyOnHand qtyAvailable qtyReserved qtyOnHold qtyPicked qtyRecalled qtyExpired';
const TOTALS = 'totalOnHand totalAvailable totalReserved totalOnHold totalPicked totalRecalled totalExpired';
const TRANSACTION = 'id inventoryItemId transactionType bucket deltaQty qtyBefore qtyAfter reasonCodeId reasonCode comment sourceType sourceId createdBy actorType createdAt';

const lineResponse = (description: string) => ({ description, ...jsonContent(availabilityLine) });

export const availabilityRoutes = defineRoutes([
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
            ...jsonContent(availability),
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
            ...jsonContent(availabilityCheckResults),
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
      responses: responses({ 200: { description: 'The line after the move and its ledger rows', ...jsonContent(stockMoveResult) } }, [400, 401, 403, 404]),
    },
  },
]);
