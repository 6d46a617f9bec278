// Channel allocation policies: how much of a location's available stock a channel may promise
// (the rule that uses them is in channel-atp.ts). One policy per channel and location.
import type { z } from 'zod';
import type { allocationPolicyInput } from '../../../contracts/inventory/channel-atp/allocation-policy.js';
import type { RequestContext } from '../../../context.js';
import { notFound } from '../../../kernel/errors.js';
import { checkFilterIds } from '../../filter-ids.js';
import { orgId } from '../../tenant.js';
import { inTransaction } from '../../../db/transactions.js';

type Query = { select?: object; include?: object };

/** The input as its contract outputs it (parsed once, where it comes in). */
export type SetAllocationPolicyInput = z.output<typeof allocationPolicyInput>;

export async function listAllocationPolicies(
  ctx: RequestContext,
  filter: { locationId?: string | null; channelId?: string | null },
  query: Query = {},
) {
  await checkFilterIds(ctx, filter);
  // id last: a total order, which a connection's cursor needs.
  return ctx.prisma.channelAllocationPolicy.findMany({ ...query, where: policyWhere(ctx, filter), orderBy: [{ locationId: 'asc' }, { channelId: 'asc' }, { id: 'asc' }] });
}

/** The count of the same policies; a foreign filter id is the list's 404 even when only the count is asked. */
export async function countAllocationPolicies(ctx: RequestContext, filter: { locationId?: string | null; channelId?: string | null }) {
  await checkFilterIds(ctx, filter);
  return ctx.prisma.channelAllocationPolicy.count({ where: policyWhere(ctx, filter) });
}

function policyWhere(ctx: RequestContext, filter: { locationId?: string | null; channelId?: string | null }) {
  return {
    organizationId: orgId(ctx),
    ...(filter.locationId ? { locationId: filter.locationId } : {}),
    ...(filter.channelId ? { channelId: filter.channelId } : {}),
  };
}

/**
 * Creates or replaces the policy of a channel at a location. The value of the other mode is cleared
 * (sharePct for FIXED, fixedQuantity for SHARE); an absent lowAtpThreshold keeps the current one (0 when new).
 */
export async function setAllocationPolicy(ctx: RequestContext, input: SetAllocationPolicyInput, query: Query = {}) {
  const organizationId = orgId(ctx);
  const [channel, location] = await Promise.all([
    ctx.prisma.channel.count({ where: { id: input.channelId, organizationId } }),
    ctx.prisma.location.count({ where: { id: input.locationId, organizationId } }),
  ]);
  if (!channel) throw notFound('Channel');
  if (!location) throw notFound('Location');
  const terms = {
    mode: input.mode,
    sharePct: input.mode === 'SHARE' ? input.sharePct! : null,
    fixedQuantity: input.mode === 'FIXED' ? input.fixedQuantity! : null,
  };
  const threshold = input.lowAtpThreshold ?? undefined;
  // An upsert on the unique (channel, location) pair: concurrent calls cannot create two policies.
  return ctx.prisma.channelAllocationPolicy.upsert({
    ...query,
    where: { channelId_locationId: { channelId: input.channelId, locationId: input.locationId } },
    create: { organizationId, channelId: input.channelId, locationId: input.locationId, ...terms, lowAtpThreshold: threshold ?? 0 },
    update: { ...terms, lowAtpThreshold: threshold },
  });
}

/** Deletes a policy and returns it as it was; the channel is then unrestricted at that location. */
export function deleteAllocationPolicy(ctx: RequestContext, id: string, query: Query = {}) {
  return inTransaction(ctx, async (ctx) => {
    const tx = ctx.prisma;
    const where = { id, organizationId: orgId(ctx) };
    const policy = await tx.channelAllocationPolicy.findFirst({ ...query, where });
    if (!policy) throw notFound('Allocation policy');
    await tx.channelAllocationPolicy.deleteMany({ where });
    return policy;
  });
}
