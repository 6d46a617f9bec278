import { countSheetQuery } from '../../../src/contracts/inventory/receiving/count-sheet-query.js';
import { ledgerPageQuery } from '../../../src/contracts/inventory/history/ledger-query.js';
import { lotCorrection } from '../../../src/contracts/inventory/adjustments/lot-correction.js';
import { recordCountBody, recordStockBody } from '../../../src/contracts/inventory/receiving/stock-batch.js';
import { stockAdjustment, stockDeltaAdjustment } from '../../../src/contracts/inventory/adjustments/stock-adjustment.js';
import { defineRoutes } from '../../route.js';
import type { z } from 'zod';
import { jsonContent, responses } from '../../openapi-common.js';
import { adjustmentResult, countSheet, ledgerHistory, lotCorrectionResult, reasonCodeList, recordCountResult, recordStockResult } from './adjustments-responses.js';

const LINE = 'id: stockLineId productMasterId locationId lotId lotCode binId binCode expiryDate qtyOnHand qtyAvailable qtyOnHold qtyPicked qtyRecalled qtyExpired qtyReserved';
const ENTRY = `id inventoryItemId productMasterId locationId transactionType bucket deltaQty qtyBefore qtyAfter reasonCodeId reasonCode
  comment rootCause createdAt createdBy actorType sourceType sourceId`;
const ADJUSTMENT = `success message transaction { ${ENTRY} } inventoryItem { ${LINE} }`;

const inventory = { tags: ['Inventory'] };
const ok = (description: string, schema: z.ZodType) => ({ 200: { description, ...jsonContent(schema) } });

const adjustmentErrors =
  '400 VALIDATION_ERROR with details (missing or invalid field, unknown or inactive reason code, reason direction, rootCause, no change) ' +
  'or INSUFFICIENT_STOCK (on hand would drop below what is reserved, on hold, picked, recalled or expired); an unknown or foreign inventoryItemId is 400 with details.inventoryItemId (an id in the body). ' +
  'A failed adjustment writes nothing.';

export const adjustmentRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/api/inventory/adjustments/reason-codes',
    operation: `query { reasonCodes { id code name direction } }`,
    result: ({ reasonCodes }) => ({ reasonCodes, data: reasonCodes }),
    doc: {
      operationId: 'listReasonCodes',
      summary: 'List adjustment reason codes',
      description: 'Active reason codes of the organization, by code. `reasonCodes` and `data` hold the same list.',
      ...inventory,
      responses: responses(
        {
          200: {
            description: 'The reason codes',
            ...jsonContent(reasonCodeList),
          },
        },
        [401, 403],
      ),
    },
  },
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
    path: '/api/inventory/adjustments/lot-correction',
    operation: `mutation ($input: LotCorrectionInput!) {
      correctLot(input: $input) { success message fromInventoryItem { ${LINE} } toInventoryItem { ${LINE} } transactions { ${ENTRY} } }
    }`,
    input: { body: lotCorrection },
    variables: ({ body }) => ({ input: body }),
    result: (data) => data.correctLot,
    doc: {
      operationId: 'correctLot',
      summary: 'Move quantity between lots',
      description:
        'Moves quantity from the source stock line to the line of another lot of the same product at the same location and bin ' +
        '(created when missing): two LOT_CORRECTION ledger rows in one transaction. 400 INSUFFICIENT_STOCK when the source has less available; ' +
        'an unknown or foreign inventoryItemId or toLotId is 400 VALIDATION_ERROR with details naming it.',
      ...inventory,
      responses: responses(ok('Both lines after the move', lotCorrectionResult), [400, 401, 403]),
    },
  },
  {
    method: 'GET',
    path: '/api/inventory/adjustments',
    operation: `query ($inventoryItemId: ID, $productMasterId: ID, $locationId: ID, $startDate: String, $endDate: String,
      $bucket: StockBucketFilter, $transactionType: String, $limit: Int, $offset: Int) {
      stockTransactionHistory(inventoryItemId: $inventoryItemId, productMasterId: $productMasterId, locationId: $locationId,
        startDate: $startDate, endDate: $endDate, bucket: $bucket, transactionType: $transactionType, limit: $limit, offset: $offset) {
        entries { ${ENTRY} } total limit offset hasMore page pageSize totalPages
      }
    }`,
    input: { query: ledgerPageQuery },
    variables: ({ query }) => query,
    result: ({ stockTransactionHistory: { entries, total, ...pagination } }) => ({ entries, total, pagination: { ...pagination, total } }),
    doc: {
      operationId: 'listStockLedger',
      summary: 'Stock ledger history',
      description:
        'Ledger rows of the organization, newest first: by default every change of on hand (ADJUSTMENT, RECEIPT, COUNT, ' +
        'LOT_CORRECTION and the on-hand rows of other documents); `bucket` selects another quantity or ALL. A stock line, product or ' +
        "location filter that is not the organization's is 404. pagination carries both shapes of the interface (limit/offset/hasMore and page/pageSize/total/totalPages).",
      ...inventory,
      responses: responses(ok('A page of ledger rows', ledgerHistory), [400, 401, 403, 404]),
    },
  },
  {
    method: 'POST',
    path: '/api/inventory/adjustments',
    operation: `mutation ($input: StockAdjustmentInput!) { adjustStock(input: $input) { ${ADJUSTMENT} } }`,
    input: { body: stockAdjustment },
    variables: ({ body }) => ({ input: body }),
    result: (data) => data.adjustStock,
    doc: {
      operationId: 'adjustStock',
      summary: 'Adjust on hand to a new quantity',
      description: `Sets on hand of a stock line to newQtyOnHand and writes one ADJUSTMENT ledger row. ${adjustmentErrors}`,
      ...inventory,
      responses: responses(ok('The adjustment', adjustmentResult), [400, 401, 403]),
    },
  },
  {
    method: 'POST',
    path: '/api/inventory/adjust',
    operation: `mutation ($input: StockDeltaAdjustmentInput!) { adjustStockBy(input: $input) { ${ADJUSTMENT} } }`,
    input: { body: stockDeltaAdjustment },
    variables: ({ body }) => ({ input: body }),
    result: (data) => data.adjustStockBy,
    doc: {
      operationId: 'adjustStockBy',
      summary: 'Adjust on hand by a signed amount',
      description: `Adds the signed delta to on hand of a stock line and writes one ADJUSTMENT ledger row (same rules and answer as POST /inventory/adjustments). ${adjustmentErrors}`,
      ...inventory,
      responses: responses(ok('The adjustment', adjustmentResult), [400, 401, 403]),
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
