import type { RequestContext } from '../../context.js';
import { orgId } from '../tenant.js';

/**
 * How many products each of these categories holds: one grouped read by the category index, every category of
 * the request at once (Prisma's relation count would aggregate the whole catalog first).
 */
export async function countProductsOfCategories(ctx: RequestContext, categoryIds: readonly string[]): Promise<Map<string, number>> {
  const rows = await ctx.prisma.productMaster.groupBy({
    by: ['categoryId'],
    where: { organizationId: orgId(ctx), categoryId: { in: [...categoryIds] } },
    _count: { _all: true },
  });
  return new Map(rows.map((row) => [row.categoryId!, row._count._all]));
}
