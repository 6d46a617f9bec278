import type { z } from 'zod';
import type { transferCostInput as inputSchema, transferCostQuery as querySchema } from '../../../contracts/transfers/recommendations/recommendations.js';
import type { RequestContext } from '../../../context.js';
import { newFieldErrors, validationError } from '../../../kernel/errors.js';
import { checkFilterIds } from '../../filter-ids.js';
import { orgId } from '../../tenant.js';

/** The input and the filters as their contracts output them (parsed once, where they come in). */
export type TransferCostInput = z.output<typeof inputSchema>;
export type TransferCostQuery = z.output<typeof querySchema>;

/** The organization's costs per location pair, and the cost of pairs without one. */
export async function listTransferCosts(ctx: RequestContext, args: TransferCostQuery = {}) {
  const organizationId = orgId(ctx);
  await checkFilterIds(ctx, { locationId: [args.sourceLocationId, args.destLocationId] });
  const costs = await ctx.prisma.transferCost.findMany({
    where: { organizationId, sourceLocationId: args.sourceLocationId, destLocationId: args.destLocationId },
    orderBy: [{ sourceLocationId: 'asc' }, { destLocationId: 'asc' }],
  });
  return { costs, defaultCostPerUnit: ctx.app.config.transfers.defaultUnitCost };
}

/** Sets the cost of one direction of a pair (creating or replacing it); both locations must be the organization's (400 naming them otherwise). */
export async function setTransferCost(ctx: RequestContext, input: TransferCostInput) {
  const organizationId = orgId(ctx);
  const found = await ctx.prisma.location.findMany({ where: { organizationId, id: { in: [input.sourceLocationId, input.destLocationId] } }, select: { id: true } });
  const known = new Set(found.map((l) => l.id));
  const details = newFieldErrors();
  if (!known.has(input.sourceLocationId)) details.sourceLocationId = ['Location not found'];
  if (!known.has(input.destLocationId)) details.destLocationId = ['Location not found'];
  if (Object.keys(details).length) throw validationError(details);
  const pair = { organizationId, sourceLocationId: input.sourceLocationId, destLocationId: input.destLocationId };
  return ctx.prisma.transferCost.upsert({
    where: { organizationId_sourceLocationId_destLocationId: pair },
    create: { ...pair, costPerUnit: input.costPerUnit },
    update: { costPerUnit: input.costPerUnit },
  });
}
