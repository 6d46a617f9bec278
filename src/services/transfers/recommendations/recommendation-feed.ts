import type { RequestContext } from '../../../context.js';
import { followEvents } from '../../events/following/followed-stream.js';
import { orgId } from '../../tenant.js';
import { recommendationColumns, type TransferRecommendationRow } from './recommendation-rows.js';

const RECOMMENDATION_EVENTS = new Set(['recommendation.created', 'recommendation.moved', 'recommendation.updated']);

/** These recommendations of the organization as reads answer them, in the order of `ids`. */
export async function recommendationsByIds(ctx: RequestContext, ids: string[]): Promise<TransferRecommendationRow[]> {
  if (!ids.length) return [];
  const rows = await ctx.prisma.$queryRaw<TransferRecommendationRow[]>`
    SELECT ${recommendationColumns('r')} FROM transfer_recommendations r WHERE r."organizationId" = ${orgId(ctx)} AND r.id = ANY(${ids}::text[])`;
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => byId.get(id)).filter((row): row is TransferRecommendationRow => Boolean(row));
}

/**
 * The organization's recommendations as they are created or change (generated, refreshed, decided, executed,
 * swept to EXPIRED), from the moment of subscribing, fed by the published events (any instance's changes).
 * Each is sent as it is when its events arrive: events that arrive together cost one read, and a
 * recommendation named by several of them is sent once. Never ends by itself.
 */
export function recommendationChanges(ctx: RequestContext): Promise<AsyncIterableIterator<TransferRecommendationRow>> {
  return followEvents(ctx, {
    match: (event) => RECOMMENDATION_EVENTS.has(event.type),
    start: async () => ({ values: [] }),
    take: async (events) => ({ values: await recommendationsByIds(ctx, [...new Set(events.map((event) => event.subjectId!))]) }),
  });
}
