import type { RequestContext } from '../../context.js';
import { orgId } from '../tenant.js';

/** The organization's suppliers among these ids (ids of other organizations or unknown ones are left out). */
export function suppliersByIds(ctx: RequestContext, ids: readonly string[]) {
  return ctx.prisma.supplier.findMany({ where: { organizationId: orgId(ctx), id: { in: [...ids] } } });
}

/** The organization's purchase orders among these ids (ids of other organizations or unknown ones are left out). */
export function purchaseOrdersByIds(ctx: RequestContext, ids: readonly string[]) {
  return ctx.prisma.purchaseOrder.findMany({ where: { organizationId: orgId(ctx), id: { in: [...ids] } } });
}
