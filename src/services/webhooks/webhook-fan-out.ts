import type { OperatorContext } from '../../context.js';
import { inTransaction } from '../../db/transactions.js';
import { ALL_EVENT_TYPES } from '../../contracts/webhooks/webhook-endpoints.js';
import { positionOf, readEventHeadsAfter } from '../events/publisher/published-event.js';

/** The webhooks worker's row in event_publisher_cursors (the publisher's is `main`). */
export const WEBHOOKS_CURSOR = 'webhooks';

/**
 * Turns the next settled outbox events into deliveries: one row per (event, active endpoint of the event's
 * organization that takes its type), written in the transaction that moves the webhooks cursor past the
 * events. The cursor row is locked with SKIP LOCKED, so one instance fans a batch out; one killed before its
 * commit wrote nothing and moved nothing, and the batch is fanned out again. Returns the events read.
 */
export async function fanOutWebhookEvents(ctx: OperatorContext): Promise<number> {
  return inTransaction(ctx, async (ctx) => {
    const [cursor] = await ctx.prisma.$queryRaw<{ txid: bigint; lastId: bigint }[]>`
      SELECT txid, "lastId" FROM event_publisher_cursors WHERE name = ${WEBHOOKS_CURSOR} FOR UPDATE SKIP LOCKED`;
    if (!cursor) return 0;
    // Heads only: a delivery row needs no payload, and most organizations have no endpoint.
    const events = await readEventHeadsAfter(ctx.prisma, { txid: cursor.txid, id: cursor.lastId });
    if (!events.length) return 0;
    const organizations = [...new Set(events.map((e) => e.organizationId))];
    const endpoints = await ctx.prisma.webhookEndpoint.findMany({
      where: { organizationId: { in: organizations }, active: true },
      select: { id: true, organizationId: true, eventTypes: true },
    });
    const rows = events.flatMap((event) =>
      endpoints
        .filter((e) => e.organizationId === event.organizationId && (e.eventTypes.includes(ALL_EVENT_TYPES) || e.eventTypes.includes(event.type)))
        .map((e) => ({ organizationId: event.organizationId, endpointId: e.id, eventId: event.id, eventType: event.type })),
    );
    if (rows.length) await ctx.prisma.webhookDelivery.createMany({ data: rows, skipDuplicates: true });
    const to = positionOf(events.at(-1)!);
    await ctx.prisma.$executeRaw`
      UPDATE event_publisher_cursors SET txid = ${to.txid}, "lastId" = ${to.id}, "updatedAt" = now() WHERE name = ${WEBHOOKS_CURSOR}`;
    return events.length;
  });
}
