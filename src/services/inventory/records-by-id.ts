import type { RequestContext } from '../../context.js';
import { orgId } from '../tenant.js';
import { Prisma, type Bin, type Lot, type StockLine } from '../../generated/prisma/client.js';
import { rowsByIds } from '../rows-by-ids.js';

// Reads of inventory records by id for the links of other types (one statement per page of ids).
// Each leaves out ids of other organizations and unknown ones.

/** The organization's bins among these ids. */
export function binsByIds(ctx: RequestContext, ids: readonly string[]) {
  return rowsByIds<Bin>(ctx, 'bins', Prisma.BinScalarFieldEnum, ids);
}

/** The organization's lots among these ids. */
export function lotsByIds(ctx: RequestContext, ids: readonly string[]) {
  return rowsByIds<Lot>(ctx, 'lots', Prisma.LotScalarFieldEnum, ids);
}

/** The organization's stock lines among these ids. */
export function stockLinesByIds(ctx: RequestContext, ids: readonly string[]) {
  return rowsByIds<StockLine>(ctx, 'stock_lines', Prisma.StockLineScalarFieldEnum, ids);
}

/** The organization's channel allocation policies among these ids. */
export function allocationPoliciesByIds(ctx: RequestContext, ids: readonly string[]) {
  return ctx.prisma.channelAllocationPolicy.findMany({ where: { organizationId: orgId(ctx), id: { in: [...ids] } } });
}
