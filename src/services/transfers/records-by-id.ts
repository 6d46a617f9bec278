import type { RequestContext } from '../../context.js';
import { orgId } from '../tenant.js';
import { TRANSFER_WITH_LINES } from './inventory-transfers/transfer-shape.js';

/** The organization's inventory transfers among these ids, with their lines (ids of other organizations or unknown ones are left out). */
export function inventoryTransfersByIds(ctx: RequestContext, ids: readonly string[]) {
  return ctx.prisma.inventoryTransfer.findMany({ where: { organizationId: orgId(ctx), id: { in: [...ids] } }, ...TRANSFER_WITH_LINES });
}
