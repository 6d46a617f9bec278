import type { OperatorContext } from '../../../context.js';
import { inTransaction, type InTransaction } from '../../../db/transactions.js';
import { type EventPosition, positionOf, type PublishedEvent, readEventsAfter } from './published-event.js';

/** How a published batch reaches every instance (docs/events.md): told inside the batch's transaction, so only a committed cursor move is told. */
export interface EventChannel {
  /** Called in the transaction that moves the cursor past the batch. */
  announce(ctx: InTransaction<OperatorContext>, from: EventPosition, events: PublishedEvent[]): Promise<void>;
  /** Called after that transaction committed. */
  committed(events: PublishedEvent[]): void;
}

/** The publisher's row in event_publisher_cursors. */
export const PUBLISHER = 'main';

/**
 * Publishes the next batch of settled outbox rows, if this instance holds the cursor: the cursor row is
 * locked with SKIP LOCKED, so one instance publishes at a time and the others find nothing to do. The
 * cursor moves and the channel is told in one transaction: a publisher killed before its commit has
 * published nothing and moved nothing, and the next one (any instance) publishes the batch again.
 * Returns the number of events published.
 */
export async function publishBatch(ctx: OperatorContext, channel: EventChannel): Promise<number> {
  const published = await inTransaction(ctx, async (ctx) => {
    const [cursor] = await ctx.prisma.$queryRaw<{ txid: bigint; lastId: bigint }[]>`
      SELECT txid, "lastId" FROM event_publisher_cursors WHERE name = ${PUBLISHER} FOR UPDATE SKIP LOCKED`;
    if (!cursor) return [];
    const from = { txid: cursor.txid, id: cursor.lastId };
    const events = await readEventsAfter(ctx.prisma, from);
    if (!events.length) return [];
    const to = positionOf(events.at(-1)!);
    await ctx.prisma.$executeRaw`
      UPDATE event_publisher_cursors SET txid = ${to.txid}, "lastId" = ${to.id}, "updatedAt" = now() WHERE name = ${PUBLISHER}`;
    await channel.announce(ctx, from, events);
    return events;
  });
  if (published.length) channel.committed(published);
  return published.length;
}
