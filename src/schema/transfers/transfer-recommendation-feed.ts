import type { RequestContext } from '../../context.js';
import type { TransferRecommendationRow } from '../../services/transfers/recommendations/recommendation-rows.js';
import { recommendationClock, recommendationsByIds, recommendationVersionsSince } from '../../services/transfers/recommendations/recommendation-feed.js';
import { builder } from '../builder.js';
import { TransferRecommendationType } from './transfer-recommendation.js';

/** How often a subscription reads the table. */
const POLL_MS = 1000;
/**
 * How far back each read looks: updatedAt is the writing transaction's start, and a long transaction (a
 * generation over many products) commits its rows seconds later, behind newer ones already seen.
 */
const LOOK_BACK_MS = 30_000;

/**
 * Recommendations as they are created or change (generated, refreshed, decided, executed, swept to
 * EXPIRED), one event per version, from the database, so that it follows work done by any instance.
 * A plain iterator, so that a client going away stops the polling at once.
 */
export async function recommendationChanges(ctx: RequestContext): Promise<AsyncIterableIterator<TransferRecommendationRow>> {
  let cursor = await recommendationClock(ctx);
  const seen = new Map<string, number>();
  const queue: TransferRecommendationRow[] = [];
  let done = false;
  let wake: (() => void) | null = null;
  const pause = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(stop, POLL_MS);
      function stop() {
        clearTimeout(timer);
        wake = null;
        resolve();
      }
      wake = stop;
    });
  const poll = async () => {
    const since = new Date(cursor.getTime() - LOOK_BACK_MS);
    const versions = await recommendationVersionsSince(ctx, since);
    const fresh = versions.filter((v) => seen.get(v.id) !== v.updatedAt.getTime());
    for (const v of fresh) {
      seen.set(v.id, v.updatedAt.getTime());
      if (v.updatedAt > cursor) cursor = v.updatedAt;
    }
    for (const [id, at] of seen) if (at < since.getTime()) seen.delete(id);
    queue.push(...(await recommendationsByIds(ctx, fresh.map((v) => v.id))));
  };
  // Versions that exist when the subscription starts are not news.
  for (const v of await recommendationVersionsSince(ctx, new Date(cursor.getTime() - LOOK_BACK_MS))) seen.set(v.id, v.updatedAt.getTime());
  const end = (): IteratorResult<TransferRecommendationRow> => {
    done = true;
    wake?.();
    return { done: true, value: undefined };
  };
  const iterator: AsyncIterableIterator<TransferRecommendationRow> = {
    async next() {
      while (!done) {
        const next = queue.shift();
        if (next) return { done: false, value: next };
        await pause();
        if (done) break;
        await poll();
      }
      return end();
    },
    async return() {
      return end();
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}

builder.subscriptionFields((t) => ({
  transferRecommendationChanged: t.field({
    type: TransferRecommendationType,
    description:
      'Follows the organization\'s transfer recommendations over graphql-ws: each one created or changed (generated again, approved, rejected, executed, expired by the sweep) after the subscription started, as it is then.',
    authScopes: { permission: 'transfers.read' },
    subscribe: (_parent, _args, ctx) => recommendationChanges(ctx),
    resolve: (row) => row,
  }),
}));
