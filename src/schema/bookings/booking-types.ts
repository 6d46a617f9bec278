import { bookingReference, weekText, type BookingWithLines } from '../../services/bookings/booking-shape.js';
import { builder } from '../builder.js';
import { readScopesOf } from '../link-scopes.js';
import { BinType } from '../inventory/stock-lines/stock-line.js';
import { LocationType } from '../master-data/location.js';
import { NodeRef } from '../node/node-interface.js';
import { ProductType } from '../products/product.js';
import { linked } from '../record-loaders.js';

type BookingLine = BookingWithLines['lines'][number];
type BookingAllocation = BookingLine['allocations'][number];

export const BookingStatusEnum = builder.enumType('BookingStatus', {
  description: 'Where a wholesale booking is: DRAFT → CONFIRMED → FULFILLED; CANCELLED from DRAFT or CONFIRMED.',
  values: {
    DRAFT: { description: 'Being written: may be changed; nothing reserved, not forecast.' },
    CONFIRMED: { description: 'Agreed: units reserved where available (the rest short, outbound demand in the projection), a BOOKING event for forecasting.' },
    FULFILLED: { description: 'Shipped: every booked unit left the location through the ledger. Final.' },
    CANCELLED: { description: 'Cancelled: reservations released, no longer forecast. Final.' },
  } as const,
});

export const BookingAllocationRef = builder.objectRef<BookingAllocation>('BookingAllocation').implement({
  interfaces: [NodeRef],
  description: 'Units of a booking line held on one stock line (a lot in a bin): reserved while CONFIRMED, shipped from when FULFILLED.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Identifier.' }),
    stockLineId: t.exposeID('stockLineId', { description: 'The stock line the units are (or were) on.' }),
    lotId: t.exposeID('lotId', { nullable: true, description: 'Its lot (null for stock without lots).' }),
    lotCode: t.string({ nullable: true, description: 'The lot code (part of what the booking records: no inventory permission needed).', resolve: async (row, _args, ctx) => (row.lotId ? ((await linked(ctx, 'lot', row.lotId))?.code ?? null) : null) }),
    binId: t.exposeID('binId', { nullable: true, description: 'Its bin (null when not in a bin).' }),
    bin: t.field({ type: BinType, nullable: true, authScopes: readScopesOf('Bin'), description: 'The bin (null when none).', resolve: (row, _args, ctx) => linked(ctx, 'bin', row.binId) }),
    quantity: t.exposeInt('quantity', { description: 'Units.' }),
  }),
});

export const BookingLineRef = builder.objectRef<BookingLine>('BookingLine').implement({
  interfaces: [NodeRef],
  description: 'Units of one product on a booking, with what is reserved for them and what is short.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Identifier.' }),
    lineNumber: t.exposeInt('lineNumber', { description: 'Position on the booking, from 1.' }),
    productId: t.exposeID('productMasterId', { description: 'The product booked.' }),
    product: t.field({ type: ProductType, nullable: true, authScopes: readScopesOf('Product'), description: 'The product (null only when it was deleted since).', resolve: (row, _args, ctx) => linked(ctx, 'product', row.productMasterId) }),
    quantity: t.exposeInt('quantity', { description: 'Units booked.' }),
    reservedQuantity: t.exposeInt('reservedQuantity', { description: 'Units held reserved at the location for the line (CONFIRMED only; 0 otherwise).' }),
    shortQuantity: t.exposeInt('shortQuantity', { description: 'Units not reserved because they were not available (CONFIRMED only): outbound demand at the booking week in the planning projection.' }),
    allocations: t.field({ type: [BookingAllocationRef], description: 'The lots and bins the units are reserved on (CONFIRMED) or were shipped from (FULFILLED).', resolve: (row) => row.allocations }),
  }),
});

export const BookingRef = builder.objectRef<BookingWithLines>('Booking').implement({
  interfaces: [NodeRef],
  description: 'A wholesale (B2B) booking: future quantities of products a customer books for one week at one location.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Identifier.' }),
    number: t.exposeInt('number', { description: 'Number of the booking in the organization, from 1.' }),
    reference: t.string({ description: 'The number as people write it: BK- and six digits or more.', resolve: (row) => bookingReference(row) }),
    customer: t.exposeString('customer', { description: 'The customer.' }),
    customerReference: t.exposeString('customerReference', { nullable: true, description: "The customer's own reference." }),
    locationId: t.exposeID('locationId', { description: 'The location the units leave from.' }),
    location: t.field({ type: LocationType, nullable: true, authScopes: readScopesOf('Location'), description: 'The location (null only when it was deleted since).', resolve: (row, _args, ctx) => linked(ctx, 'location', row.locationId) }),
    week: t.field({ type: 'Date', description: 'Monday of the ISO week booked.', resolve: (row) => weekText(row) }),
    status: t.field({ type: BookingStatusEnum, description: 'Where the booking is.', resolve: (row) => row.status }),
    note: t.exposeString('note', { nullable: true, description: 'Free text.' }),
    createdByType: t.exposeString('createdByType', { description: 'USER or API_KEY.' }),
    createdBy: t.exposeString('createdBy', { description: 'The id of the user or API key that created it.' }),
    confirmedAt: t.expose('confirmedAt', { type: 'DateTime', nullable: true, description: 'When it was confirmed.' }),
    confirmedBy: t.exposeString('confirmedBy', { nullable: true, description: 'The user or API key that confirmed it.' }),
    fulfilledAt: t.expose('fulfilledAt', { type: 'DateTime', nullable: true, description: 'When it was fulfilled.' }),
    fulfilledBy: t.exposeString('fulfilledBy', { nullable: true, description: 'The user or API key that fulfilled it.' }),
    cancelledAt: t.expose('cancelledAt', { type: 'DateTime', nullable: true, description: 'When it was cancelled.' }),
    cancelledBy: t.exposeString('cancelledBy', { nullable: true, description: 'The user or API key that cancelled it.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When it last changed.' }),
    lines: t.field({ type: [BookingLineRef], description: 'The lines, in order.', resolve: (row) => row.lines }),
  }),
});
