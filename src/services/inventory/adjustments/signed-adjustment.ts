import type { RequestContext } from '../../../context.js';
import { DomainError, validationError } from '../../../kernel/errors.js';
import { orgId } from '../../tenant.js';
import { checkOnHandFloor, outOfRange } from '../stock-lines/quantities.js';
import { checkReasonDirection, findReasonCode } from './reason-code-rules.js';
import { rootCauseProblem, rootCauseThreshold } from './root-cause-rule.js';
import { signed, unknownInBody } from './adjustment-messages.js';
import { addToOnHand, type SignedOnHandChange } from '../ledger/stock-ledger.js';

/**
 * Adds a signed amount to a line's on hand in one statement (addToOnHand, in the ledger); when that
 * statement refuses, says why in the order a caller fixes things.
 */
export async function applySignedAdjustment(ctx: RequestContext, input: SignedOnHandChange) {
  const problem = rootCauseProblem(await rootCauseThreshold(ctx), input.delta, input.rootCause);
  if (problem) {
    await diagnose(ctx, input);
    throw validationError({ rootCause: [problem] });
  }
  // A refusal whose checks all pass on a second look means the line changed in between: try again.
  for (let attempt = 1; ; attempt++) {
    const result = await tryAdjustment(ctx, input);
    if (result) return result;
    await diagnose(ctx, input);
    if (attempt === 3) throw new DomainError('CONFLICT', 'The stock line kept changing while the adjustment was applied; retry the request');
  }
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
