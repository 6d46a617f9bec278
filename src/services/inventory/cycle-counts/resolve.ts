import type { z } from 'zod';
import type { cycleCountResolve } from '../../../contracts/inventory/cycle-counts/resolve.js';
import type { RequestContext } from '../../../context.js';
import { inTransaction, TRANSACTION, type TxContext } from '../../../db/transactions.js';
import { DomainError, newFieldErrors, validationError } from '../../../kernel/errors.js';
import { actorOf } from '../../actor-of.js';
import { orgId } from '../../tenant.js';
import { findReasonCode } from '../adjustments/reason-code-rules.js';
import { applyStockChange, findOrCreateStockLine, lockLines } from '../ledger/stock-ledger.js';
import { checkOnHandFloor } from '../stock-lines/quantities.js';

export type ResolveInput = z.output<typeof cycleCountResolve>;

interface LockedLine {
  id: string;
  batchId: string;
  status: string;
  locationId: string;
  productMasterId: string;
  lotId: string | null;
  binId: string | null;
  stockLineId: string | null;
  countedQty: number | null;
  expectedQty: number | null;
  countedAt: Date | null;
  countedBy: string | null;
  resolution: string | null;
  history: object[];
}

export interface Resolution {
  lineId: string;
  action: 'ACCEPT' | 'REJECT';
  /** The change written to on hand (0 when the count matched; null for a rejection). */
  correctionQty: number | null;
  stockLineId: string | null;
  transactionId: string | null;
}

/**
 * Accepts or rejects counted lines, all in one transaction. Each count line is locked first (FOR UPDATE) and
 * must be counted and unresolved, so resolving a line twice, at once or later, has one effect (the second
 * is 409 INVALID_STATE). An accepted variance is countedQty − expectedQty, the difference at the moment of
 * the count; it is added to on hand as it is now under the stock line's lock, so whatever moved since
 * (a sale, an adjustment) is kept. Accepting sets the product's last counted date at the location.
 */
export async function resolveCycleCountLines(ctx: RequestContext, input: ResolveInput): Promise<{ resolutions: Resolution[] }> {
  const reasons = new Map<number, Awaited<ReturnType<typeof findReasonCode>>>();
  for (const [i, r] of input.resolutions.entries()) {
    if (r.action === 'ACCEPT') reasons.set(i, await findReasonCode(ctx, r.reasonCodeId, `resolutions.${i}.reasonCodeId`, 'COUNT_CORRECTION'));
  }
  return inTransaction(
    ctx,
    async (ctx) => {
      const ids = input.resolutions.map((r) => r.lineId);
      const lines = await lockCountLines(ctx, ids);
      const details = newFieldErrors();
      input.resolutions.forEach((r, i) => {
        if (!lines.has(r.lineId)) details[`resolutions.${i}.lineId`] = ['Not a line of a cycle count batch of the organization'];
        else if (ids.indexOf(r.lineId) !== i) details[`resolutions.${i}.lineId`] = ['Named twice'];
      });
      if (Object.keys(details).length) throw validationError(details);
      for (const r of input.resolutions) {
        const line = lines.get(r.lineId)!;
        if (line.status === 'CANCELLED') throw new DomainError('INVALID_STATE', `Line ${line.id}: its batch is CANCELLED`);
        if (line.resolution) throw new DomainError('INVALID_STATE', `Line ${line.id} is already ${line.resolution}`);
        if (line.countedQty === null) throw new DomainError('INVALID_STATE', `Line ${line.id} is not counted${line.history.length ? ' (a recount was asked for)' : ''}`);
      }
      const { createdBy } = actorOf(ctx);
      const resolutions: Resolution[] = [];
      for (const [i, r] of input.resolutions.entries()) {
        const line = lines.get(r.lineId)!;
        if (r.action === 'REJECT') {
          const history = [...line.history, { countedQty: line.countedQty, expectedQty: line.expectedQty, countedAt: line.countedAt?.toISOString(), countedBy: line.countedBy, rejectedBy: createdBy }];
          await ctx.prisma.cycleCountLine.update({ where: { id: line.id }, data: { countedQty: null, expectedQty: null, countedSeq: null, countedAt: null, countedBy: null, unitCost: null, varianceRank: null, history } });
          resolutions.push({ lineId: line.id, action: 'REJECT', correctionQty: null, stockLineId: line.stockLineId, transactionId: null });
          continue;
        }
        const delta = line.countedQty! - line.expectedQty!;
        let stockLineId = line.stockLineId;
        let transactionId: string | null = null;
        if (delta !== 0) {
          stockLineId ??= (await findOrCreateStockLine(ctx, { productMasterId: line.productMasterId, locationId: line.locationId, lotId: line.lotId, binId: line.binId })).id;
          const current = (await lockLines(ctx, [stockLineId])).get(stockLineId)!;
          checkOnHandFloor(current, current.qtyOnHand + delta, `resolutions.${i}.lineId`);
          const reason = reasons.get(i)!;
          const { transactions } = await applyStockChange(ctx, {
            stockLineId,
            deltas: { ON_HAND: delta },
            transactionType: 'COUNT_CORRECTION',
            reasonCodeId: reason.id,
            reasonCode: reason.code,
            comment: r.comment?.trim() || null,
            sourceType: 'CYCLE_COUNT',
            sourceId: line.batchId,
          });
          transactionId = transactions[0]!.id;
        }
        await ctx.prisma.cycleCountLine.update({
          where: { id: line.id },
          data: { resolution: 'ACCEPTED', resolvedAt: new Date(), resolvedBy: createdBy, correctionQty: delta, stockLineId, varianceRank: null },
        });
        await markCounted(ctx, line.productMasterId, line.locationId, line.countedAt!);
        resolutions.push({ lineId: line.id, action: 'ACCEPT', correctionQty: delta, stockLineId, transactionId });
      }
      return { resolutions };
    },
    TRANSACTION,
  );
}

/** The count lines of the organization's batches, locked, in id order (one lock order for every caller). */
async function lockCountLines(ctx: TxContext, ids: string[]) {
  // Batches first, then lines: the order recording counts takes them, so the two never deadlock and a
  // count recorded at the same moment lands either before the resolution (and is resolved) or after (refused).
  await ctx.prisma.$queryRaw`
    SELECT b.id FROM cycle_count_batches b
    WHERE b."organizationId" = ${orgId(ctx)} AND b.id IN (SELECT c."batchId" FROM cycle_count_lines c WHERE c.id = ANY(${ids}::text[]))
    ORDER BY b.id FOR UPDATE`;
  const rows = await ctx.prisma.$queryRaw<LockedLine[]>`
    SELECT c.id, c."batchId", b.status::text AS status, b."locationId", c."productMasterId", c."lotId", c."binId", c."stockLineId",
           c."countedQty", c."expectedQty", c."countedAt", c."countedBy", c.resolution, c.history
    FROM cycle_count_lines c JOIN cycle_count_batches b ON b.id = c."batchId"
    WHERE c.id = ANY(${ids}::text[]) AND b."organizationId" = ${orgId(ctx)}
    ORDER BY c.id
    FOR UPDATE OF c`;
  return new Map(rows.map((row) => [row.id, row]));
}

/** The product's last counted date at the location (its inventory level, created with defaults when missing). */
async function markCounted(ctx: TxContext, productMasterId: string, locationId: string, countedAt: Date) {
  const organizationId = orgId(ctx);
  await ctx.prisma.inventoryLevel.upsert({
    where: { productMasterId_locationId: { productMasterId, locationId } },
    create: { organizationId, productMasterId, locationId, lastCountedAt: countedAt },
    update: { lastCountedAt: countedAt },
  });
}
