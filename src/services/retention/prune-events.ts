import type { OperatorContext } from '../../context.js';
import { ALERTS_CURSOR } from '../alerts/evaluate-events.js';
import { PUBLISHER } from '../events/publisher/publish-batch.js';
import type { EventPosition } from '../events/publisher/published-event.js';
import { WEBHOOKS_CURSOR } from '../webhooks/webhook-fan-out.js';
import { underRetentionLock } from './retention-lock.js';

/** Outbox rows looked at per statement. */
export const EVENT_PRUNE_BATCH = 5_000;

/**
 * The consumers that read the outbox after a cursor of their own. A missing row means its consumer has read
 * nothing yet, so nothing is pruned; a row of any other name (a consumer added later) holds the outbox too.
 */
const CONSUMER_CURSORS = [PUBLISHER, WEBHOOKS_CURSOR, ALERTS_CURSOR];

/**
 * The position every consumer has passed: the lowest cursor. Cursors only move forward, so a position read
 * here stays passed while the batches after it run.
 */
export async function passedByEveryCursor(ctx: OperatorContext): Promise<EventPosition | null> {
  const cursors = await ctx.prisma.$queryRaw<{ name: string; txid: bigint; lastId: bigint }[]>`
    SELECT name, txid, "lastId" FROM event_publisher_cursors ORDER BY txid, "lastId"`;
  if (!CONSUMER_CURSORS.every((name) => cursors.some((c) => c.name === name))) return null;
  const lowest = cursors[0]!;
  return { txid: lowest.txid, id: lowest.lastId };
}

/** Where a round's walk over the old rows stands: the last row looked at ("createdAt" as the database's text). */
export interface EventWalk {
  createdAt: string;
  id: bigint;
}

export const WALK_START: EventWalk = { createdAt: '-infinity', id: 0n };

export interface EventPruneStep {
  deleted: number;
  /** Where the next batch of this round starts; null: the round is over. */
  next: EventWalk | null;
}

/**
 * One batch of outbox pruning: the next EVENT_PRUNE_BATCH rows older than `hours` after `after` (oldest first,
 * through the ("createdAt", id) index), of which those every cursor has passed (`upTo`) and no PENDING webhook
 * delivery needs (its attempts read the event) are deleted. The rows kept are stepped over by the walk, so a
 * round reads each of them once, not once per batch. Null: another instance is pruning.
 */
export async function pruneEventsAfter(ctx: OperatorContext, options: { after: EventWalk; upTo: EventPosition; hours: number }): Promise<EventPruneStep | null> {
  const { after, upTo, hours } = options;
  return underRetentionLock(ctx, async (tx) => {
    const [result] = await tx.prisma.$queryRaw<{ deleted: number; scanned: number; lastAt: string | null; lastId: bigint | null }[]>`
      WITH batch AS MATERIALIZED (
        SELECT id, txid, "createdAt"
        FROM domain_events
        WHERE ("createdAt", id) > (${after.createdAt}::timestamp, ${after.id})
          AND "createdAt" < (now() AT TIME ZONE 'UTC') - ${hours}::float8 * interval '1 hour'
        ORDER BY "createdAt", id
        LIMIT ${EVENT_PRUNE_BATCH}),
      gone AS (
        DELETE FROM domain_events e USING batch b
        WHERE e.id = b.id AND (b.txid, b.id) <= (${upTo.txid}, ${upTo.id})
          AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d."eventId" = e.id AND d.status = 'PENDING')
        RETURNING e.id),
      last AS (SELECT "createdAt", id FROM batch ORDER BY "createdAt" DESC, id DESC LIMIT 1)
      SELECT (SELECT count(*)::int FROM gone) AS deleted,
             (SELECT count(*)::int FROM batch) AS scanned,
             (SELECT "createdAt"::text FROM last) AS "lastAt",
             (SELECT id FROM last) AS "lastId"`;
    const done = !result || result.scanned < EVENT_PRUNE_BATCH || result.lastAt === null || result.lastId === null;
    return { deleted: result?.deleted ?? 0, next: done ? null : { createdAt: result.lastAt!, id: result.lastId! } };
  });
}
