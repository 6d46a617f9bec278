import type { z } from 'zod';
import type { stockAdjustment as absoluteSchema, stockDeltaAdjustment as deltaSchema } from '../../../contracts/inventory/adjustments/stock-adjustment.js';
import type { RequestContext } from '../../../context.js';
import { validationError } from '../../../kernel/errors.js';
import type { StockTransaction } from '../../../generated/prisma/client.js';
import { uuidv7 } from '../../../db/ids.js';
import { orgId } from '../../tenant.js';
import { checkOnHandFloor } from '../stock-lines/quantities.js';
import { checkReasonDirection, findReasonCode } from './reason-code-rules.js';
import { type LineState, lockLines, applyStockChange } from '../ledger/stock-ledger.js';
import { rootCauseProblem, rootCauseThreshold } from './root-cause-rule.js';
import { signed, unknownInBody } from './adjustment-messages.js';
import { TRANSACTION, inTransaction } from '../../../db/transactions.js';
import { applySignedAdjustment } from './signed-adjustment.js';

/** The inputs as their contracts output them (parsed once, where they come in). */
export type AbsoluteAdjustmentInput = z.output<typeof absoluteSchema>;
export type DeltaAdjustmentInput = z.output<typeof deltaSchema>;

export interface AdjustmentResult {
  success: true;
  transaction: StockTransaction;
  inventoryItem: LineState;
  message: string;
}

/** Changes on hand by a signed amount (POST /api/inventory/adjust): one statement, see signed-adjustment.ts. */
export function adjustStockBy(ctx: RequestContext, input: DeltaAdjustmentInput): Promise<AdjustmentResult> {
  return applySignedAdjustment(ctx, {
    inventoryItemId: input.inventoryItemId,
    delta: input.delta,
    reasonCodeId: input.reasonCodeId,
    comment: input.comment?.trim() || null,
    rootCause: input.rootCause?.trim() || null,
  });
}

/**
 * Sets on hand to an absolute quantity (POST /api/inventory/adjustments). The line is locked (SELECT ...
 * FOR UPDATE) before its current on hand is read, so the change computed from it is applied to exactly
 * that value even when other requests adjust the same line at the same time; they wait for this
 * transaction and then see its result.
 */
export async function adjustStock(ctx: RequestContext, input: AbsoluteAdjustmentInput): Promise<AdjustmentResult> {
  const newQty = input.newQtyOnHand;
  const reason = await findReasonCode(ctx, input.reasonCodeId, 'reasonCodeId');
  return inTransaction(ctx, async (ctx) => {
    const line = (await lockLines(ctx, [input.inventoryItemId])).get(input.inventoryItemId);
    if (!line) throw unknownInBody('inventoryItemId', 'Inventory item');
    const delta = newQty - line.qtyOnHand;
    if (delta === 0) throw validationError({ newQtyOnHand: [`On hand is already ${line.qtyOnHand}: nothing to adjust`] }, 'No change: on hand is already that quantity');
    checkOnHandFloor(line, newQty, 'newQtyOnHand');
    checkReasonDirection(reason, delta, 'reasonCodeId');
    const problem = rootCauseProblem(await rootCauseThreshold(ctx), delta, input.rootCause);
    if (problem) throw validationError({ rootCause: [problem] });

    const { line: updated, transactions } = await applyStockChange(ctx, {
      stockLineId: line.id,
      deltas: { ON_HAND: delta },
      transactionType: 'ADJUSTMENT',
      reasonCodeId: reason.id,
      reasonCode: reason.code,
      comment: input.comment?.trim() || null,
      rootCause: input.rootCause?.trim() || null,
      sourceType: 'ADJUSTMENT',
      sourceId: uuidv7(),
    });
    const transaction = transactions[0]!;
    return {
      success: true as const,
      transaction,
      inventoryItem: { ...line, ...updated },
      message: `Adjusted on hand by ${signed(delta)} (from ${transaction.qtyBefore} to ${transaction.qtyAfter})`,
    };
  }, TRANSACTION);
}

/** The organization's active reason codes, by code (GET /api/inventory/adjustments/reason-codes). */
export function activeReasonCodes(ctx: RequestContext, query: object = {}) {
  return ctx.prisma.reasonCode.findMany({ ...query, where: { organizationId: orgId(ctx), active: true }, orderBy: { code: 'asc' } });
}
