import { BOOKINGS_DEFAULT_LIMIT, BOOKINGS_MAX_LIMIT, bookingListQuery } from '../../contracts/bookings/booking-queries.js';
import { bookingCreate, bookingLineInput, bookingMove, bookingUpdate } from '../../contracts/bookings/bookings.js';
import { cancelBooking } from '../../services/bookings/booking-cancel.js';
import { confirmBooking } from '../../services/bookings/booking-confirm.js';
import { createBooking } from '../../services/bookings/booking-create.js';
import { fulfilBooking } from '../../services/bookings/booking-fulfil.js';
import { getBooking, listBookings } from '../../services/bookings/booking-queries.js';
import { reserveBooking } from '../../services/bookings/booking-reserve.js';
import { updateBooking } from '../../services/bookings/booking-update.js';
import { builder } from '../builder.js';
import { contractArgs, contractInput, parseInput } from '../contract-input.js';
import { positionCursors, windowConnection } from '../window-connection.js';
import { BookingRef } from './booking-types.js';

const canRead = { permission: 'planning.read' } as const;
const canWrite = { permission: 'planning.write' } as const;

type Page = Awaited<ReturnType<typeof listBookings>>;

const PageRef = builder.objectRef<Page>('BookingPage').implement({
  description: 'One page of wholesale bookings, by week, newest first within a week.',
  fields: (t) => ({
    bookings: t.field({ type: [BookingRef], description: 'Bookings on this page.', resolve: (p) => p.bookings }),
    total: t.exposeInt('total', { description: 'Bookings matching the filters in all pages.' }),
    limit: t.exposeInt('limit', { description: 'Page size.' }),
    offset: t.exposeInt('offset', { description: 'Bookings skipped before this page.' }),
  }),
});

const LineInput = contractInput('BookingLineInput', bookingLineInput, { description: 'A product to book and how many of its units.', types: { productId: 'ID' } });
const CreateInput = contractInput('BookingCreateInput', bookingCreate, { description: 'A wholesale booking (DRAFT).', types: { locationId: 'ID', lines: [LineInput] } });
const UpdateInput = contractInput('BookingUpdateInput', bookingUpdate, { description: 'A DRAFT booking and the fields to change.', types: { id: 'ID', locationId: 'ID', lines: [LineInput] } });
const MoveInput = contractInput('BookingMoveInput', bookingMove, { description: 'The booking to move.', types: { id: 'ID' } });

type QueryFieldBuilder = Parameters<Parameters<typeof builder.queryFields>[0]>[0];
const filterArgs = (t: QueryFieldBuilder) => contractArgs(t, bookingListQuery, { omit: ['limit', 'offset'] });

builder.queryFields((t) => ({
  bookings: t.connection(
    {
      type: BookingRef,
      description: "Wholesale bookings with filters, by week then newest first, as a Relay connection (NOT_FOUND for a filter location or product that is not the organization's).",
      authScopes: canRead,
      extensions: positionCursors(BOOKINGS_MAX_LIMIT),
      args: filterArgs(t),
      resolve: (_parent, args, ctx) =>
        windowConnection(args, BOOKINGS_DEFAULT_LIMIT, (window) => listBookings(ctx, parseInput(bookingListQuery, args), window).then((page) => ({ items: page.bookings, total: page.total }))),
    },
    {
      name: 'BookingConnection',
      description: 'A page of bookings with the cursors to fetch the next or previous page.',
      fields: (c) => ({ totalCount: c.int({ description: 'Bookings matching the filters, in all pages.', resolve: (page) => page.totalCount }) }),
    },
  ),
  bookingsPage: t.field({
    type: PageRef,
    description: "REST adapter's shape (GET /api/bookings): a page of bookings by limit and offset.",
    deprecationReason: "The REST adapter's page shape (GET /api/bookings); GraphQL clients use the connection `bookings`.",
    authScopes: canRead,
    args: contractArgs(t, bookingListQuery),
    resolve: (_parent, args, ctx) => listBookings(ctx, parseInput(bookingListQuery, args)),
  }),
  booking: t.field({
    type: BookingRef,
    description: "One wholesale booking with its lines; null when it is unknown or not the organization's.",
    orNullWhenAbsent: true,
    authScopes: canRead,
    args: { id: t.arg.id({ required: true, description: 'The booking.' }) },
    resolve: (_parent, args, ctx) => getBooking(ctx, String(args.id)),
  }),
}));

const move = (description: string) => ({ refusals: ['ValidationError', 'NotFoundError', 'ConflictError'] as const, type: BookingRef, description, authScopes: canWrite });
const moveArgs = (t: Parameters<Parameters<typeof builder.mutationFields>[0]>[0]) => ({ input: t.arg({ type: MoveInput, required: true, description: 'The booking.' }) });

builder.mutationFields((t) => ({
  createBooking: t.field({
    refusals: ['ValidationError'],
    type: BookingRef,
    description: 'Creates a DRAFT wholesale booking: a customer, a location, a week and the products booked. Nothing is reserved or forecast until it is confirmed. An unknown location or product, or bad fields: ValidationError.',
    authScopes: canWrite,
    args: { input: t.arg({ type: CreateInput, required: true, description: 'The booking.' }) },
    resolve: (_parent, args, ctx) => createBooking(ctx, parseInput(bookingCreate, args.input)),
  }),
  updateBooking: t.field({
    ...move('Changes a DRAFT booking (the fields given; lines replace the lines). Any other state: ConflictError INVALID_STATE, nothing changed.'),
    args: { input: t.arg({ type: UpdateInput, required: true, description: 'The booking and the fields to change.' }) },
    resolve: (_parent, args, ctx) => updateBooking(ctx, parseInput(bookingUpdate, args.input)),
  }),
  confirmBooking: t.field({
    ...move(
      'DRAFT → CONFIRMED: reserves what is available of each line at the location (first expiry first out, no lot expiring by the week); the rest is short (outbound demand in the projection); each line becomes a BOOKING forecasting event. A past week: ValidationError; any other state: ConflictError INVALID_STATE.',
    ),
    args: moveArgs(t),
    resolve: (_parent, args, ctx) => confirmBooking(ctx, parseInput(bookingMove, args.input)),
  }),
  reserveBooking: t.field({
    ...move('Tops up a CONFIRMED booking: reserves what is now available of its short quantities (it stays CONFIRMED). Any other state: ConflictError INVALID_STATE.'),
    args: moveArgs(t),
    resolve: (_parent, args, ctx) => reserveBooking(ctx, parseInput(bookingMove, args.input)),
  }),
  fulfilBooking: t.field({
    ...move('CONFIRMED → FULFILLED: every booked unit leaves the location through the ledger (the short rest reserved first if available now). Short of stock: InsufficientStockError, nothing changed; any other state: ConflictError INVALID_STATE.'),
    refusals: ['ValidationError', 'NotFoundError', 'ConflictError', 'InsufficientStockError'],
    args: moveArgs(t),
    resolve: (_parent, args, ctx) => fulfilBooking(ctx, parseInput(bookingMove, args.input)),
  }),
  cancelBooking: t.field({
    ...move('DRAFT or CONFIRMED → CANCELLED: reservations released, no longer forecast. Any other state: ConflictError INVALID_STATE, nothing changed.'),
    args: moveArgs(t),
    resolve: (_parent, args, ctx) => cancelBooking(ctx, parseInput(bookingMove, args.input)),
  }),
}));
