import { bookingListQuery } from '../../src/contracts/bookings/booking-queries.js';
import { bookingCreate, bookingNoBody, bookingUpdateBody } from '../../src/contracts/bookings/bookings.js';
import { jsonContent, pathParam, responses } from '../openapi-common.js';
import { defineRoutes, type RouteSpec } from '../route.js';
import { booking, bookingList } from './booking-responses.js';

const ALLOCATION = 'id stockLineId lotId lotCode binId quantity';
const BOOKING = `id number reference customer customerReference locationId week status note createdByType createdBy
  confirmedAt confirmedBy fulfilledAt fulfilledBy cancelledAt cancelledBy createdAt updatedAt
  lines { id lineNumber productId quantity reservedQuantity shortQuantity allocations { ${ALLOCATION} } }`;

const tags = ['Wholesale Bookings'];
const idParam = [pathParam('id', 'Booking id')];
const bookingBody = (description: string) => ({ description, ...jsonContent(booking) });

/** A POST /api/bookings/{id}/<move> route running the mutation of that move with `{ input: { id } }`. */
const moveRoute = (path: string, mutation: string, doc: { operationId: string; summary: string; description: string }): RouteSpec => ({
  method: 'POST',
  path: `/api/bookings/:id/${path}`,
  operation: `mutation ($input: BookingMoveInput!) { ${mutation}(input: $input) { ${BOOKING} } }`,
  input: { body: bookingNoBody },
  variables: ({ params }) => ({ input: { id: params.id } }),
  result: (data) => data[mutation],
  doc: { ...doc, tags, parameters: idParam, responses: responses({ 200: bookingBody('The booking after the move') }, [400, 401, 403, 404, 409]) },
});

export const bookingRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/api/bookings',
    operation: `query ($status: String, $locationId: ID, $productId: ID, $customer: String, $weekFrom: String, $weekTo: String, $limit: Int, $offset: Int) {
      bookingsPage(status: $status, locationId: $locationId, productId: $productId, customer: $customer, weekFrom: $weekFrom, weekTo: $weekTo, limit: $limit, offset: $offset) {
        bookings { ${BOOKING} } total limit offset }
    }`,
    input: { query: bookingListQuery },
    variables: ({ query }) => ({ ...query, status: query.status?.join(',') }),
    result: ({ bookingsPage: page }) => ({ ...page, data: page.bookings }),
    doc: {
      operationId: 'listBookings',
      summary: 'List wholesale bookings',
      description:
        'By week, newest first within a week, with filters status (any case, comma-separated), locationId, productId (bookings with a line of it), customer (part of the name, ' +
        'any case), weekFrom/weekTo (a Monday YYYY-MM-DD or YYYY-Www, both included) and limit/offset paging (default 50, at most 100). A location or product that is not the ' +
        "organization's: 404.",
      tags,
      responses: responses({ 200: { description: 'A page of bookings', ...jsonContent(bookingList) } }, [400, 401, 403, 404]),
    },
  },
  {
    method: 'POST',
    path: '/api/bookings',
    operation: `mutation ($input: BookingCreateInput!) { createBooking(input: $input) { ${BOOKING} } }`,
    input: { body: bookingCreate },
    variables: ({ body }) => ({ input: body }),
    result: (data) => data.createBooking,
    status: 201,
    doc: {
      operationId: 'createBooking',
      summary: 'Create a wholesale booking (DRAFT)',
      description:
        'Body {customer (1-200 characters), customerReference? (up to 100), locationId, week (a Monday YYYY-MM-DD or YYYY-Www), note? (up to 1000), lines: [{productId, quantity (1-1000000)}] ' +
        "(1-500, each product once)}. Nothing is reserved or forecast until it is confirmed. A location or product that is not the organization's: 400 naming the field.",
      tags,
      responses: responses({ 201: bookingBody('The DRAFT booking') }, [400, 401, 403]),
    },
  },
  {
    method: 'GET',
    path: '/api/bookings/:id',
    operation: `query ($id: ID!) { booking(id: $id) { ${BOOKING} } }`,
    variables: ({ params }) => ({ id: params.id }),
    result: (data) => data.booking,
    doc: { operationId: 'getBooking', summary: 'Get a wholesale booking with its lines', tags, parameters: idParam, responses: responses({ 200: bookingBody('The booking') }, [401, 403, 404]) },
  },
  {
    method: 'PATCH',
    path: '/api/bookings/:id',
    operation: `mutation ($input: BookingUpdateInput!) { updateBooking(input: $input) { ${BOOKING} } }`,
    input: { body: bookingUpdateBody },
    variables: ({ params, body }) => ({ input: { ...(body as object), id: params.id } }),
    result: (data) => data.updateBooking,
    doc: {
      operationId: 'updateBooking',
      summary: 'Change a DRAFT booking',
      description: 'Body: any of the fields of the creation (null clears customerReference or note); lines given replace all. Any state but DRAFT: 409 INVALID_STATE naming the state, nothing changed.',
      tags,
      parameters: idParam,
      responses: responses({ 200: bookingBody('The booking') }, [400, 401, 403, 404, 409]),
    },
  },
  moveRoute('confirm', 'confirmBooking', {
    operationId: 'confirmBooking',
    summary: 'Confirm a booking (DRAFT → CONFIRMED)',
    description:
      'Body: none or {}. The week must be this week or later (400 on week). Reserves as much of each line as is available at the location (first expiry first out; lots that expire, or are ' +
      'short-dated, by the booking week are not taken; BOOKING_RESERVE ledger rows); the rest of each line is its shortQuantity, outbound demand at the booking week in the planning ' +
      'projection. Each line becomes a BOOKING external event for forecasting. Any other state: 409 INVALID_STATE (two confirms at once: one confirms, the other 409).',
  }),
  moveRoute('reserve', 'reserveBooking', {
    operationId: 'reserveBooking',
    summary: 'Top up the reservation of a CONFIRMED booking',
    description: 'Body: none or {}. Reserves what is now available of each line\'s shortQuantity, as confirm does. The booking stays CONFIRMED. Any other state: 409 INVALID_STATE.',
  }),
  moveRoute('fulfil', 'fulfilBooking', {
    operationId: 'fulfilBooking',
    summary: 'Fulfil a booking (CONFIRMED → FULFILLED)',
    description:
      'Body: none or {}. Every booked unit leaves the location through the ledger (BOOKING_OUT rows): the reserved units, and the short rest reserved first if it is available now. ' +
      'Not enough stock for every unit: 400 INSUFFICIENT_STOCK with details per line, nothing changed. The booking no longer lifts its week\'s forecast. Any other state: 409 INVALID_STATE.',
  }),
  moveRoute('cancel', 'cancelBooking', {
    operationId: 'cancelBooking',
    summary: 'Cancel a booking (DRAFT or CONFIRMED → CANCELLED)',
    description: 'Body: none or {}. A confirmed booking\'s reservations are released (BOOKING_RELEASE rows) and it leaves forecasting and the projection. FULFILLED or CANCELLED: 409 INVALID_STATE.',
  }),
]);
