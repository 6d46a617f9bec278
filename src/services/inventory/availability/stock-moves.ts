import type { z } from 'zod';
import type { stockMove as moveSchema } from '../../../contracts/inventory/availability/stock-move.js';
import type { RequestContext } from '../../../context.js';
import { DomainError, notFound, validationError } from '../../../kernel/errors.js';
import type { StockTransaction } from '../../../generated/prisma/client.js';
import { orgId } from '../../tenant.js';
import { toAvailabilityLine, type AvailabilityLine } from './availability.js';
import { lineExcluded, type Bucket } from '../stock-lines/quantities.js';
import { applyStockChange } from '../ledger/stock-ledger.js';
import { inTransaction } from '../../../db/transactions.js';

/**
 * How each move shifts quantity between the buckets of one line, per unit. On hand never changes here
 * (shipping, which takes picked units off on hand, belongs to fulfilment). Moves into a bucket take
 * from available, so the guarded update refuses them beyond it; moves out of a bucket are refused
 * beyond what the bucket holds.
 */
export const STOCK_MOVES = {
  RESERVE: { RESERVED: 1 },
  RELEASE: { RESERVED: -1 },
  PICK: { RESERVED: -1, PICKED: 1 },
  UNPICK: { PICKED: -1, RESERVED: 1 },
  HOLD: { ON_HOLD: 1 },
  RELEASE_HOLD: { ON_HOLD: -1 },
  RECALL: { RECALLED: 1 },
  RELEASE_RECALL: { RECALLED: -1 },
  EXPIRE: { EXPIRED: 1 },
} as const satisfies Record<string, Partial<Record<Bucket, 1 | -1>>>;

export type StockMoveAction = keyof typeof STOCK_MOVES;
export const STOCK_MOVE_ACTIONS = Object.keys(STOCK_MOVES) as StockMoveAction[];

/** Promising or picking stock of an expired or recalled lot is refused even when the buckets would allow it. */
const NEEDS_USABLE_LOT: ReadonlySet<StockMoveAction> = new Set(['RESERVE', 'PICK']);

/** The input as its contract outputs it (parsed once, where it comes in). */
export type StockMoveInput = z.output<typeof moveSchema>;

export interface StockMoveResult {
  success: true;
  inventoryItem: AvailabilityLine;
  transactions: StockTransaction[];
}

async function reasonOf(ctx: RequestContext, reasonCodeId: string | null | undefined) {
  if (!reasonCodeId) return null;
  const reason = await ctx.prisma.reasonCode.findFirst({ where: { id: reasonCodeId, organizationId: orgId(ctx), active: true }, select: { id: true, code: true } });
  if (!reason) throw validationError({ reasonCodeId: ['Unknown reason code'] });
  return reason;
}

/**
 * Moves `quantity` units between the buckets of one stock line, atomically: one guarded update and one
 * ledger row per changed bucket, in one transaction. A refused move changes nothing.
 */
export async function moveStock(ctx: RequestContext, stockLineId: string, input: StockMoveInput): Promise<StockMoveResult> {
  const organizationId = orgId(ctx);
  const current = await ctx.prisma.stockLine.findFirst({
    where: { id: stockLineId, organizationId },
    select: { lot: { select: { expiryDate: true, recalled: true } } },
  });
  if (!current) throw notFound('Inventory item');
  if (NEEDS_USABLE_LOT.has(input.action) && lineExcluded(current.lot, {})) {
    throw new DomainError('INSUFFICIENT_STOCK', `Cannot ${input.action.toLowerCase()} stock of an expired or recalled lot`, {
      details: { quantity: ['Nothing is available on this line: its lot is expired or recalled'] },
    });
  }
  const reason = await reasonOf(ctx, input.reasonCodeId);
  const deltas = Object.fromEntries(Object.entries(STOCK_MOVES[input.action]).map(([bucket, sign]) => [bucket, sign * input.quantity]));
  const { line, transactions } = await inTransaction(ctx, (ctx) =>
    applyStockChange(ctx, {
      stockLineId,
      deltas,
      transactionType: input.action,
      reasonCodeId: reason?.id ?? null,
      reasonCode: reason?.code ?? null,
      comment: input.comment,
      sourceType: input.sourceType,
      sourceId: input.sourceId,
    }),
  );
  return { success: true, inventoryItem: toAvailabilityLine({ ...line, lot: current.lot }, {}), transactions };
}
