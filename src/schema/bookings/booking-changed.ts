import { type BookingChange, bookingChanges } from '../../services/bookings/booking-changes.js';
import { builder } from '../builder.js';
import { BookingRef, BookingStatusEnum } from './booking-types.js';

const BookingChangeRef = builder.objectRef<BookingChange>('BookingChange').implement({
  description: "A booking's move (a domain event 'booking.moved', docs/events.md) with the booking as it is when the move arrives.",
  fields: (t) => ({
    eventId: t.exposeString('eventId', { nullable: true, description: 'The outbox event; null in the first message of a subscription by id (the booking as it was then).' }),
    occurredAt: t.field({ type: 'DateTime', description: 'When the move was written (its transaction); in a first message, when the booking last changed.', resolve: (c) => c.occurredAt }),
    from: t.field({ type: BookingStatusEnum, nullable: true, description: 'The status the move left (null: the booking was created, or a first message).', resolve: (c) => c.from }),
    to: t.field({ type: BookingStatusEnum, description: 'The status the move reached (in a first message, the status then).', resolve: (c) => c.to }),
    booking: t.field({ type: BookingRef, description: 'The booking as it is when the move arrives (a later move may already show).', resolve: (c) => c.record }),
  }),
});

builder.subscriptionFields((t) => ({
  bookingChanged: t.field({
    type: BookingChangeRef,
    description:
      "Wholesale booking moves (created, confirmed, fulfilled, cancelled) of the caller's organization, made through any server instance, fed by the published domain events. By id: the booking now, then each move, ending after FULFILLED or CANCELLED. By locationId: each move of a booking at that location from the moment of subscribing. Exactly one of them (VALIDATION_ERROR otherwise); unknown or another organization's id: NOT_FOUND.",
    authScopes: { permission: 'planning.read' },
    args: {
      id: t.arg.id({ required: false, description: 'Follow this booking.' }),
      locationId: t.arg.id({ required: false, description: 'The moves of bookings at this location.' }),
    },
    subscribe: (_parent, args, ctx) => bookingChanges(ctx, { id: args.id == null ? null : String(args.id), locationId: args.locationId == null ? null : String(args.locationId) }),
    resolve: (change) => change,
  }),
}));
