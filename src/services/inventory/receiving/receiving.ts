import type { z } from 'zod';
import { countSheetQuery as sheetSchema } from '../../../contracts/inventory/receiving/count-sheet-query.js';
import type { recordCountBody as countSchema, recordStockBody as receiptSchema } from '../../../contracts/inventory/receiving/stock-batch.js';
import type { RequestContext } from '../../../context.js';
import { DomainError, newFieldErrors, validationError } from '../../../kernel/errors.js';
import type { Prisma, StockLine, StockTransaction } from '../../../generated/prisma/client.js';
import { uuidv7 } from '../../../db/ids.js';
import { checkFilterIds } from '../../filter-ids.js';
import { type ListWindow, orgId, parseInput } from '../../tenant.js';
import { findReasonCode, reasonDirectionProblem } from '../adjustments/reason-code-rules.js';
import { type LineState, lockLines, applyStockChange } from '../ledger/stock-ledger.js';
import { outOfRange, partsOf } from '../stock-lines/quantities.js';
import { rootCauseProblem, rootCauseThreshold } from '../adjustments/root-cause-rule.js';
import { BATCH_TRANSACTION, type ResolvedLine, resolveBatch } from './batch-lines.js';
import { inTransaction } from '../../../db/transactions.js';

/** The inputs as their contracts output them (parsed once, where they come in). */
export type RecordStockInput = z.output<typeof receiptSchema>;
export type RecordCountInput = z.output<typeof countSchema>;

const stateOf = (line: StockLine, resolved: ResolvedLine): LineState => ({
  ...line,
  lotCode: resolved.lotCode,
  expiryDate: resolved.expiryDate,
  lotRecalled: resolved.lotRecalled,
  binCode: resolved.binCode,
});

/** Changes lines in stock line id order, the order every batch and lockLines take row locks in. */
const inLockOrder = <T extends { stockLineId: string; index: number }>(items: T[]) =>
  [...items].sort((a, b) => (a.stockLineId === b.stockLineId ? a.index - b.index : a.stockLineId < b.stockLineId ? -1 : 1));

/**
 * Received stock (POST /api/inventory/record-stock): adds each line's quantity to its stock line,
 * creating lots, bins and lines as needed, one RECEIPT ledger row per line, all in one transaction:
 * one bad line and nothing is written. Answers each line's state after the batch, in request order.
 */
export async function recordStock(ctx: RequestContext, input: RecordStockInput) {
  const received = await ctx.prisma.reasonCode.findFirst({ where: { organizationId: orgId(ctx), code: 'RECEIVED', active: true } });
  return inTransaction(ctx, async (ctx) => {
    const resolved = await resolveBatch(ctx, input.lines);
    const sourceId = uuidv7();
    const states = new Map<string, LineState>();
    for (const item of inLockOrder(resolved)) {
      const { line } = await applyStockChange(ctx, {
        stockLineId: item.stockLineId,
        deltas: { ON_HAND: item.input.quantity },
        transactionType: 'RECEIPT',
        reasonCodeId: received?.id ?? null,
        reasonCode: received?.code ?? 'RECEIVED',
        comment: item.input.comment?.trim() || null,
        sourceType: 'RECORD_STOCK',
        sourceId,
      }).catch(outOfRange(`lines.${item.index}.quantity`));
      states.set(item.stockLineId, stateOf(line, item));
    }
    return { lines: resolved.map((item) => states.get(item.stockLineId)!) };
  }, BATCH_TRANSACTION);
}

/**
 * Counted stock (POST /api/inventory/adjustments/record-stock): sets each line's on hand to the
 * counted quantity. Every line of the batch is locked before its on hand is read, so each COUNT
 * ledger row's delta is exact even while other requests change the same lines. A line whose count
 * equals its on hand is left alone (no ledger row). All or nothing, like recordStock.
 */
export async function recordCount(ctx: RequestContext, input: RecordCountInput) {
  const reason = await findReasonCode(ctx, input.reasonCodeId, 'reasonCodeId', 'COUNT_CORRECTION');
  return inTransaction(ctx, async (ctx) => {
    const resolved = await resolveBatch(ctx, input.lines);
    const locked = await lockLines(ctx, resolved.map((r) => r.stockLineId));
    const threshold = await rootCauseThreshold(ctx);

    const details = newFieldErrors();
    let insufficient = false;
    const changes = resolved.map((item) => {
      const line = locked.get(item.stockLineId)!;
      const delta = item.input.quantity - line.qtyOnHand;
      const problems: [string, string | null][] = [
        ['quantity', item.input.quantity < partsOf(line) ? `On hand cannot go below ${partsOf(line)}: that many units are reserved, on hold, picked, recalled or expired` : null],
        ['reasonCodeId', reasonDirectionProblem(reason, delta)],
        ['rootCause', rootCauseProblem(threshold, delta, item.input.rootCause ?? input.rootCause)],
      ];
      for (const [field, message] of problems) if (message) (details[`lines.${item.index}.${field}`] ??= []).push(message);
      if (problems[0]![1]) insufficient = true;
      return { ...item, line, delta };
    });
    if (Object.keys(details).length) {
      if (insufficient) throw new DomainError('INSUFFICIENT_STOCK', 'A count is below what its stock line has reserved, held, picked, recalled or expired', { details });
      throw validationError(details);
    }

    const sourceId = uuidv7();
    const transactions = new Map<number, StockTransaction>();
    const states = new Map<string, LineState>(changes.map((c) => [c.stockLineId, { ...c.line }]));
    for (const change of inLockOrder(changes)) {
      if (change.delta === 0) continue;
      const result = await applyStockChange(ctx, {
        stockLineId: change.stockLineId,
        deltas: { ON_HAND: change.delta },
        transactionType: 'COUNT',
        reasonCodeId: reason.id,
        reasonCode: reason.code,
        comment: change.input.comment?.trim() || input.comment?.trim() || null,
        rootCause: change.input.rootCause?.trim() || input.rootCause?.trim() || null,
        sourceType: 'RECORD_COUNT',
        sourceId,
      });
      transactions.set(change.index, result.transactions[0]!);
      states.set(change.stockLineId, stateOf(result.line, change));
    }
    return {
      lines: changes.map((c) => states.get(c.stockLineId)!),
      transactions: changes.flatMap((c) => transactions.get(c.index) ?? []),
      counted: changes.length,
      changed: transactions.size,
    };
  }, BATCH_TRANSACTION);
}

export type CountSheetArgs = z.input<typeof sheetSchema>;

/**
 * A count sheet (GET /api/inventory/adjustments/record-stock): the stock lines at a location with
 * their on hand, by SKU, lot and bin, for a counter to fill in and send back as counted quantities.
 * Returns the paging and filter; the lines themselves load with the caller's selection (countSheetLines).
 */
export async function countSheet(ctx: RequestContext, raw: CountSheetArgs, window?: ListWindow) {
  const args = parseInput(sheetSchema, raw);
  if (!args.locationId) throw validationError({ locationId: ['Required'] }, 'locationId is required');
  const organizationId = orgId(ctx);
  await checkFilterIds(ctx, { locationId: args.locationId, productMasterId: args.productMasterId });
  const where: Prisma.StockLineWhereInput = { organizationId, locationId: args.locationId, ...(args.productMasterId ? { productMasterId: args.productMasterId } : {}) };
  const limit = window ? window.take : (args.limit ?? 500);
  const offset = window ? window.skip : (args.offset ?? 0);
  const total = await ctx.prisma.stockLine.count({ where });
  return { locationId: args.locationId, where, limit, offset, total, hasMore: offset + limit < total };
}

export function countSheetLines(ctx: RequestContext, sheet: Awaited<ReturnType<typeof countSheet>>, query: object) {
  return ctx.prisma.stockLine.findMany({
    ...query,
    where: sheet.where,
    orderBy: [{ productMaster: { sku: 'asc' } }, { lot: { code: 'asc' } }, { bin: { code: 'asc' } }, { id: 'asc' }],
    skip: sheet.offset,
    take: sheet.limit,
  });
}
