import type { RequestContext } from '../../../context.js';
import { inTransaction } from '../../../db/transactions.js';
import type { ReplenishmentRecord } from '../../../generated/prisma/client.js';
import { actorOf } from '../../actor-of.js';
import type { ReplenishmentMoveInput } from './replenishment-create.js';
import { lockRecordFor } from './replenishment-state.js';

/** PROPOSED or APPROVED → CANCELLED: cancelledAt and cancelledBy set; nothing was ordered, so nothing else changes. */
export function cancelReplenishment(ctx: RequestContext, input: ReplenishmentMoveInput): Promise<ReplenishmentRecord> {
  return inTransaction(ctx, async (ctx) => {
    await lockRecordFor(ctx, input.id, 'cancel');
    return ctx.prisma.replenishmentRecord.update({
      where: { id: input.id },
      data: { status: 'CANCELLED', cancelledAt: new Date(), cancelledBy: actorOf(ctx).createdBy, ...(input.comment != null ? { comment: input.comment } : {}) },
    });
  });
}
