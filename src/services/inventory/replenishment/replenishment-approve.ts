import type { RequestContext } from '../../../context.js';
import { inTransaction } from '../../../db/transactions.js';
import type { ReplenishmentRecord } from '../../../generated/prisma/client.js';
import { actorOf } from '../../actor-of.js';
import type { ReplenishmentMoveInput } from './replenishment-create.js';
import { lockRecordFor } from './replenishment-state.js';

/** PROPOSED → APPROVED: approvedAt and approvedBy set. */
export function approveReplenishment(ctx: RequestContext, input: ReplenishmentMoveInput): Promise<ReplenishmentRecord> {
  return inTransaction(ctx, async (ctx) => {
    await lockRecordFor(ctx, input.id, 'approve');
    return ctx.prisma.replenishmentRecord.update({
      where: { id: input.id },
      data: { status: 'APPROVED', approvedAt: new Date(), approvedBy: actorOf(ctx).createdBy, ...(input.comment != null ? { comment: input.comment } : {}) },
    });
  });
}
