import { inventoryHoldPlace, inventoryHoldRelease } from '../../../src/contracts/inventory/holds/inventory-hold.js';
import { inventoryHoldListQuery } from '../../../src/contracts/inventory/holds/inventory-hold-queries.js';
import { defineRoutes } from '../../route.js';
import { jsonContent, responses } from '../../openapi-common.js';
import { inventoryHold, inventoryHoldList } from './holds-responses.js';

const HOLD = `id scope status stockLineId lotId productMasterId locationId reasonCode note expiresAt createdByType createdBy
  releasedAt releasedBy releaseNote createdAt updatedAt totalQuantity totalReleased totalHeld
  lines { id stockLineId productMasterId locationId lotId binId quantity releasedQuantity heldQuantity }`;

const tags = ['Inventory'];

export const holdRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/api/inventory/holds',
    operation: `query ($status: String, $locationId: ID, $productMasterId: ID, $lotId: ID, $stockLineId: ID, $limit: Int, $offset: Int) {
      inventoryHoldsPage(status: $status, locationId: $locationId, productMasterId: $productMasterId, lotId: $lotId, stockLineId: $stockLineId,
        limit: $limit, offset: $offset) { holds { ${HOLD} } total limit offset }
    }`,
    input: { query: inventoryHoldListQuery },
    variables: ({ query }) => ({ ...query, status: query.status?.join(',') }),
    result: ({ inventoryHoldsPage: page }) => ({ ...page, data: page.holds }),
    doc: {
      operationId: 'listInventoryHolds',
      summary: 'List inventory holds',
      description:
        'Newest first, with filters (status in any case and comma-separated; location, product, lot or stock line of a held line) and limit/offset ' +
        "paging (default 50, at most 100). Holds past their expiresAt are released first (RELEASE_HOLD ledger rows) and listed EXPIRED. Ids that are not the organization's: 404.",
      tags,
      responses: responses({ 200: { description: 'A page of holds', ...jsonContent(inventoryHoldList) } }, [400, 401, 403, 404]),
    },
  },
  {
    method: 'POST',
    path: '/api/inventory/holds/release',
    operation: `mutation ($input: InventoryHoldReleaseInput!) { releaseInventoryHold(input: $input) { ${HOLD} } }`,
    input: { body: inventoryHoldRelease },
    variables: ({ body }) => ({ input: body }),
    result: (data) => data.releaseInventoryHold,
    doc: {
      operationId: 'releaseInventoryHold',
      summary: 'Release all or part of an inventory hold',
      description:
        'Body {holdId, quantity?, note?}. The units go back from on hold to available (RELEASE_HOLD ledger rows, sourceType HOLD), line by line in the order ' +
        "they were held; without quantity, all of them. RELEASED once the hold holds nothing. holdId not the organization's: 400 naming it; more than it " +
        'holds: 400; a hold that is RELEASED or EXPIRED: 409 INVALID_STATE.',
      tags,
      responses: responses({ 200: { description: 'The hold after the release', ...jsonContent(inventoryHold) } }, [400, 401, 403, 409]),
    },
  },
  {
    method: 'POST',
    path: '/api/inventory/holds',
    operation: `mutation ($input: InventoryHoldPlaceInput!) { placeInventoryHold(input: $input) { ${HOLD} } }`,
    input: { body: inventoryHoldPlace },
    variables: ({ body }) => ({ input: body }),
    result: (data) => data.placeInventoryHold,
    status: 201,
    doc: {
      operationId: 'placeInventoryHold',
      summary: 'Place an inventory hold',
      description:
        'Body {scope, stockLineId | lotId (+ locationId?) | productMasterId + locationId, quantity?, reasonCode, note?, expiresAt?}. The covered stock lines are ' +
        'locked, then the units (all available ones, or quantity taken first-expiring first) move from available to on hold (HOLD ledger rows, sourceType HOLD, ' +
        "sourceId the hold). Ids that are not the organization's: 400 naming the field. Fewer available than asked, or none: 400 INSUFFICIENT_STOCK, nothing written.",
      tags,
      responses: responses({ 201: { description: 'The hold', ...jsonContent(inventoryHold) } }, [400, 401, 403]),
    },
  },
]);
