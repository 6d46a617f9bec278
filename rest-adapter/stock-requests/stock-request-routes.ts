import { stockRequestHistoryQuery, stockRequestListQuery } from '../../src/contracts/stock-requests/stock-request-queries.js';
import {
  stockRequestApproval,
  stockRequestChanges,
  stockRequestCommentBody,
  stockRequestCreate,
  stockRequestLinesBody,
  stockRequestNote,
  stockRequestRejection,
  stockRequestStatusBody,
} from '../../src/contracts/stock-requests/stock-requests.js';
import { jsonContent, pathParam, responses } from '../openapi-common.js';
import { defineRoutes, type RouteSpec } from '../route.js';
import { stockRequest, stockRequestEvent, stockRequestHistory, stockRequestLines, stockRequestList } from './stock-request-responses.js';

const LINE = 'id productMasterId quantityRequested quantityApproved quantityFulfilled quantityReserved quantityReceived unit createdAt updatedAt';
/** The fields of a request every answer carries (the helper routes' too). */
export const REQUEST = `id number reference requestingLocationId supplyingLocationId neededBy priority reason status requesterType requesterId submittedAt
  approvedAt approvedBy rejectedAt rejectedBy rejectionReason cancelledAt cancelledBy remainderClosedAt remainderClosedBy createdAt updatedAt lines { ${LINE} }`;
const EVENT = 'id kind fromStatus toStatus note transferId actorType actorId createdAt';

const tags = ['Stock Requests'];
const idParam = [pathParam('id', 'Stock request id')];
const requestBody = (description: string) => ({ description, ...jsonContent(stockRequest) });
const MOVE_REFUSALS = [400, 401, 403, 404, 409] as const;

/** A POST /{id}/<move> route running the mutation of that move with `{ input: { id, ...body } }`. */
export const moveRoute = (path: string, mutation: string, inputType: string, body: RouteSpec['input'], doc: { operationId: string; summary: string; description: string }): RouteSpec => ({
  method: 'POST',
  path: `/api/stock-requests/:id/${path}`,
  operation: `mutation ($input: ${inputType}!) { ${mutation}(input: $input) { ${REQUEST} } }`,
  input: body,
  variables: ({ params, body }) => ({ input: { ...(body as object), id: params.id } }),
  result: (data) => data[mutation],
  doc: { ...doc, tags, parameters: idParam, responses: responses({ 200: requestBody('The request after the move') }, [...MOVE_REFUSALS]) },
});

export const stockRequestRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/api/stock-requests',
    operation: `query ($status: String, $priority: String, $requestingLocationId: ID, $supplyingLocationId: ID, $requesterId: ID, $from: Date, $to: Date, $search: String,
      $limit: Int, $offset: Int) {
      stockRequestsPage(status: $status, priority: $priority, requestingLocationId: $requestingLocationId, supplyingLocationId: $supplyingLocationId,
        requesterId: $requesterId, from: $from, to: $to, search: $search, limit: $limit, offset: $offset) { requests { ${REQUEST} } total limit offset }
    }`,
    input: { query: stockRequestListQuery },
    variables: ({ query }) => ({ ...query, status: query.status?.join(','), priority: query.priority?.join(',') }),
    result: ({ stockRequestsPage: page }) => ({ ...page, data: page.requests }),
    doc: {
      operationId: 'listStockRequests',
      summary: 'List stock requests',
      description:
        'Newest first, with filters status and priority (any case, comma-separated), requestingLocationId, supplyingLocationId, requesterId, from/to (the creation ' +
        'day, UTC, both included; at most 3660 days apart) and search (the reason, or the number as 12 or SR-000012) and limit/offset paging (default 50, at most 100). ' +
        "Locations that are not the organization's: 404.",
      tags,
      responses: responses({ 200: { description: 'A page of stock requests', ...jsonContent(stockRequestList) } }, [400, 401, 403, 404]),
    },
  },
  {
    method: 'POST',
    path: '/api/stock-requests',
    operation: `mutation ($input: StockRequestCreateInput!) { createStockRequest(input: $input) { ${REQUEST} } }`,
    input: { body: stockRequestCreate },
    variables: ({ body }) => ({ input: body }),
    result: (data) => data.createStockRequest,
    status: 201,
    doc: {
      operationId: 'createStockRequest',
      summary: 'Create a stock request (DRAFT)',
      description:
        'Body {requestingLocationId, supplyingLocationId (another location), neededBy (YYYY-MM-DD), priority? LOW|NORMAL|HIGH|URGENT (default NORMAL), reason? (up to 1000), ' +
        'lines: [{productMasterId, quantityRequested (> 0), unit? (up to 50)}] (1-200, each product once)}. The caller is the requester; the request is numbered in the ' +
        "organization. Unknown fields: 400; locations or products that are not the organization's: 404.",
      tags,
      responses: responses({ 201: requestBody('The DRAFT request') }, [400, 401, 403, 404]),
    },
  },
  {
    method: 'GET',
    path: '/api/stock-requests/:id',
    operation: `query ($id: ID!) { stockRequest(id: $id) { ${REQUEST} } }`,
    variables: ({ params }) => ({ id: params.id }),
    result: (data) => data.stockRequest,
    doc: { operationId: 'getStockRequest', summary: 'Get a stock request with its lines', tags, parameters: idParam, responses: responses({ 200: requestBody('The request') }, [401, 403, 404]) },
  },
  {
    method: 'PATCH',
    path: '/api/stock-requests/:id',
    operation: `mutation ($input: StockRequestUpdateInput!) { updateStockRequest(input: $input) { ${REQUEST} } }`,
    input: { body: stockRequestChanges },
    variables: ({ params, body }) => ({ input: { ...(body as object), id: params.id } }),
    result: (data) => data.updateStockRequest,
    doc: {
      operationId: 'updateStockRequest',
      summary: 'Change a DRAFT stock request',
      description: 'Body: any of the fields of the creation; lines given replace all. Any state but DRAFT: 409 INVALID_STATE naming the state, nothing changed.',
      tags,
      parameters: idParam,
      responses: responses({ 200: requestBody('The request') }, [...MOVE_REFUSALS]),
    },
  },
  {
    method: 'DELETE',
    path: '/api/stock-requests/:id',
    operation: `mutation ($id: ID!) { deleteStockRequest(id: $id) { ${REQUEST} } }`,
    variables: ({ params }) => ({ id: params.id }),
    result: (data) => data.deleteStockRequest,
    doc: {
      operationId: 'deleteStockRequest',
      summary: 'Delete a DRAFT stock request',
      description: 'Removes the request with its lines and history and answers it as it was. Any state but DRAFT: 409 INVALID_STATE (cancel it instead with POST /{id}/status).',
      tags,
      parameters: idParam,
      responses: responses({ 200: requestBody('The deleted request') }, [401, 403, 404, 409]),
    },
  },
  moveRoute('submit', 'submitStockRequest', 'StockRequestMoveInput', { body: stockRequestNote }, {
    operationId: 'submitStockRequest',
    summary: 'Submit a stock request (DRAFT → SUBMITTED)',
    description: 'Body {note?}. Any other state: 409 INVALID_STATE naming the state.',
  }),
  moveRoute('approve', 'approveStockRequest', 'StockRequestApproveInput', { body: stockRequestApproval }, {
    operationId: 'approveStockRequest',
    summary: 'Approve a stock request (SUBMITTED → APPROVED)',
    description:
      'Body {note?, lines?: [{productMasterId, quantityApproved (0 to the quantity requested)}]}: the lines named get that approved quantity, the others keep the one set ' +
      'earlier (POST /{id}/lines) or get the quantity requested. The requester may not approve their own request unless a tenant administrator (an ADMIN user or an ' +
      'API key with the * scope): 403. A product with no line on the request: 404. Any state but SUBMITTED: 409 INVALID_STATE.',
  }),
  moveRoute('reject', 'rejectStockRequest', 'StockRequestRejectInput', { body: stockRequestRejection }, {
    operationId: 'rejectStockRequest',
    summary: 'Reject a stock request (SUBMITTED → REJECTED)',
    description: 'Body {reason} (required, up to 1000 characters), kept on the request and in its history. Any state but SUBMITTED: 409 INVALID_STATE.',
  }),
  moveRoute('rollback', 'rollbackStockRequest', 'StockRequestMoveInput', { body: stockRequestNote }, {
    operationId: 'rollbackStockRequest',
    summary: 'Roll a stock request back one step',
    description:
      'Body {note?}. APPROVED → SUBMITTED undoes the approval (approvedAt and approvedBy cleared, the reservation released; approved quantities kept as the proposal). ' +
      'SUBMITTED → DRAFT undoes the submission (submittedAt and every approved quantity cleared). Only before any fulfilment; any other state: 409 INVALID_STATE.',
  }),
  {
    method: 'POST',
    path: '/api/stock-requests/:id/comment',
    operation: `mutation ($input: StockRequestCommentInput!) { commentOnStockRequest(input: $input) { ${EVENT} } }`,
    input: { body: stockRequestCommentBody },
    variables: ({ params, body }) => ({ input: { ...(body as object), id: params.id } }),
    result: (data) => data.commentOnStockRequest,
    status: 201,
    doc: {
      operationId: 'commentOnStockRequest',
      summary: "Comment on a stock request",
      description: "Body {note} (required, up to 2000 characters), added to the request's history in any state; answers the entry. Once the history holds 1000 entries: 409.",
      tags,
      parameters: idParam,
      responses: responses({ 201: { description: 'The history entry', ...jsonContent(stockRequestEvent) } }, [...MOVE_REFUSALS]),
    },
  },
  {
    method: 'GET',
    path: '/api/stock-requests/:id/status',
    operation: `query ($id: ID!, $limit: Int, $offset: Int) { stockRequestHistory(id: $id, limit: $limit, offset: $offset) { requestId status events { ${EVENT} } total limit offset } }`,
    input: { query: stockRequestHistoryQuery },
    variables: ({ params, query }) => ({ ...query, id: params.id }),
    result: ({ stockRequestHistory: { requestId, ...history } }) => ({ id: requestId, ...history, data: history.events }),
    doc: {
      operationId: 'getStockRequestStatus',
      summary: 'The state and history of a stock request',
      description: 'The state now and the history, oldest first: creation, moves (who, when, from, to, note), rollbacks, comments and line changes; limit/offset paging (default 100, at most 500).',
      tags,
      parameters: idParam,
      responses: responses({ 200: { description: 'The history', ...jsonContent(stockRequestHistory) } }, [400, 401, 403, 404]),
    },
  },
  moveRoute('status', 'moveStockRequest', 'StockRequestStatusInput', { body: stockRequestStatusBody }, {
    operationId: 'moveStockRequest',
    summary: 'Move a stock request to a state',
    description:
      'Body {status, note?}: SUBMITTED (submit), APPROVED (approve whole; needs stockrequests.approve and not the requester unless a tenant administrator, else 403), ' +
      'REJECTED (reject, needs stockrequests.approve; note is the reason, required), CANCELLED (from DRAFT, SUBMITTED or APPROVED), PARTIALLY_FULFILLED (POST /{id}/fulfil ' +
      'without lines: ship everything approved and not yet fulfilled) or FULFILLED (from PARTIALLY_FULFILLED once every transfer is received: the remainder closed, its ' +
      'reservation released). Each with the rules of its own path; a move the state does not allow: 409 INVALID_STATE naming the state.',
  }),
  {
    method: 'GET',
    path: '/api/stock-requests/:id/lines',
    operation: `query ($id: ID!) { stockRequest(id: $id) { id status lines { ${LINE} } } }`,
    variables: ({ params }) => ({ id: params.id }),
    result: ({ stockRequest: request }) => ({ ...request, data: request.lines }),
    doc: {
      operationId: 'listStockRequestLines',
      summary: 'The lines of a stock request',
      tags,
      parameters: idParam,
      responses: responses({ 200: { description: 'The lines, in the order they were added', ...jsonContent(stockRequestLines) } }, [401, 403, 404]),
    },
  },
  moveRoute('lines', 'setStockRequestLines', 'StockRequestLinesInput', { body: stockRequestLinesBody }, {
    operationId: 'setStockRequestLines',
    summary: 'Add or change lines of a stock request',
    description:
      'Body {lines: [{productMasterId, quantityRequested?, quantityApproved?, unit?}]} (1-200, each product once). DRAFT: adds a line per new product or changes ' +
      'it (quantityRequested required; at most 200 lines in all). SUBMITTED: an approver (stockrequests.approve, not the requester unless a tenant administrator, else 403) sets ' +
      'quantityApproved (0 to the quantity requested) of existing lines (404 for a product without a line). Any other state: 409 INVALID_STATE.',
  }),
]);
