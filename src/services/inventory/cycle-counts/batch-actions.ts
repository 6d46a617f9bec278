import type { z } from 'zod';
import type { cycleCountBatchAction } from '../../../contracts/inventory/cycle-counts/cycle-count-batch.js';
import type { RequestContext } from '../../../context.js';
import { inTransaction, type TxContext } from '../../../db/transactions.js';
import { Prisma } from '../../../generated/prisma/client.js';
import { DomainError, newFieldErrors, notFound, validationError } from '../../../kernel/errors.js';
import { actorOf } from '../../actor-of.js';
import { orgId } from '../../tenant.js';
import { readBatch } from './batch-reads.js';
import { countTolerance, withinToleranceSql } from './abc-config.js';
import { resolveCycleCountLines } from './resolve.js';
import { lockCountsAt, openOverlaps, overlapMessage } from './open-lines.js';
import { varianceRank } from './variance-rank.js';

export type BatchActionInput = z.output<typeof cycleCountBatchAction>;
type Count = NonNullable<BatchActionInput['counts']>[number];

interface LockedBatch {
  id: string;
  status: 'IN_PROGRESS' | 'COMPLETED' | 'CANCELLED';
  locationId: string;
  snapshotSeq: bigint;
}

/**
 * The one state table of a batch: IN_PROGRESS takes counts and moves to COMPLETED (every line counted) or
 * CANCELLED; COMPLETED and CANCELLED take nothing. The batch row is locked first, so two requests on one
 * batch run one after the other and each checks the state the other left.
 */
async function lockBatch(ctx: TxContext, batchId: string, action: string): Promise<LockedBatch> {
  const [batch] = await ctx.prisma.$queryRaw<LockedBatch[]>`
    SELECT id, status::text AS status, "locationId", "snapshotSeq" FROM cycle_count_batches
    WHERE id = ${batchId} AND "organizationId" = ${orgId(ctx)} FOR UPDATE`;
  if (!batch) throw notFound('Cycle count batch');
  if (batch.status !== 'IN_PROGRESS') throw new DomainError('INVALID_STATE', `The batch is ${batch.status}: it cannot ${action.toLowerCase()}`);
  return batch;
}

/** Records counts, completes or cancels a batch; answers the batch as it is after. */
export async function updateCycleCountBatch(ctx: RequestContext, batchId: string, input: BatchActionInput) {
  return inTransaction(ctx, async (ctx) => {
    const batch = await lockBatch(ctx, batchId, input.action === 'RECORD' ? 'take counts' : input.action === 'COMPLETE' ? 'complete' : 'be cancelled');
    if (input.action === 'RECORD') await recordCounts(ctx, batch, input.counts!);
    else if (input.action === 'COMPLETE') {
      const open = await ctx.prisma.cycleCountLine.count({ where: { batchId, countedQty: null } });
      if (open) throw new DomainError('INVALID_STATE', `${open} line${open === 1 ? ' is' : 's are'} not counted yet: count or cancel the batch`);
      await ctx.prisma.cycleCountBatch.update({ where: { id: batchId }, data: { status: 'COMPLETED', completedAt: new Date() } });
      await acceptWithinTolerance(ctx, batchId);
    } else {
      await ctx.prisma.cycleCountBatch.update({ where: { id: batchId }, data: { status: 'CANCELLED', cancelledAt: new Date() } });
      await ctx.prisma.cycleCountLine.updateMany({ where: { batchId, varianceRank: { not: null } }, data: { varianceRank: null } });
    }
    return (await readBatch(ctx, batchId))!;
  });
}

const keyOf = (productMasterId: string, lotId: string | null | undefined, binId: string | null | undefined) => `${productMasterId}:${lotId ?? '-'}:${binId ?? '-'}`;

/**
 * Each count names a line of the batch, or a product, lot and bin (a found line when the batch has none).
 * The quantity expected is the line's on hand at the moment of the count, read with its ledger position in
 * one statement: the snapshot plus every movement since, so a sale or receipt during the count is kept.
 */
async function recordCounts(ctx: TxContext, batch: LockedBatch, given: Count[]) {
  const organizationId = orgId(ctx);
  const lines = await ctx.prisma.cycleCountLine.findMany({ where: { batchId: batch.id } });
  const byId = new Map(lines.map((line) => [line.id, line]));
  const byKey = new Map(lines.map((line) => [keyOf(line.productMasterId, line.lotId, line.binId), line]));
  const details = newFieldErrors();
  const named = given.filter((c) => !c.lineId);
  const [products, lots, bins, lotsByCode, binsByCode] = await Promise.all([
    ctx.prisma.productMaster.findMany({ where: { organizationId, id: { in: named.map((c) => c.productMasterId!) } }, select: { id: true, sku: true } }),
    ctx.prisma.lot.findMany({ where: { organizationId, id: { in: named.flatMap((c) => (c.lotId ? [c.lotId] : [])) } }, select: { id: true, productMasterId: true } }),
    ctx.prisma.bin.findMany({ where: { organizationId, locationId: batch.locationId, id: { in: named.flatMap((c) => (c.binId ? [c.binId] : [])) } }, select: { id: true } }),
    ctx.prisma.lot.findMany({
      where: { organizationId, OR: named.flatMap((c) => (c.lotCode ? [{ productMasterId: c.productMasterId!, code: c.lotCode }] : [])) },
      select: { id: true, productMasterId: true, code: true },
    }),
    ctx.prisma.bin.findMany({ where: { organizationId, locationId: batch.locationId, code: { in: named.flatMap((c) => (c.binCode ? [c.binCode] : [])) } }, select: { id: true, code: true } }),
  ]);
  const skuOf = new Map(products.map((p) => [p.id, p.sku]));
  const lotProduct = new Map(lots.map((lot) => [lot.id, lot.productMasterId]));
  const binIds = new Set(bins.map((bin) => bin.id));
  const lotOfCode = new Map(lotsByCode.map((lot) => [`${lot.productMasterId}:${lot.code}`, lot.id]));
  const binOfCode = new Map(binsByCode.map((bin) => [bin.code, bin.id]));
  given.forEach((c, i) => {
    if (c.lineId) {
      if (!byId.has(c.lineId)) details[`counts.${i}.lineId`] = ['Not a line of this batch'];
      else if (byId.get(c.lineId)!.resolution) throw new DomainError('INVALID_STATE', `Line ${c.lineId} is resolved: it takes no more counts`);
      return;
    }
    if (!skuOf.has(c.productMasterId!)) details[`counts.${i}.productMasterId`] = ['Product not found'];
    if (c.lotId && lotProduct.get(c.lotId) !== c.productMasterId) details[`counts.${i}.lotId`] = ['Not a lot of this product'];
    if (c.lotCode && !lotOfCode.has(`${c.productMasterId}:${c.lotCode}`)) details[`counts.${i}.lotCode`] = ['No lot of this product has this code (a count creates no lot)'];
    if (c.binId && !binIds.has(c.binId)) details[`counts.${i}.binId`] = ["Not a bin of the batch's location"];
    if (c.binCode && !binOfCode.has(c.binCode)) details[`counts.${i}.binCode`] = ["No bin of the batch's location has this code (a count creates no bin)"];
  });
  if (Object.keys(details).length) throw validationError(details);
  // From here a lot and a bin are named by id, whichever way the count named them.
  const counts = given.map((c) =>
    c.lineId ? c : { ...c, lotId: c.lotCode ? lotOfCode.get(`${c.productMasterId}:${c.lotCode}`)! : c.lotId, binId: c.binCode ? binOfCode.get(c.binCode)! : c.binId },
  );

  const costs = await ctx.prisma.productMaster.findMany({
    where: { organizationId, id: { in: [...new Set(counts.map((c) => (c.lineId ? byId.get(c.lineId)!.productMasterId : c.productMasterId!)))] } },
    select: { id: true, unitCost: true },
  });
  const costOf = new Map(costs.map((p) => [p.id, p.unitCost]));
  const { createdBy } = actorOf(ctx);
  for (const [i, c] of counts.entries()) {
    let line = c.lineId ? byId.get(c.lineId)! : byKey.get(keyOf(c.productMasterId!, c.lotId, c.binId));
    if (line?.resolution) throw new DomainError('INVALID_STATE', `Line ${line.id} is resolved: it takes no more counts`);
    if (!line) {
      // A found line must not be open in another batch too (it would be corrected twice): checked under the
      // location's count lock, which batch creation takes as well.
      await lockCountsAt(ctx, batch.locationId);
      const [open] = await openOverlaps(ctx, batch.locationId, Prisma.sql`SELECT ${c.productMasterId!}::text AS "productMasterId", ${c.lotId ?? null}::text AS "lotId", ${c.binId ?? null}::text AS "binId"`);
      if (open) {
        throw new DomainError('INVALID_STATE', `${overlapMessage(open)}: count it there, or complete or cancel that count first`, {
          details: { [`counts.${i}.productMasterId`]: [overlapMessage(open)] },
        });
      }
      const stockLine = await ctx.prisma.stockLine.findFirst({
        where: { organizationId, locationId: batch.locationId, productMasterId: c.productMasterId!, lotId: c.lotId ?? null, binId: c.binId ?? null },
        select: { id: true },
      });
      line = await ctx.prisma.cycleCountLine.create({
        data: { batchId: batch.id, organizationId, locationId: batch.locationId, productMasterId: c.productMasterId!, sku: skuOf.get(c.productMasterId!)!, lotId: c.lotId ?? null, binId: c.binId ?? null, stockLineId: stockLine?.id ?? null, snapshotQty: 0, snapshotSeq: batch.snapshotSeq, found: true },
      });
      byId.set(line.id, line);
      byKey.set(keyOf(line.productMasterId, line.lotId, line.binId), line);
    }
    const [now] = line.stockLineId
      ? await ctx.prisma.$queryRaw<{ qty: number; seq: bigint }[]>`
          SELECT sl."qtyOnHand" AS qty, COALESCE((SELECT MAX(t.seq) FROM stock_transactions t WHERE t."stockLineId" = sl.id), 0)::bigint AS seq
          FROM stock_lines sl WHERE sl.id = ${line.stockLineId}`
      : [{ qty: 0, seq: batch.snapshotSeq }];
    const history = [...(line.history as object[])];
    if (line.countedQty !== null) history.push({ countedQty: line.countedQty, expectedQty: line.expectedQty, countedAt: line.countedAt?.toISOString(), countedBy: line.countedBy });
    line = await ctx.prisma.cycleCountLine.update({
      where: { id: line.id },
      data: {
        countedQty: c.countedQty,
        expectedQty: now!.qty,
        countedSeq: now!.seq,
        countedAt: new Date(),
        countedBy: createdBy,
        history,
        unitCost: costOf.get(line.productMasterId) ?? null,
        varianceRank: varianceRank(c.countedQty, now!.qty, costOf.get(line.productMasterId) ?? null),
      },
    });
    byId.set(line.id, line);
    byKey.set(keyOf(line.productMasterId, line.lotId, line.binId), line);
  }
}

/** On completion, the counted lines whose variance is within the organization's tolerance are accepted (one resolve). */
async function acceptWithinTolerance(ctx: TxContext, batchId: string) {
  const tolerance = await countTolerance(ctx);
  const variance = Prisma.sql`(c."countedQty" - c."expectedQty")`;
  const lines = await ctx.prisma.$queryRaw<{ id: string }[]>`
    SELECT c.id FROM cycle_count_lines c
    WHERE c."batchId" = ${batchId} AND c.resolution IS NULL AND c."countedQty" IS NOT NULL
      AND ${withinToleranceSql(tolerance, variance, Prisma.sql`c."expectedQty"`, Prisma.sql`c."unitCost"`)}
    ORDER BY c.id`;
  if (lines.length) {
    await resolveCycleCountLines(ctx, { resolutions: lines.map((line) => ({ lineId: line.id, action: 'ACCEPT' as const, comment: 'Within tolerance when the batch completed' })) });
  }
}
