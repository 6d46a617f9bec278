import type { RequestContext } from '../../context.js';
import type { Alert, AlertSeverity, AlertStatus } from '../../generated/prisma/client.js';
import { followEvents } from '../events/following/followed-stream.js';
import type { PublishedEvent } from '../events/publisher/published-event.js';
import { checkFilterIds } from '../filter-ids.js';
import { orgId } from '../tenant.js';

/** A message of alertChanged: an alert raised, acknowledged or resolved (an alert.* event), with the alert as it is when the event arrives. */
export interface AlertChange {
  eventId: string;
  occurredAt: Date;
  from: AlertStatus | null;
  to: AlertStatus;
  alert: Alert;
}

export interface AlertChangeFilter {
  locationId?: string | null;
  productId?: string | null;
  severity?: AlertSeverity | null;
}

const ALERT_EVENTS = new Set(['alert.raised', 'alert.acknowledged', 'alert.resolved']);

/**
 * The organization's alerts raised, acknowledged and resolved from the moment of subscribing, made by any
 * instance, optionally only at a location, of a product or of a severity (foreign or unknown ids: NOT_FOUND).
 * The events that arrive together cost one read of their alerts.
 */
export async function alertChanges(ctx: RequestContext, filter: AlertChangeFilter): Promise<AsyncIterableIterator<AlertChange>> {
  await checkFilterIds(ctx, { locationId: filter.locationId, productMasterId: filter.productId });
  return followEvents<AlertChange>(ctx, {
    match: (event) =>
      ALERT_EVENTS.has(event.type) &&
      (!filter.locationId || event.locationId === filter.locationId) &&
      (!filter.productId || event.productId === filter.productId) &&
      (!filter.severity || event.payload.severity === filter.severity),
    start: async () => ({ values: [] }),
    take: async (events: PublishedEvent[]) => {
      const ids = [...new Set(events.map((event) => event.subjectId!))];
      const alerts = new Map((await ctx.prisma.alert.findMany({ where: { id: { in: ids }, organizationId: orgId(ctx) } })).map((alert) => [alert.id, alert]));
      return {
        values: events.flatMap((event) => {
          const alert = alerts.get(event.subjectId!);
          return alert ? [{ eventId: String(event.id), occurredAt: new Date(event.createdAt), from: (event.payload.from as AlertStatus | null) ?? null, to: event.payload.to as AlertStatus, alert }] : [];
        }),
      };
    },
  });
}
