import type { RequestContext } from '../../../context.js';
import { DomainError } from '../../../kernel/errors.js';
import { actorOf } from '../../actor-of.js';
import { orgId } from '../../tenant.js';
import { createShippedTransfer } from '../inventory-transfers/transfer-shipping.js';
import { notFrom } from './recommendations.js';
import { NOW_UTC, recommendationColumns, type TransferRecommendationRow } from './recommendation-rows.js';
import { inTransaction } from '../../../db/transactions.js';

const EXECUTE_TX_OPTIONS = { maxWait: 15_000, timeout: 20_000 };

/**
 * APPROVED → EXECUTED, exactly once, in ONE transaction: the guarded UPDATE claims the row (a second
 * execute waits on its lock, then finds it no longer APPROVED: 409), the inventory transfer is created and
 * shipped for the recommended quantity (its stock leaves the source through the ledger, TRANSFER_OUT rows),
 * and the recommendation is linked to it. Not enough available stock at the source: 400
 * INSUFFICIENT_STOCK with details.quantity, and everything rolls back (the recommendation stays APPROVED).
 */
export function executeTransferRecommendation(ctx: RequestContext, id: string): Promise<TransferRecommendationRow> {
  const { actorType, createdBy } = actorOf(ctx);
  const organizationId = orgId(ctx);
  return inTransaction(ctx, async (ctx) => {
    const tx = ctx.prisma;
    const [claimed] = await tx.$queryRaw<TransferRecommendationRow[]>`
      UPDATE transfer_recommendations r
      SET status = 'EXECUTED', "executedAt" = ${NOW_UTC}, "executedByType" = ${actorType}, "executedBy" = ${createdBy}, "updatedAt" = ${NOW_UTC}
      WHERE r.id = ${id} AND r."organizationId" = ${organizationId} AND r.status = 'APPROVED'
      RETURNING ${recommendationColumns('r')}`;
    if (!claimed) return notFrom(ctx, id, 'APPROVED', 'executed');
    let transferId: string;
    try {
      const transfer = await createShippedTransfer(ctx, {
        sourceLocationId: claimed.sourceLocationId,
        destLocationId: claimed.destLocationId,
        lines: [{ productMasterId: claimed.productMasterId, quantity: claimed.quantity }],
        sourceType: 'RECOMMENDATION',
        sourceId: claimed.id,
      });
      transferId = transfer.id;
    } catch (error) {
      if (error instanceof DomainError && error.code === 'INSUFFICIENT_STOCK') {
        const message = Object.values(error.details ?? {}).flat()[0] ?? error.message;
        throw new DomainError('INSUFFICIENT_STOCK', 'Not enough available stock at the source to execute the recommendation; it stays APPROVED', {
          details: { quantity: [message] },
        });
      }
      throw error;
    }
    const [linked] = await tx.$queryRaw<TransferRecommendationRow[]>`
      UPDATE transfer_recommendations r SET "transferId" = ${transferId} WHERE r.id = ${id} RETURNING ${recommendationColumns('r')}`;
    return linked!;
  }, EXECUTE_TX_OPTIONS);
}
