import { shipmentListQuery } from '../../src/contracts/shipments/shipment-queries.js';
import { shipmentCreate, shipmentDeliverBody, shipmentNoBody, shipmentPackBody, shipmentShipBody } from '../../src/contracts/shipments/shipments.js';
import { jsonContent, pathParam, responses } from '../openapi-common.js';
import { defineRoutes, type RouteSpec } from '../route.js';
import { shipment, shipmentList } from './shipment-responses.js';

const ALLOCATION = 'id stockLineId lotId lotCode binId quantity';
const SHIPMENT = `id number reference salesOrderId transferId locationId status carrier trackingNumber packageCount weightKg note createdByType createdBy
  pickedAt packedAt shippedAt deliveredAt cancelledAt createdAt updatedAt lines { id lineNumber orderLineId transferLineId productMasterId quantity allocations { ${ALLOCATION} } }`;

const tags = ['Shipments'];
const idParam = [pathParam('id', 'Shipment id')];
const shipmentBody = (description: string) => ({ description, ...jsonContent(shipment) });

/** A POST /api/shipments/{id}/<move> route running the mutation of that move with `{ input: { id, ...body } }`. */
const moveRoute = (path: string, mutation: string, inputType: string, body: RouteSpec['input'], doc: { operationId: string; summary: string; description: string }): RouteSpec => ({
  method: 'POST',
  path: `/api/shipments/:id/${path}`,
  operation: `mutation ($input: ${inputType}!) { ${mutation}(input: $input) { ${SHIPMENT} } }`,
  input: body,
  variables: ({ params, body }) => ({ input: { ...((body as object | undefined) ?? {}), id: params.id } }),
  result: (data) => data[mutation],
  doc: { ...doc, tags, parameters: idParam, responses: responses({ 200: shipmentBody('The shipment after the move') }, [400, 401, 403, 404, 409]) },
});

export const shipmentRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/api/shipments',
    operation: `query ($status: String, $locationId: ID, $orderId: ID, $transferId: ID, $carrier: String, $from: Date, $to: Date, $search: String, $limit: Int, $offset: Int) {
      shipmentsPage(status: $status, locationId: $locationId, orderId: $orderId, transferId: $transferId, carrier: $carrier, from: $from, to: $to, search: $search, limit: $limit, offset: $offset) {
        shipments { ${SHIPMENT} } total limit offset }
    }`,
    input: { query: shipmentListQuery },
    variables: ({ query }) => ({ ...query, status: query.status?.join(',') }),
    result: ({ shipmentsPage: page }) => ({ ...page, data: page.shipments }),
    doc: {
      operationId: 'listShipments',
      summary: 'List shipments',
      description:
        'Newest first, with filters status (any case, comma-separated), locationId, orderId (the sales order id), transferId (the inventory transfer id), carrier (exact, any case), from/to (the creation day, ' +
        'UTC, both included; at most 3660 days apart) and search (the number as 12 or SH-000012, or text in the tracking number or the order\'s external id) and ' +
        "limit/offset paging (default 50, at most 100). A location that is not the organization's: 404.",
      tags,
      responses: responses({ 200: { description: 'A page of shipments', ...jsonContent(shipmentList) } }, [400, 401, 403, 404]),
    },
  },
  {
    method: 'POST',
    path: '/api/shipments',
    operation: `mutation ($input: ShipmentCreateInput!) { createShipment(input: $input) { ${SHIPMENT} } }`,
    input: { body: shipmentCreate },
    variables: ({ body }) => ({ input: body }),
    result: (data) => data.createShipment,
    status: 201,
    doc: {
      operationId: 'createShipment',
      summary: 'Create a shipment of a sales order or of a DRAFT transfer (RESERVED)',
      description:
        'Body {salesOrderId, lines?: [{orderLineId, quantity (> 0)}] (1-200, each order line once; absent: every unit not yet on a shipment), note? (up to 1000)}, ' +
        "or {transferId, note?}: a DRAFT inventory transfer shipped whole from its source, one shipment line per transfer line, the units reserved there (the line's lot " +
        'and bin when it names them); until the shipment ships or is cancelled the transfer itself cannot ship, change or be cancelled (409). Exactly one of salesOrderId ' +
        'and transferId (400 otherwise). A transfer that is not DRAFT, already on a shipment not cancelled, or of expired stock for destruction: 409 INVALID_STATE. ' +
        "The order's reservation of those units is handed to the shipment and the units reserved at the order's fulfillment location, first-expiring lots first. " +
        "An order or order line that is not the organization's, or more than remains to ship (ordered less what shipments not cancelled hold): 400 with details; " +
        'a CANCELLED or FULFILLED order, or nothing left to ship: 409 INVALID_STATE; short of available stock: 400 INSUFFICIENT_STOCK with details per line. Nothing changes on a refusal.',
      tags,
      responses: responses({ 201: shipmentBody('The RESERVED shipment') }, [400, 401, 403, 409]),
    },
  },
  {
    method: 'GET',
    path: '/api/shipments/:id',
    operation: `query ($id: ID!) { shipment(id: $id) { ${SHIPMENT} } }`,
    variables: ({ params }) => ({ id: params.id }),
    result: (data) => data.shipment,
    doc: { operationId: 'getShipment', summary: 'Get a shipment with its lines and lots', tags, parameters: idParam, responses: responses({ 200: shipmentBody('The shipment') }, [401, 403, 404]) },
  },
  moveRoute('pick', 'pickShipment', 'ShipmentMoveInput', { body: shipmentNoBody }, {
    operationId: 'pickShipment',
    summary: 'Pick a shipment (RESERVED → PICKED)',
    description: 'Body: none or {}. Every reserved unit is picked from its lot and bin (the allocations of each line record them). Any other state: 409 INVALID_STATE naming it, nothing changed.',
  }),
  moveRoute('pack', 'packShipment', 'ShipmentPackInput', { body: shipmentPackBody }, {
    operationId: 'packShipment',
    summary: 'Pack a shipment (PICKED → PACKED)',
    description: 'Body {packageCount (1-10000), weightKg? (> 0, at most 1000000)}. Any other state: 409 INVALID_STATE, nothing changed.',
  }),
  moveRoute('ship', 'shipShipment', 'ShipmentShipInput', { body: shipmentShipBody }, {
    operationId: 'shipShipment',
    summary: 'Ship a shipment (PACKED → SHIPPED)',
    description:
      'Body {carrier (1-100 characters), trackingNumber? (up to 100)}. The picked units leave the location through the ledger (SHIPMENT_OUT rows naming the shipment); ' +
      'the order becomes FULFILLED once shipped shipments carry every unit it ordered. Any other state: 409 INVALID_STATE (two ships at once: one ships, the other 409).',
  }),
  moveRoute('deliver', 'deliverShipment', 'ShipmentDeliverInput', { body: shipmentDeliverBody }, {
    operationId: 'deliverShipment',
    summary: 'Record the delivery of a shipment (SHIPPED → DELIVERED)',
    description: 'Body {deliveredAt? (ISO 8601 date-time; default now; not before it shipped, not in the future)}. Any other state: 409 INVALID_STATE.',
  }),
  moveRoute('cancel', 'cancelShipment', 'ShipmentMoveInput', { body: shipmentNoBody }, {
    operationId: 'cancelShipment',
    summary: 'Cancel a shipment (RESERVED, PICKED or PACKED → CANCELLED)',
    description: 'Body: none or {}. Reservations are released and picked units returned to available stock (ledger rows naming the shipment). SHIPPED, DELIVERED or CANCELLED: 409 INVALID_STATE.',
  }),
]);
