import type { z } from 'zod';
import type { RequestContext } from '../../../context.js';
import type { expiredStockDestruction } from '../../../contracts/inventory/expired-stock/expired-stock.js';
import { TRANSFER_MAX_LINES } from '../../../contracts/transfers/inventory-transfers/inventory-transfer.js';
import { inTransaction, TRANSACTION, type TxContext } from '../../../db/transactions.js';
import { validationError } from '../../../kernel/errors.js';
import { orgId } from '../../tenant.js';
import { createShippedTransfer } from '../../transfers/inventory-transfers/transfer-shipping.js';
import { checkReasonDirection, findReasonCode } from '../adjustments/reason-code-rules.js';
import { applyStockChangeSeries, lockLines, type LineState, type StockChange } from '../ledger/stock-ledger.js';
import { availableQty } from '../stock-lines/quantities.js';
import { actionLine, checkForce, planLines, selectedLineIds, type ExpiredActionLine, type LinePlan } from './expired-actions.js';

export type ExpiredStockDestruction = z.output<typeof expiredStockDestruction>;

/** A transfer that carries stock to the destruction location: one per source location (and per 500 lines). */
export interface DestructionTransfer {
  transferId: string;
  reference: string | null;
  sourceLocationId: string;
  destLocationId: string;
  status: string;
  /** The stock lines it empties (or takes units of). */
  stockLineIds: string[];
  totalQuantity: number;
}

export interface DestructionResult {
  success: true;
  /** TRANSFER_OUT (sent to a destruction location) or DESTROY (written off): the transaction type of the ledger rows. */
  action: 'TRANSFER_OUT' | 'DESTROY';
  lines: ExpiredActionLine[];
  totalQuantity: number;
  destinationLocationId: string | null;
  documentNumber: string | null;
  transfers: DestructionTransfer[];
}

/** Destruction takes the expired units and the available ones (reserved, held, picked and recalled units stay). */
const takeable = (line: LineState) => availableQty(line) + line.qtyExpired;

/**
 * The selected lines and every other line of the same products at the same locations: a transfer's
 * shipment locks all of those (one reservation session per source), so this request locks the whole set
 * first, in id order, as every other session does, and cannot deadlock with a pick or a transfer.
 */
async function shipmentLockSet(ctx: TxContext, ids: string[]): Promise<string[]> {
  if (!ids.length) return ids;
  const organizationId = orgId(ctx);
  const rows = await ctx.prisma.$queryRaw<{ id: string }[]>`
    SELECT s.id FROM stock_lines s
    WHERE s."organizationId" = ${organizationId}
      AND (s."productMasterId", s."locationId") IN (SELECT "productMasterId", "locationId" FROM stock_lines WHERE id = ANY(${ids}::text[]) AND "organizationId" = ${organizationId})`;
  return [...new Set([...ids, ...rows.map((row) => row.id)])];
}

/** Groups the plan by source location (in id order), at most TRANSFER_MAX_LINES lines a group. */
function transferGroups(plan: LinePlan[]): LinePlan[][] {
  const bySource = new Map<string, LinePlan[]>();
  for (const p of plan) (bySource.get(p.line.locationId) ?? bySource.set(p.line.locationId, []).get(p.line.locationId)!).push(p);
  return [...bySource.keys()].sort().flatMap((source) => {
    const lines = bySource.get(source)!;
    return Array.from({ length: Math.ceil(lines.length / TRANSFER_MAX_LINES) }, (_, i) => lines.slice(i * TRANSFER_MAX_LINES, (i + 1) * TRANSFER_MAX_LINES));
  });
}

/**
 * Sends expired stock for destruction, all or nothing, under row locks. With `destinationLocationId`: an
 * inventory transfer per source location, created and shipped at once through the transfers service
 * (sourceType DESTRUCTION, reference the document number): each line's units (expired ones first, then
 * available) leave with their lot and bin (TRANSFER_OUT rows with the reason), and arrive at the
 * destination, when received the normal way, as expired units. Without: a write-off, DESTROY rows on on
 * hand and expired with the reason and sourceType DESTRUCTION, sourceId the document number. A line whose
 * lot has not expired is refused unless `force` by an admin (403 for anyone else), as the other actions.
 */
export async function destroyExpiredStock(ctx: RequestContext, input: ExpiredStockDestruction): Promise<DestructionResult> {
  checkForce(ctx, input);
  const reason = await findReasonCode(ctx, input.reasonCodeId, 'reasonCodeId', 'EXPIRED');
  checkReasonDirection(reason, -1, 'reasonCodeId');
  const destination = input.destinationLocationId ?? null;
  if (destination && !(await ctx.prisma.location.findFirst({ where: { id: destination, organizationId: orgId(ctx) }, select: { id: true } }))) {
    throw validationError({ destinationLocationId: ['Unknown location'] });
  }
  const ids = await selectedLineIds(ctx, input);
  const documentNumber = input.documentNumber ?? null;
  return inTransaction(ctx, async (txCtx) => {
    const locked = await lockLines(txCtx, destination ? await shipmentLockSet(txCtx, ids) : ids);
    const selected = new Map(ids.flatMap((id) => (locked.has(id) ? [[id, locked.get(id)!] as const] : [])));
    const plan = planLines(input, selected, takeable, (line, index) =>
      destination && line.locationId === destination ? { field: 'destinationLocationId', message: `Stock line ${line.id} (lines.${index}) is already at this location` } : null,
    );
    const ledger = { reasonCodeId: reason.id, reasonCode: reason.code };
    const transfers: DestructionTransfer[] = [];
    if (destination) {
      for (const group of transferGroups(plan)) {
        const transfer = await createShippedTransfer(
          txCtx,
          {
            sourceLocationId: group[0]!.line.locationId,
            destLocationId: destination,
            lines: group.map(({ line, quantity }) => ({ productMasterId: line.productMasterId, quantity, lotId: line.lotId, binId: line.binId })),
            sourceType: 'DESTRUCTION',
            reference: documentNumber,
          },
          { ...ledger, comment: input.note ?? `Sent for destruction${documentNumber ? ` (${documentNumber})` : ''}` },
        );
        transfers.push({
          transferId: transfer.id,
          reference: transfer.reference,
          sourceLocationId: transfer.sourceLocationId,
          destLocationId: transfer.destLocationId,
          status: transfer.status,
          stockLineIds: group.map((p) => p.line.id),
          totalQuantity: group.reduce((sum, p) => sum + p.quantity, 0),
        });
      }
    } else {
      const changes: StockChange[] = plan.map(({ line, quantity }) => ({
        ...ledger,
        stockLineId: line.id,
        transactionType: 'DESTROY',
        deltas: { ON_HAND: -quantity, EXPIRED: -Math.min(quantity, line.qtyExpired) },
        comment: input.note ?? null,
        sourceType: 'DESTRUCTION',
        sourceId: documentNumber,
      }));
      await applyStockChangeSeries(txCtx, changes);
    }
    const after = await lockLines(txCtx, plan.map((p) => p.line.id));
    const lines = plan.map((p) => actionLine(p, after.get(p.line.id)!));
    return {
      success: true as const,
      action: destination ? 'TRANSFER_OUT' : 'DESTROY',
      lines,
      totalQuantity: lines.reduce((sum, l) => sum + l.quantity, 0),
      destinationLocationId: destination,
      documentNumber,
      transfers,
    };
  }, TRANSACTION);
}
