import type { RequestContext } from '../../context.js';
import { orgId } from '../tenant.js';

/** The organization's products among these ids (ids of other organizations or unknown ones are left out). */
export function productsByIds(ctx: RequestContext, ids: readonly string[]) {
  return ctx.prisma.productMaster.findMany({ where: { organizationId: orgId(ctx), id: { in: [...ids] } } });
}

/** The organization's locations among these ids (ids of other organizations or unknown ones are left out). */
export function locationsByIds(ctx: RequestContext, ids: readonly string[]) {
  return ctx.prisma.location.findMany({ where: { organizationId: orgId(ctx), id: { in: [...ids] } } });
}

/** The organization's channels among these ids (ids of other organizations or unknown ones are left out). */
export function channelsByIds(ctx: RequestContext, ids: readonly string[]) {
  return ctx.prisma.channel.findMany({ where: { organizationId: orgId(ctx), id: { in: [...ids] } } });
}

/** The organization's categories among these ids (ids of other organizations or unknown ones are left out). */
export function categoriesByIds(ctx: RequestContext, ids: readonly string[]) {
  return ctx.prisma.category.findMany({ where: { organizationId: orgId(ctx), id: { in: [...ids] } } });
}
