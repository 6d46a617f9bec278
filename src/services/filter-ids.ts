import type { RequestContext } from '../context.js';
import { notFound } from '../kernel/errors.js';
import { orgId } from './tenant.js';

type Where = { id: { in: string[] }; organizationId: string };

/** What each kind of filter id names (the 404's label) and how to count the organization's, in the order they are reported. */
const OWNED = {
  scenarioId: ['Scenario', (ctx: RequestContext, where: Where) => ctx.prisma.forecastScenario.count({ where })],
  productMasterId: ['Product', (ctx: RequestContext, where: Where) => ctx.prisma.productMaster.count({ where })],
  locationId: ['Location', (ctx: RequestContext, where: Where) => ctx.prisma.location.count({ where })],
  lotId: ['Lot', (ctx: RequestContext, where: Where) => ctx.prisma.lot.count({ where })],
  binId: ['Bin', (ctx: RequestContext, where: Where) => ctx.prisma.bin.count({ where })],
  inventoryItemId: ['Inventory item', (ctx: RequestContext, where: Where) => ctx.prisma.stockLine.count({ where })],
  channelId: ['Channel', (ctx: RequestContext, where: Where) => ctx.prisma.channel.count({ where })],
} as const;

type Named = string | null | undefined;

/** Ids a list filter names, by kind; a kind may carry several (a source and a destination location). */
export type FilterIds = { [K in keyof typeof OWNED]?: Named | Named[] };

/**
 * Every id named in a list filter must belong to the caller's organization: an unknown or foreign one is
 * a 404 (GraphQL NOT_FOUND) naming what was not found, like an unknown id in a path, rather than an empty
 * answer. Absent filters (undefined, null or empty) are not checked.
 */
export async function checkFilterIds(ctx: RequestContext, ids: FilterIds): Promise<void> {
  const organizationId = orgId(ctx);
  const named = (Object.keys(OWNED) as (keyof typeof OWNED)[]).flatMap((kind) => {
    const value = ids[kind];
    const wanted = [...new Set((Array.isArray(value) ? value : [value]).filter((id): id is string => Boolean(id)))];
    return wanted.length ? [{ kind, wanted }] : [];
  });
  const counts = await Promise.all(named.map(({ kind, wanted }) => OWNED[kind][1](ctx, { id: { in: wanted }, organizationId })));
  const missing = named.findIndex(({ wanted }, i) => counts[i]! < wanted.length);
  if (missing >= 0) throw notFound(OWNED[named[missing]!.kind][0]);
}
