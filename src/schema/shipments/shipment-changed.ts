import { type ShipmentChange, shipmentChanges } from '../../services/shipments/shipment-changes.js';
import { builder } from '../builder.js';
import { ShipmentRef, ShipmentStatusEnum } from './shipment-types.js';

const ShipmentChangeRef = builder.objectRef<ShipmentChange>('ShipmentChange').implement({
  description: "A shipment's move (a domain event 'shipment.moved', docs/events.md) with the shipment as it is when the move arrives.",
  fields: (t) => ({
    eventId: t.exposeString('eventId', { nullable: true, description: 'The outbox event; null in the first message of a subscription by id (the shipment as it was then).' }),
    occurredAt: t.field({ type: 'DateTime', description: 'When the move was written (its transaction); in a first message, when the shipment last changed.', resolve: (c) => c.occurredAt }),
    from: t.field({ type: ShipmentStatusEnum, nullable: true, description: 'The status the move left (null: the shipment was created, or a first message).', resolve: (c) => c.from }),
    to: t.field({ type: ShipmentStatusEnum, description: 'The status the move reached (in a first message, the status then).', resolve: (c) => c.to }),
    shipment: t.field({ type: ShipmentRef, description: 'The shipment as it is when the move arrives (a later move may already show).', resolve: (c) => c.record }),
  }),
});

builder.subscriptionFields((t) => ({
  shipmentChanged: t.field({
    type: ShipmentChangeRef,
    description:
      "Shipment moves (created, picked, packed, shipped, delivered, cancelled) of the caller's organization, made through any server instance, fed by the published domain events. By id: the shipment now, then each move, ending after DELIVERED or CANCELLED. By locationId: each move of a shipment from that location from the moment of subscribing. Exactly one of them (VALIDATION_ERROR otherwise); unknown or another organization's id: NOT_FOUND.",
    authScopes: { permission: 'shipping.read' },
    args: {
      id: t.arg.id({ required: false, description: 'Follow this shipment.' }),
      locationId: t.arg.id({ required: false, description: 'The moves of shipments from this location.' }),
    },
    subscribe: (_parent, args, ctx) => shipmentChanges(ctx, { id: args.id == null ? null : String(args.id), locationId: args.locationId == null ? null : String(args.locationId) }),
    resolve: (change) => change,
  }),
}));
