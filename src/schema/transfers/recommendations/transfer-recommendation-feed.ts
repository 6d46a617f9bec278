import type { RequestContext } from '../../../context.js';
import type { TransferRecommendationRow } from '../../../services/transfers/recommendations/recommendation-rows.js';
import { recommendationClock, recommendationsByIds, recommendationVersionsSince } from '../../../services/transfers/recommendations/recommendation-feed.js';
import { builder } from '../../builder.js';
import { pollingStream } from '../../polling-stream.js';
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
 * EXPIRED), one event per version, polled from the database (polling-stream.ts), so that it follows
 * work done by any instance.
 */
export async function recommendationChanges(ctx: RequestContext): Promise<AsyncIterableIterator<TransferRecommendationRow>> {
  let cursor = await recommendationClock(ctx);
  const seen = new Map<string, number>();
  // Versions that exist when the subscription starts are not news.
  for (const v of await recommendationVersionsSince(ctx, new Date(cursor.getTime() - LOOK_BACK_MS))) seen.set(v.id, v.updatedAt.getTime());
  return pollingStream(POLL_MS, { values: [] }, async () => {
    const since = new Date(cursor.getTime() - LOOK_BACK_MS);
    const versions = await recommendationVersionsSince(ctx, since);
    const fresh = versions.filter((v) => seen.get(v.id) !== v.updatedAt.getTime());
    for (const v of fresh) {
      seen.set(v.id, v.updatedAt.getTime());
      if (v.updatedAt > cursor) cursor = v.updatedAt;
    }
    for (const [id, at] of seen) if (at < since.getTime()) seen.delete(id);
    return { values: await recommendationsByIds(ctx, fresh.map((v) => v.id)) };
  });
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
