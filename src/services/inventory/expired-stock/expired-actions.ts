import type { z } from 'zod';
import type { RequestContext } from '../../../context.js';
import { MAX_FILTERED_EXPIRED_LINES, type expiredStockAction } from '../../../contracts/inventory/expired-stock/expired-stock.js';
import { inTransaction } from '../../../db/transactions.js';
import { DomainError, newFieldErrors, validationError } from '../../../kernel/errors.js';
import { isoDay } from '../../../kernel/iso-dates.js';
import { orgId } from '../../tenant.js';
import { isTenantAdmin } from '../../tenant-admin.js';
import { findReasonCode } from '../adjustments/reason-code-rules.js';
import { applyStockChangeSeries, lockLines, type LineState, type StockChange } from '../ledger/stock-ledger.js';
import { availableQty, expiredBefore, startOfTodayUtc } from '../stock-lines/quantities.js';

export type ExpiredStockAction = z.output<typeof expiredStockAction>;
export type ExpiredActionKind = 'EXPIRE' | 'CONSUME';

export interface ExpiredActionLine {
  stockLineId: string;
  lotId: string | null;
  lotCode: string | null;
  expiryDate: string | null;
  quantity: number;
  qtyOnHand: number;
  qtyExpired: number;
}

export interface ExpiredActionResult {
  success: true;
  action: ExpiredActionKind;
  lines: ExpiredActionLine[];
  totalQuantity: number;
}

/** A tenant administrator (an ADMIN user or a key with every scope) may act on stock that has not expired. */
const mayForce = isTenantAdmin;

/** `force` from anyone else is refused like a missing permission, not a wrong value: 403, before anything is read. */
export function checkForce(ctx: RequestContext, input: { force?: boolean | null }) {
  if (input.force && !mayForce(ctx)) throw new DomainError('FORBIDDEN', 'Only an ADMIN user or an API key with the * scope may force an action on stock that has not expired');
}

/** Units the action can take from a line: mark-expired moves available units; consumption also takes those already expired. */
const takeable = (kind: ExpiredActionKind, line: LineState) => (kind === 'EXPIRE' ? availableQty(line) : availableQty(line) + line.qtyExpired);

/** What an action takes from each line. */
export interface LinePlan {
  line: LineState;
  quantity: number;
}

/** The lines and filter an action names (the contract's selection fields). */
export type ExpiredSelection = Pick<ExpiredStockAction, 'lines' | 'lotId' | 'locationId' | 'force'>;

/**
 * The ids of the stock lines the request names: its lines, or the organization's lines of the filter
 * (lot and/or location) with units on hand and, unless forced, an expired lot. Unknown or foreign filter ids, or a
 * filter selecting more than MAX_FILTERED_EXPIRED_LINES lines: 400 naming the field.
 */
export async function selectedLineIds(ctx: RequestContext, input: ExpiredSelection): Promise<string[]> {
  if (input.lines) return input.lines.map((line) => line.stockLineId);
  const organizationId = orgId(ctx);
  const details = newFieldErrors();
  if (input.lotId && !(await ctx.prisma.lot.findFirst({ where: { id: input.lotId, organizationId }, select: { id: true } }))) details.lotId = ['Unknown lot'];
  if (input.locationId && !(await ctx.prisma.location.findFirst({ where: { id: input.locationId, organizationId }, select: { id: true } }))) details.locationId = ['Unknown location'];
  if (Object.keys(details).length) throw validationError(details);
  const lines = await ctx.prisma.stockLine.findMany({
    where: {
      organizationId,
      lotId: input.lotId ?? { not: null },
      ...(input.locationId ? { locationId: input.locationId } : {}),
      qtyOnHand: { gt: 0 },
      // Only what the action may take is locked: lots that have expired, unless an admin forces.
      ...(input.force ? {} : { lot: { expiryDate: { lt: startOfTodayUtc() } } }),
    },
    select: { id: true },
    orderBy: { id: 'asc' },
    take: MAX_FILTERED_EXPIRED_LINES + 1,
  });
  // One request locks and writes every selected line in one transaction: bounded, so a filter never holds locks for long.
  if (lines.length > MAX_FILTERED_EXPIRED_LINES) {
    throw validationError({ [input.lotId ? 'lotId' : 'locationId']: [`Selects more than ${MAX_FILTERED_EXPIRED_LINES} stock lines: name the lines, or a lot at one location`] });
  }
  return lines.map((line) => line.id);
}

/**
 * What the action takes from each locked line, all problems at once (400 naming the fields). A named line
 * whose lot has not expired (before today, UTC) is refused unless `force`; so is one `refusal` gives a
 * problem for (its field and message). A filter simply leaves such lines out; nothing left is 400.
 * `takeable` says how many units the action may take from a line.
 */
export function planLines(
  input: ExpiredSelection,
  locked: Map<string, LineState>,
  takeable: (line: LineState) => number,
  refusal: (line: LineState, index: number) => { field: string; message: string } | null = () => null,
): LinePlan[] {
  const today = startOfTodayUtc();
  const details = newFieldErrors();
  const expired = (line: LineState) => expiredBefore(line.expiryDate, today);
  const plan: LinePlan[] = [];
  if (input.lines) {
    const seen = new Set<string>();
    input.lines.forEach((wanted, index) => {
      const line = locked.get(wanted.stockLineId);
      const field = `lines.${index}.stockLineId`;
      if (!line) return void (details[field] = ['Unknown stock line']);
      if (seen.has(line.id)) return void (details[field] = ['Listed twice']);
      seen.add(line.id);
      if (!expired(line) && !input.force) return void (details[field] = [`The lot of stock line ${line.id} has not expired (force: true, admins only)`]);
      const refused = refusal(line, index);
      if (refused) return void (details[refused.field] = [refused.message]);
      const can = takeable(line);
      const quantity = wanted.quantity ?? can;
      if (quantity <= 0) return void (details[field] = ['Nothing to act on: the line has no units the action can take']);
      if (quantity > can) return void (details[`lines.${index}.quantity`] = [`At most ${can}`]);
      plan.push({ line, quantity });
    });
    if (Object.keys(details).length) throw validationError(details);
  } else {
    for (const line of [...locked.values()].sort((a, b) => (a.id < b.id ? -1 : 1))) {
      if ((!expired(line) && !input.force) || refusal(line, -1)) continue;
      const quantity = takeable(line);
      if (quantity > 0) plan.push({ line, quantity });
    }
    if (!plan.length) throw validationError({ [input.lotId ? 'lotId' : 'locationId']: ['No expired stock to act on'] });
  }
  return plan;
}

/** The answer's line: what the action took, and the line as it left it. */
export const actionLine = ({ line, quantity }: LinePlan, now: LineState): ExpiredActionLine => ({
  stockLineId: line.id, lotId: line.lotId, lotCode: line.lotCode, expiryDate: isoDay(line.expiryDate), quantity, qtyOnHand: now.qtyOnHand, qtyExpired: now.qtyExpired,
});

/**
 * Marks expired stock (available → expired: EXPIRE rows) or writes it off as used (on hand down, the
 * expired units first: CONSUME rows), all or nothing, under row locks. A line whose lot has not expired
 * (before today, UTC) is refused, naming it, unless `force` by an admin; a filter simply leaves such lines out.
 */
export async function actOnExpiredStock(ctx: RequestContext, kind: ExpiredActionKind, input: ExpiredStockAction): Promise<ExpiredActionResult> {
  checkForce(ctx, input);
  const reason = await findReasonCode(ctx, input.reasonCodeId, 'reasonCodeId', 'EXPIRED');
  const ids = await selectedLineIds(ctx, input);
  return inTransaction(ctx, async (txCtx) => {
    const plan = planLines(input, await lockLines(txCtx, ids), (line) => takeable(kind, line));
    const source = { reasonCodeId: reason.id, reasonCode: reason.code, comment: input.note ?? null, sourceType: 'EXPIRED_STOCK' };
    const changes: StockChange[] = plan.map(({ line, quantity }) => ({
      ...source,
      stockLineId: line.id,
      transactionType: kind,
      deltas: kind === 'EXPIRE' ? { EXPIRED: quantity } : { ON_HAND: -quantity, EXPIRED: -Math.min(quantity, line.qtyExpired) },
    }));
    await applyStockChangeSeries(txCtx, changes);
    const after = await lockLines(txCtx, plan.map((p) => p.line.id));
    const lines = plan.map((p) => actionLine(p, after.get(p.line.id)!));
    return { success: true as const, action: kind, lines, totalQuantity: lines.reduce((sum, l) => sum + l.quantity, 0) };
  });
}
