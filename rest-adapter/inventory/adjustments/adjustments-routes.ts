import { ledgerPageQuery } from '../../../src/contracts/inventory/history/ledger-query.js';
import { lotCorrection } from '../../../src/contracts/inventory/adjustments/lot-correction.js';
import { stockAdjustment, stockDeltaAdjustment } from '../../../src/contracts/inventory/adjustments/stock-adjustment.js';
import { defineRoutes } from '../../route.js';
import type { z } from 'zod';
import { jsonContent, responses } from '../../openapi-common.js';
import { adjustmentResult, ledgerHistory, lotCorrectionResult, reasonCodeList } from './adjustments-responses.js';

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
]);
