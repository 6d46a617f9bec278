import { expiredStockAction, expiredStockDestruction, expiredStockQuery } from '../../../src/contracts/inventory/expired-stock/expired-stock.js';
import { defineRoutes } from '../../route.js';
import { jsonContent, responses } from '../../openapi-common.js';
import { expiredStock, expiredStockActionResult, expiredStockDestructionResult } from './expired-stock-responses.js';

const LINE = 'stockLineId lotId lotCode expiryDate quantity qtyOnHand qtyExpired';
const ACTION_RULES =
  'Name `lines` (stock line and optional quantity, 1 to 500) or `lotId` and/or `locationId` (every line with units on hand whose lot has expired); ' +
  'optional `reasonCodeId` (default EXPIRED) and `note`. A named line whose lot has not expired (before today, UTC) is refused with 400 naming ' +
  '`lines.N.stockLineId`, unless `force: true` from an ADMIN user or a key with the * scope (anyone else: 403 FORBIDDEN). Unknown or foreign ' +
  'ids: 400 naming the field. All or nothing: a refused request changes nothing.';

const action = (path: string, field: string, operationId: string, summary: string, what: string) => ({
  method: 'POST' as const,
  path,
  operation: `mutation ($input: ExpiredStockActionInput!) { ${field}(input: $input) { success action totalQuantity lines { ${LINE} } } }`,
  input: { body: expiredStockAction },
  variables: ({ body }: { body: unknown }) => ({ input: body }),
  result: (data: any) => data[field],
  doc: {
    operationId,
    summary,
    description: `${what} ${ACTION_RULES}`,
    tags: ['Inventory'],
    responses: responses({ 200: { description: 'The lines changed', ...jsonContent(expiredStockActionResult) } }, [400, 401, 403]),
  },
});

export const expiredStockRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/api/inventory/expired',
    operation: `query ($asOf: Date, $locationId: ID, $productMasterId: ID, $lotId: ID, $minDaysExpired: Int, $limit: Int, $offset: Int) {
      expiredStock(asOf: $asOf, locationId: $locationId, productMasterId: $productMasterId, lotId: $lotId, minDaysExpired: $minDaysExpired, limit: $limit, offset: $offset) {
        asOf total totalUnits totalExpiredUnits totalValue limit offset
        lines { stockLineId productMasterId sku locationId lotId lotCode binId expiryDate daysExpired qtyOnHand qtyExpired qtyAvailable unitCost value }
      }
    }`,
    input: { query: expiredStockQuery },
    variables: ({ query }) => query,
    result: ({ expiredStock: e }) => ({
      asOf: e.asOf,
      data: e.lines,
      totals: { lines: e.total, units: e.totalUnits, expiredUnits: e.totalExpiredUnits, value: e.totalValue },
      pagination: { limit: e.limit, offset: e.offset, total: e.total, hasMore: e.offset + e.lines.length < e.total },
    }),
    doc: {
      operationId: 'listExpiredStock',
      summary: 'Expired stock',
      description:
        'Stock lines with units on hand whose lot expired before `asOf` (default today, UTC), oldest expiry first, filtered by location, product, lot ' +
        'and `minDaysExpired`; totals over every matching line in units and value (on hand × the product\'s unitCost; none counts 0). ' +
        `A filter id that is not the organization's is 404. \`limit\` default 100, at most 500.`,
      tags: ['Inventory'],
      responses: responses({ 200: { description: 'A page of expired lines with totals', ...jsonContent(expiredStock) } }, [400, 401, 403, 404]),
    },
  },
  action('/api/inventory/expired/mark-expired', 'markExpired', 'markExpiredStock', 'Mark expired stock', 'Moves available units of expired lots into expired (`qtyExpired`): one EXPIRE ledger row per line.'),
  action(
    '/api/inventory/expired/mark-consumed',
    'markExpiredConsumed',
    'consumeExpiredStock',
    'Write expired stock off as used',
    'Takes units off on hand as used (the expired units first, then available ones): CONSUME ledger rows on on hand and expired.',
  ),
  {
    method: 'POST',
    path: '/api/inventory/expired/transfer-destruction',
    operation: `mutation ($input: ExpiredStockDestructionInput!) {
      destroyExpiredStock(input: $input) {
        success action totalQuantity destinationLocationId documentNumber lines { ${LINE} }
        transfers { transferId reference sourceLocationId destLocationId status stockLineIds totalQuantity }
      }
    }`,
    input: { body: expiredStockDestruction },
    variables: ({ body }) => ({ input: body }),
    result: (data: any) => data.destroyExpiredStock,
    doc: {
      operationId: 'destroyExpiredStock',
      summary: 'Send expired stock for destruction',
      description:
        'With `destinationLocationId` (a location of the organization other than the lines\'): an inventory transfer per source location, created and shipped at once ' +
        '(IN_TRANSIT, sourceType DESTRUCTION, reference `documentNumber` when given), carrying each line\'s units (expired ones first, then available) with their lot and bin ' +
        '(TRANSFER_OUT rows with the reason); received at the destination with `POST /api/inventory/transfers/{id}` (action receive), where the units arrive as expired. ' +
        'Without it: a write-off under `documentNumber` (required then; 400 naming it): DESTROY rows on on hand and expired, sourceType DESTRUCTION, sourceId the document number. ' +
        `${ACTION_RULES} A filter leaves out lines already at the destination; a named one there is 400 naming \`destinationLocationId\`.`,
      tags: ['Inventory'],
      responses: responses({ 200: { description: 'The lines sent for destruction, and the transfers or the document', ...jsonContent(expiredStockDestructionResult) } }, [400, 401, 403]),
    },
  },
]);
