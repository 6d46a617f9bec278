import { countSheetQuery } from '../../../src/contracts/inventory/receiving/count-sheet-query.js';
import { recordCountBody, recordStockBody } from '../../../src/contracts/inventory/receiving/stock-batch.js';
import { defineRoutes } from '../../route.js';
import type { z } from 'zod';
import { jsonContent, responses } from '../../openapi-common.js';
import { countSheet, recordCountResult, recordStockResult } from './receiving-responses.js';

const LINE = 'id: stockLineId productMasterId locationId lotId lotCode binId binCode expiryDate qtyOnHand qtyAvailable qtyOnHold qtyPicked qtyRecalled qtyExpired qtyReserved';
const ENTRY = `id inventoryItemId productMasterId locationId transactionType bucket deltaQty qtyBefore qtyAfter reasonCodeId reasonCode
  comment rootCause createdAt createdBy actorType sourceType sourceId`;

const inventory = { tags: ['Inventory'] };
const ok = (description: string, schema: z.ZodType) => ({ 200: { description, ...jsonContent(schema) } });

export const receivingRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/api/inventory/adjustments/record-stock',
    operation: `query ($locationId: ID, $productMasterId: ID, $limit: Int, $offset: Int) {
      countSheetPage(locationId: $locationId, productMasterId: $productMasterId, limit: $limit, offset: $offset) {
        locationId location { id code name } total limit offset hasMore
        lines { id productMasterId product { sku name } lotId lot { code } expiryDate binId bin { code } qtyOnHand qtyAvailable }
      }
    }`,
    input: { query: countSheetQuery },
    variables: ({ query }) => query,
    result: ({ countSheetPage: { locationId, location, lines, total, limit, offset, hasMore } }) => ({
      locationId,
      location,
      lines: lines.map((l: any) => ({
        inventoryItemId: l.id,
        productMasterId: l.productMasterId,
        sku: l.product.sku,
        productName: l.product.name,
        lotId: l.lotId,
        lotCode: l.lot?.code ?? null,
        expiryDate: l.expiryDate,
        binId: l.binId,
        binCode: l.bin?.code ?? null,
        qtyOnHand: l.qtyOnHand,
        qtyAvailable: l.qtyAvailable,
      })),
      total,
      pagination: { limit, offset, hasMore, total },
    }),
    doc: {
      operationId: 'getCountSheet',
      summary: 'Count sheet of a location',
      description:
        'The stock lines at a location with their current on hand, by SKU, lot code and bin code, for a counter to fill in and ' +
        'send back with POST /inventory/adjustments/record-stock. Without locationId: 400 "locationId is required"; an unknown or ' +
        'foreign location: 404.',
      ...inventory,
      responses: responses(ok('The count sheet', countSheet), [400, 401, 403, 404]),
    },
  },
  {
    method: 'POST',
    path: '/api/inventory/adjustments/record-stock',
    operation: `mutation ($input: RecordCountInput!) {
      recordCount(input: $input) { lines { ${LINE} } transactions { ${ENTRY} } counted changed }
    }`,
    input: { body: recordCountBody },
    variables: ({ body }) => ({ input: body }),
    result: (data) => data.recordCount,
    doc: {
      operationId: 'recordCount',
      summary: 'Record counted stock',
      description:
        `Sets the on hand of up to 1000 stock lines to counted quantities, creating lots, bins and lines as needed; one COUNT ledger ` +
        'row per line whose on hand changed (a count equal to on hand writes none). Each line is locked before its on hand is read, so ' +
        'the recorded change is exact under concurrent changes. All or nothing: any bad line answers 400 with details per line ' +
        '(for example lines.3.productMasterId for an unknown or foreign product) and nothing is written. More than 1000 lines: 400 details.lines.',
      ...inventory,
      responses: responses(ok('The counted lines after the batch', recordCountResult), [400, 401, 403]),
    },
  },
  {
    method: 'POST',
    path: '/api/inventory/record-stock',
    operation: `mutation ($input: RecordStockInput!) { recordStock(input: $input) { lines { ${LINE} } } }`,
    input: { body: recordStockBody },
    variables: ({ body }) => ({ input: body }),
    result: (data) => data.recordStock,
    doc: {
      operationId: 'recordStock',
      summary: 'Record received stock',
      description:
        'Adds each line\'s received quantity to its stock line (product, location, lot, bin), creating lots (with expiryDate), bins and ' +
        'lines as needed; one RECEIPT ledger row per line. All or nothing in one transaction: any bad line answers 400 with details per ' +
        'line (for example lines.3.productMasterId for an unknown or foreign product) and nothing is written. More than 1000 lines: 400 details.lines.',
      ...inventory,
      responses: responses(ok('The stock lines after the batch', recordStockResult), [400, 401, 403]),
    },
  },
]);
