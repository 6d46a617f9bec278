import { inventoryTransferAction, inventoryTransferCreate } from '../../../src/contracts/transfers/inventory-transfers/inventory-transfer.js';
import { inTransitQuery, inventoryTransferListQuery } from '../../../src/contracts/transfers/inventory-transfers/inventory-transfer-queries.js';
import { defineRoutes } from '../../route.js';
import { jsonContent, pathParam, responses } from '../../openapi-common.js';
import { inTransitReport, inventoryTransfer, inventoryTransferList } from './inventory-transfer-responses.js';

const TRANSFER = `id sourceLocationId destLocationId status reference notes expectedAt sourceType sourceId createdByType createdBy
  shippedAt shippedBy receivedAt cancelledAt cancelledBy createdAt updatedAt totalQuantity totalShipped totalReceived
  lines { id lineNumber productMasterId quantity lotId binId destBinId shippedQuantity receivedQuantity inTransitQuantity
    lots { id sourceStockLineId lotId lotCode expiryDate binId quantity receivedQuantity returnedQuantity } }`;

const tags = ['Inventory Transfers'];
const transferBody = (description: string) => ({ description, ...jsonContent(inventoryTransfer) });

export const inventoryTransferRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/api/inventory/transfers/in-transit',
    operation: `query ($locationId: ID, $productMasterId: ID) {
      inventoryInTransit(locationId: $locationId, productMasterId: $productMasterId) { inTransit { productMasterId locationId inbound outbound } totalInbound totalOutbound }
    }`,
    input: { query: inTransitQuery },
    variables: ({ query }) => query,
    result: ({ inventoryInTransit: report }) => ({ ...report, data: report.inTransit }),
    doc: {
      operationId: 'listInTransitStock',
      summary: 'Stock in transit per location and product',
      description:
        'Units shipped by IN_TRANSIT transfers and not yet received: `inbound` at the destination, `outbound` at the source. ' +
        'They are in neither location\'s on hand; inventory analytics reports them as inTransitUnits.',
      tags,
      responses: responses({ 200: { description: 'In-transit stock', ...jsonContent(inTransitReport) } }, [400, 401, 403, 404]),
    },
  },
  {
    method: 'GET',
    path: '/api/inventory/transfers',
    operation: `query ($status: String, $sourceLocationId: ID, $destLocationId: ID, $locationId: ID, $productMasterId: ID,
      $createdFrom: DateTime, $createdTo: DateTime, $shippedFrom: DateTime, $shippedTo: DateTime, $limit: Int, $offset: Int) {
      inventoryTransfersPage(status: $status, sourceLocationId: $sourceLocationId, destLocationId: $destLocationId, locationId: $locationId,
        productMasterId: $productMasterId, createdFrom: $createdFrom, createdTo: $createdTo, shippedFrom: $shippedFrom, shippedTo: $shippedTo,
        limit: $limit, offset: $offset) { transfers { ${TRANSFER} } total limit offset }
    }`,
    input: { query: inventoryTransferListQuery },
    variables: ({ query }) => ({ ...query, status: query.status?.join(',') }),
    result: ({ inventoryTransfersPage: page }) => ({ ...page, data: page.transfers }),
    doc: {
      operationId: 'listInventoryTransfers',
      summary: 'List inventory transfers',
      description:
        'Newest first, with filters (status in any case and comma-separated, source, destination, either location, product, created and shipped ranges) ' +
        'and limit/offset paging (default 50, at most 100). Ids that are not the organization\'s: 404.',
      tags,
      responses: responses({ 200: { description: 'A page of transfers', ...jsonContent(inventoryTransferList) } }, [400, 401, 403, 404]),
    },
  },
  {
    method: 'POST',
    path: '/api/inventory/transfers',
    operation: `mutation ($input: InventoryTransferCreateInput!) { createInventoryTransfer(input: $input) { ${TRANSFER} } }`,
    input: { body: inventoryTransferCreate },
    variables: ({ body }) => ({ input: body }),
    result: (data) => data.createInventoryTransfer,
    status: 201,
    doc: {
      operationId: 'createInventoryTransfer',
      summary: 'Create an inventory transfer (DRAFT)',
      description:
        'A DRAFT transfer from sourceLocationId to destLocationId with lines {productMasterId, quantity, lotId?, binId?, destBinId?}; no stock moves until ' +
        'it is shipped. Locations, products, lots or bins that are not the organization\'s, a lot of another product or a bin at the wrong location: 400 naming the field (`destLocationId`, `lines.0.lotId`).',
      tags,
      responses: responses({ 201: transferBody('The transfer') }, [400, 401, 403]),
    },
  },
  {
    method: 'GET',
    path: '/api/inventory/transfers/:id',
    operation: `query ($id: ID!) { inventoryTransfer(id: $id) { ${TRANSFER} } }`,
    variables: ({ params }) => ({ id: params.id }),
    result: (data) => data.inventoryTransfer,
    doc: {
      operationId: 'getInventoryTransfer',
      summary: 'Get an inventory transfer with its lines',
      tags,
      parameters: [pathParam('id', 'Transfer id')],
      responses: responses({ 200: transferBody('The transfer, with shipped and received quantities and the lots shipped per line') }, [401, 403, 404]),
    },
  },
  {
    method: 'POST',
    path: '/api/inventory/transfers/:id',
    operation: `mutation ($id: ID!, $input: InventoryTransferActionInput!) { inventoryTransferAction(id: $id, input: $input) { ${TRANSFER} } }`,
    input: { body: inventoryTransferAction },
    variables: ({ params, body }) => {
      const { action, comment, ...rest } = body as { action: 'ship' | 'receive' | 'cancel' | 'update'; comment?: string | null };
      if (action === 'receive') return { id: params.id, input: { action, receipt: { ...rest, comment } } };
      if (action === 'update') return { id: params.id, input: { action, changes: rest } };
      return { id: params.id, input: { action, comment } };
    },
    result: (data) => data.inventoryTransferAction,
    doc: {
      operationId: 'actOnInventoryTransfer',
      summary: 'Ship, receive, cancel or update an inventory transfer',
      description:
        'Body {action, ...}. `ship` (DRAFT → IN_TRANSIT): every line leaves the source through the ledger (TRANSFER_OUT, sourceType TRANSFER, sourceId the ' +
        'transfer), from the lot/bin named or first-expiring lots first, all or nothing; 400 INSUFFICIENT_STOCK with details per line when short. ' +
        '`receive` {lines?: [{lineId, quantity, destBinId?}], comment?} (IN_TRANSIT): adds the units to the destination\'s stock lines of the same lot ' +
        '(TRANSFER_IN), partial receipts allowed, RECEIVED once every shipped unit is in; more than is in transit: 400. Without lines: everything in transit. ' +
        '`cancel` (DRAFT or IN_TRANSIT): units in transit go back to the source lines they left (TRANSFER_IN). `update` {sourceLocationId?, destLocationId?, ' +
        'lines?, reference?, notes?, expectedAt?} (DRAFT only; lines replace all). A move the state does not allow: 409 INVALID_STATE.',
      tags,
      parameters: [pathParam('id', 'Transfer id')],
      responses: responses({ 200: transferBody('The transfer after the action') }, [400, 401, 403, 404, 409]),
    },
  },
]);
