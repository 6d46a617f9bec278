import type { z } from 'zod';
import type { lotCorrection as schema } from '../../../contracts/inventory/adjustments/lot-correction.js';
import type { RequestContext } from '../../../context.js';
import { DomainError, validationError } from '../../../kernel/errors.js';
import type { Lot, StockTransaction } from '../../../generated/prisma/client.js';
import { uuidv7 } from '../../../db/ids.js';
import { orgId } from '../../tenant.js';
import { dateOnly, isoDay } from '../../../kernel/iso-dates.js';
import { findReasonCode } from './reason-code-rules.js';
import { type LineState, lockLines, findOrCreateStockLine, applyStockChange } from '../ledger/stock-ledger.js';
import { outOfRange, usableQty } from '../stock-lines/quantities.js';
import { TRANSACTION, inTransaction, type TxContext } from '../../../db/transactions.js';
import { unknownInBody } from './adjustment-messages.js';

/** The input as its contract outputs it (parsed once, where it comes in). */
export type LotCorrectionInput = z.output<typeof schema>;

export interface LotCorrectionResult {
  success: true;
  fromInventoryItem: LineState;
  toInventoryItem: LineState;
  transactions: StockTransaction[];
  message: string;
}

/**
 * Moves quantity from one lot to another lot of the same product at the same location and bin: the
 * source line loses it and the target line (created when missing) gains it, two LOT_CORRECTION ledger
 * rows in one transaction. Only available units move (none from a recalled or expired lot).
 */
export async function correctLot(ctx: RequestContext, input: LotCorrectionInput): Promise<LotCorrectionResult> {
  const reason = await findReasonCode(ctx, input.reasonCodeId, 'reasonCodeId', 'LOT_CORRECTION');
  if (reason.direction !== 'ANY') {
    throw validationError({ reasonCodeId: [`Reason ${reason.code} is for ${reason.direction.toLowerCase()}s only; a lot correction needs a reason for both directions`] });
  }
  const organizationId = orgId(ctx);

  return inTransaction(ctx, async (ctx) => {
    const tx = ctx.prisma;
    const source = await tx.stockLine.findFirst({ where: { id: input.inventoryItemId, organizationId } });
    if (!source) throw unknownInBody('inventoryItemId', 'Inventory item');
    const lot = await targetLot(ctx, source.productMasterId, input);
    if (lot.id === source.lotId) throw validationError({ [input.toLotId ? 'toLotId' : 'toLotCode']: ['The stock is already in this lot'] });
    const target = await findOrCreateStockLine(ctx, { productMasterId: source.productMasterId, locationId: source.locationId, lotId: lot.id, binId: source.binId });

    const locked = await lockLines(ctx, [source.id, target.id]);
    const from = locked.get(source.id)!;
    const to = locked.get(target.id)!;
    const usable = usableQty(from);
    if (usable < input.quantity) {
      const message = `Only ${usable} units of the source line are available to move`;
      throw new DomainError('INSUFFICIENT_STOCK', message, { details: { quantity: [message] } });
    }

    const change = {
      transactionType: 'LOT_CORRECTION',
      reasonCodeId: reason.id,
      reasonCode: reason.code,
      comment: input.comment?.trim() || null,
      sourceType: 'LOT_CORRECTION',
      sourceId: uuidv7(),
    };
    // Lines change in id order, the order lockLines took their locks in.
    const order = [from, to].sort((a, b) => (a.id < b.id ? -1 : 1));
    const results = new Map<string, Awaited<ReturnType<typeof applyStockChange>>>();
    for (const line of order) {
      const delta = line.id === from.id ? -input.quantity : input.quantity;
      results.set(line.id, await applyStockChange(ctx, { ...change, stockLineId: line.id, deltas: { ON_HAND: delta } }).catch(outOfRange('quantity')));
    }
    const out = results.get(from.id)!;
    const into = results.get(to.id)!;
    return {
      success: true as const,
      fromInventoryItem: { ...from, ...out.line },
      toInventoryItem: { ...to, ...into.line },
      transactions: [out.transactions[0]!, into.transactions[0]!],
      message: `Moved ${input.quantity} units from ${from.lotCode ? `lot ${from.lotCode}` : 'no lot'} to lot ${lot.code}`,
    };
  }, TRANSACTION);
}

/** The lot to move into: by id (a lot of the same product), or by code, created when missing. */
async function targetLot(ctx: TxContext, productMasterId: string, input: z.output<typeof schema>): Promise<Lot> {
  const tx = ctx.prisma;
  const organizationId = orgId(ctx);
  if (input.toLotId) {
    const lot = await tx.lot.findFirst({ where: { id: input.toLotId, organizationId } });
    if (!lot) throw unknownInBody('toLotId', 'Lot');
    if (lot.productMasterId !== productMasterId) throw validationError({ toLotId: ['The lot belongs to another product'] });
    return lot;
  }
  const code = input.toLotCode!;
  const expiry = input.toExpiryDate ?? null;
  if (expiry !== null && !/^\d{4}-\d{2}-\d{2}$/.test(expiry)) throw validationError({ toExpiryDate: ['Must be an ISO 8601 date (YYYY-MM-DD)'] });
  // Race-safe create: two requests naming the same new lot end up with the one row.
  await tx.lot.createMany({ data: [{ organizationId, productMasterId, code, expiryDate: expiry ? dateOnly(expiry) : null }], skipDuplicates: true });
  const lot = await tx.lot.findUniqueOrThrow({ where: { organizationId_productMasterId_code: { organizationId, productMasterId, code } } });
  if (expiry !== null && isoDay(lot.expiryDate) !== expiry) {
    throw validationError({ toExpiryDate: [`Lot ${code} already exists with expiry date ${isoDay(lot.expiryDate) ?? 'none'}`] });
  }
  return lot;
}
