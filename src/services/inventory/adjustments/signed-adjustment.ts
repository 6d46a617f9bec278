import type { RequestContext } from '../../../context.js';
import { validationError } from '../../../kernel/errors.js';
import { inTransaction, TRANSACTION } from '../../../db/transactions.js';
import { orgId } from '../../tenant.js';
import { checkOnHandFloor, outOfRange } from '../stock-lines/quantities.js';
import { checkReasonDirection, findReasonCode } from './reason-code-rules.js';
import { rootCauseProblem, rootCauseThreshold } from './root-cause-rule.js';
import { signed, unknownInBody } from './adjustment-messages.js';
import { addToOnHand, lockLines, type SignedOnHandChange } from '../ledger/stock-ledger.js';

/**
 * Adds a signed amount to a line's on hand in one statement (addToOnHand, in the ledger); when that
 * statement refuses, tries once more with the line locked and otherwise says why, in the order a caller
 * fixes things.
 */
export async function applySignedAdjustment(ctx: RequestContext, input: SignedOnHandChange) {
  const problem = rootCauseProblem(await rootCauseThreshold(ctx), input.delta, input.rootCause);
  if (problem) {
    await diagnose(ctx, input);
    throw validationError({ rootCause: [problem] });
  }
  // One statement on the fast path. When it refuses, either the change is not allowed or the line changed
  // in between: with the line locked, a second try and the diagnosis see the same line, so the answer is
  // final (applied, or the refusal that holds) and never "try again".
  const result = await tryAdjustment(ctx, input);
  if (result) return result;
  return inTransaction(
    ctx,
    async (tx) => {
      await lockLines(tx, [input.inventoryItemId]);
      const locked = await tryAdjustment(tx, input);
      if (locked) return locked;
      await diagnose(tx, input);
      throw new Error('A signed adjustment was refused while the locked line allows it: the statement and diagnose disagree');
    },
    TRANSACTION,
  );
}

async function tryAdjustment(ctx: RequestContext, input: SignedOnHandChange) {
  const result = await addToOnHand(ctx, input).catch(outOfRange('delta'));
  if (!result) return null;
  const { line, transaction } = result;
  return {
    success: true as const,
    transaction,
    inventoryItem: line,
    message: `Adjusted on hand by ${signed(input.delta)} (from ${transaction.qtyBefore} to ${transaction.qtyAfter})`,
  };
}

/**
 * Why an adjustment cannot be made, checked in the order a caller fixes things: the reason code, the
 * line, the quantity rule, the reason's direction. Throws the first problem; returns when there is none.
 */
async function diagnose(ctx: RequestContext, input: SignedOnHandChange): Promise<void> {
  const reason = await findReasonCode(ctx, input.reasonCodeId, 'reasonCodeId');
  const line = await ctx.prisma.stockLine.findFirst({ where: { id: input.inventoryItemId, organizationId: orgId(ctx) } });
  if (!line) throw unknownInBody('inventoryItemId', 'Inventory item');
  checkOnHandFloor(line, line.qtyOnHand + input.delta, 'delta');
  checkReasonDirection(reason, input.delta, 'reasonCodeId');
}
