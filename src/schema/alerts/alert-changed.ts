import { type AlertChange, alertChanges } from '../../services/alerts/alert-changes.js';
import { builder } from '../builder.js';
import { AlertRef, AlertSeverityEnum, AlertStatusEnum } from './alert-types.js';

const AlertChangeRef = builder.objectRef<AlertChange>('AlertChange').implement({
  description: "An alert raised, acknowledged or resolved (an alert.* domain event, docs/events.md) with the alert as it is when the event arrives.",
  fields: (t) => ({
    eventId: t.exposeString('eventId', { description: 'The outbox event.' }),
    occurredAt: t.field({ type: 'DateTime', description: 'When the change was written (its transaction).', resolve: (c) => c.occurredAt }),
    from: t.field({ type: AlertStatusEnum, nullable: true, description: 'The status it left (null: raised).', resolve: (c) => c.from }),
    to: t.field({ type: AlertStatusEnum, description: 'The status it reached.', resolve: (c) => c.to }),
    alert: t.field({ type: AlertRef, description: 'The alert as it is when the event arrives (a later change may already show).', resolve: (c) => c.alert }),
  }),
});

builder.subscriptionFields((t) => ({
  alertChanged: t.field({
    type: AlertChangeRef,
    description:
      "Alerts of the caller's organization raised, acknowledged or resolved from the moment of subscribing, through any instance, fed by the published alert.* events; " +
      "optionally only at a location, of a product or of a severity. Unknown or another organization's id: NOT_FOUND. Needs reports.read.",
    authScopes: { permission: 'reports.read' },
    args: {
      locationId: t.arg.id({ required: false, description: 'Only alerts at this location.' }),
      productId: t.arg.id({ required: false, description: 'Only alerts of this product.' }),
      severity: t.arg({ type: AlertSeverityEnum, required: false, description: 'Only alerts of this severity.' }),
    },
    subscribe: (_parent, args, ctx) =>
      alertChanges(ctx, { locationId: args.locationId == null ? null : String(args.locationId), productId: args.productId == null ? null : String(args.productId), severity: args.severity ?? null }),
    resolve: (change) => change,
  }),
}));
