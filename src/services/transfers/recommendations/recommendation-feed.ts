import type { RequestContext } from '../../../context.js';
import { orgId } from '../../tenant.js';
import { NOW_UTC, recommendationColumns, type TransferRecommendationRow } from './recommendation-rows.js';

/** The database clock (UTC), where a feed of changes starts: the same clock every instance writes updatedAt with. */
export async function recommendationClock(ctx: RequestContext): Promise<Date> {
  const [row] = await ctx.prisma.$queryRaw<{ now: Date }[]>`SELECT ${NOW_UTC} AS now`;
  return row!.now;
}

/** Id and updatedAt of the organization's recommendations changed at or after `since`, oldest change first. */
export function recommendationVersionsSince(ctx: RequestContext, since: Date) {
  return ctx.prisma.$queryRaw<{ id: string; updatedAt: Date }[]>`
    SELECT id, "updatedAt" FROM transfer_recommendations
    WHERE "organizationId" = ${orgId(ctx)} AND "updatedAt" >= (${since.toISOString()}::timestamptz AT TIME ZONE 'UTC')
    ORDER BY "updatedAt", id`;
}

/** These recommendations of the organization as reads answer them, in the order of `ids`. */
export async function recommendationsByIds(ctx: RequestContext, ids: string[]): Promise<TransferRecommendationRow[]> {
  if (!ids.length) return [];
  const rows = await ctx.prisma.$queryRaw<TransferRecommendationRow[]>`
    SELECT ${recommendationColumns('r')} FROM transfer_recommendations r WHERE r."organizationId" = ${orgId(ctx)} AND r.id = ANY(${ids}::text[])`;
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => byId.get(id)).filter((row): row is TransferRecommendationRow => Boolean(row));
}
