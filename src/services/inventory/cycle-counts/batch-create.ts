import type { z } from 'zod';
import { type cycleCountBatchCreate, MAX_BATCH_LINES } from '../../../contracts/inventory/cycle-counts/cycle-count-batch.js';
import type { RequestContext } from '../../../context.js';
import { inTransaction, TRANSACTION } from '../../../db/transactions.js';
import { Prisma } from '../../../generated/prisma/client.js';
import { DomainError, newFieldErrors, validationError } from '../../../kernel/errors.js';
import { actorOf } from '../../actor-of.js';
import { orgId } from '../../tenant.js';
import { readBatch } from './batch-reads.js';
import { cycleCountSuggestions } from './suggestions.js';
import { lockCountsAt, type OpenOverlap, openOverlaps, overlapMessage } from './open-lines.js';

export type BatchCreateInput = z.output<typeof cycleCountBatchCreate>;

/** How many of `wanted` are ids of rows of `table` in the organization (and at the location, for bins). */
async function owned(ctx: RequestContext, table: 'product_masters' | 'bins', wanted: string[], locationId: string) {
  const at = table === 'bins' ? Prisma.sql`AND "locationId" = ${locationId}` : Prisma.empty;
  const rows = await ctx.prisma.$queryRaw<{ id: string }[]>`
    SELECT id FROM ${Prisma.raw(table)} WHERE id = ANY(${wanted}::text[]) AND "organizationId" = ${orgId(ctx)} ${at}`;
  return new Set(rows.map((row) => row.id));
}

/**
 * Creates a batch IN_PROGRESS over every stock line of the products or bins chosen (or of the first N products
 * of the suggestions ranking, read after the location's lock) at the location, each line with its on hand now and its ledger position, read in one
 * statement so they agree.
 */
export async function createCycleCountBatch(ctx: RequestContext, input: BatchCreateInput) {
  const organizationId = orgId(ctx);
  const details = newFieldErrors();
  const location = await ctx.prisma.location.findFirst({ where: { id: input.locationId, organizationId }, select: { id: true } });
  if (!location) throw validationError({ locationId: ['Location not found'] }, 'Location not found');
  if (input.assigneeId && !(await ctx.prisma.membership.count({ where: { userId: input.assigneeId, organizationId } }))) {
    details.assigneeId = ['Not a user of the organization'];
  }
  for (const [key, table] of [['productMasterIds', 'product_masters'], ['binIds', 'bins']] as const) {
    const wanted = input[key];
    if (!wanted) continue;
    const found = await owned(ctx, table, wanted, input.locationId);
    wanted.forEach((id, i) => {
      if (!found.has(id)) details[`${key}.${i}`] = [table === 'bins' ? 'Bin not found at the location' : 'Product not found'];
    });
  }
  if (Object.keys(details).length) throw validationError(details);
  const selector = input.binIds ? 'binIds' : input.suggested ? 'suggested' : 'productMasterIds';

  return inTransaction(
    ctx,
    async (ctx) => {
      // Creates at one location queue here: the second sees the first's batch (and its next N skip those products).
      await lockCountsAt(ctx, input.locationId);
      const productIds = input.suggested
        ? (await cycleCountSuggestions(ctx, { locationId: input.locationId, page: 1, limit: input.suggested }, { skip: 0, take: input.suggested })).suggestions.map((p) => p.productMasterId)
        : input.productMasterIds;
      const which = input.binIds ? Prisma.sql`AND sl."binId" = ANY(${input.binIds}::text[])` : Prisma.sql`AND sl."productMasterId" = ANY(${productIds ?? []}::text[])`;
      const overlaps = await openOverlaps(ctx, input.locationId, Prisma.sql`
        SELECT sl."productMasterId", sl."lotId", sl."binId" FROM stock_lines sl
        WHERE sl."organizationId" = ${organizationId} AND sl."locationId" = ${input.locationId} ${which}`);
      if (overlaps.length) throw overlapRefusal(input, selector, overlaps);
      const batch = await ctx.prisma.cycleCountBatch.create({
        data: { organizationId, locationId: input.locationId, assigneeId: input.assigneeId ?? null, createdBy: actorOf(ctx).createdBy, snapshotSeq: 0n },
      });
      // One statement: each line's on hand and its last ledger row's seq come from the same snapshot.
      const inserted = await ctx.prisma.$executeRaw`
        INSERT INTO cycle_count_lines (id, "batchId", "organizationId", "locationId", "productMasterId", sku, "lotId", "binId", "stockLineId", "snapshotQty", "snapshotSeq", history)
        SELECT gen_random_uuid()::text, ${batch.id}, sl."organizationId", sl."locationId", sl."productMasterId", pm.sku, sl."lotId", sl."binId", sl.id, sl."qtyOnHand",
               COALESCE((SELECT MAX(t.seq) FROM stock_transactions t WHERE t."stockLineId" = sl.id), 0), '[]'::jsonb
        FROM stock_lines sl JOIN product_masters pm ON pm.id = sl."productMasterId"
        WHERE sl."organizationId" = ${organizationId} AND sl."locationId" = ${input.locationId} ${which}`;
      if (inserted === 0) throw validationError({ [selector]: ['No stock line to count at the location'] }, 'Nothing to count');
      if (inserted > MAX_BATCH_LINES) throw validationError({ [selector]: [`Covers ${inserted} stock lines; a batch counts at most ${MAX_BATCH_LINES}`] }, 'Too many lines');
      const [position] = await ctx.prisma.$queryRaw<{ seq: bigint }[]>`
        SELECT COALESCE(MAX("snapshotSeq"), 0)::bigint AS seq FROM cycle_count_lines WHERE "batchId" = ${batch.id}`;
      await ctx.prisma.cycleCountBatch.update({ where: { id: batch.id }, data: { snapshotSeq: position!.seq } });
      return (await readBatch(ctx, batch.id))!;
    },
    TRANSACTION,
  );
}

/**
 * 409 INVALID_STATE when a stock line the batch would cover is in an open count line (another batch counts
 * it, or its variance waits to be resolved): accepting both would correct it twice. `details` names each
 * line and the batch, under the body field that chose it.
 */
function overlapRefusal(input: BatchCreateInput, selector: string, overlaps: OpenOverlap[]): DomainError {
  const details = newFieldErrors();
  const add = (field: string, message: string) => (details[field] ??= []).push(message);
  for (const o of overlaps) {
    const i = input.productMasterIds?.indexOf(o.productMasterId) ?? -1;
    const b = o.binId ? (input.binIds?.indexOf(o.binId) ?? -1) : -1;
    add(i >= 0 ? `productMasterIds.${i}` : b >= 0 ? `binIds.${b}` : selector, overlapMessage(o));
  }
  const batches = [...new Set(overlaps.map((o) => o.batchId))];
  const lines = new Set(overlaps.map((o) => `${o.productMasterId}:${o.lotId}:${o.binId}`)).size;
  return new DomainError(
    'INVALID_STATE',
    `${lines} of the stock lines to count ${lines === 1 ? 'is' : 'are'} in open count lines of batch${batches.length === 1 ? '' : 'es'} ${batches.join(', ')}: ` +
      'complete or cancel that count, or resolve its variances, first',
    { details },
  );
}
