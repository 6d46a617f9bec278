import type { z } from 'zod';
import type { inventoryTransferNote, inventoryTransferReceive } from '../../../contracts/transfers/inventory-transfers/inventory-transfer.js';
import type { RequestContext } from '../../../context.js';
import { newFieldErrors, validationError } from '../../../kernel/errors.js';
import { Prisma } from '../../../generated/prisma/client.js';
import { orgId } from '../../tenant.js';
import { lockLines, createStockLines, lineKeyOf, type LineKey, applyStockChangeSeries, type StockChange } from '../../inventory/ledger/stock-ledger.js';
import { outOfRange } from '../../inventory/stock-lines/quantities.js';
import { inTransaction, type TxContext } from '../../../db/transactions.js';
import { notifyFollower, type TransferUnits } from './transfer-followers.js';
import { TRANSFER_WITH_LINES, type TransferWithLines } from './transfer-shape.js';
import { appendEvents } from '../../events/outbox/append-events.js';
import { lockTransferFor, transferEvent, TRANSFER_TRANSACTION, transferActor } from './transfer-state.js';

/** The inputs as their contracts output them (parsed once, where they come in). */
export type TransferReceiveInput = z.output<typeof inventoryTransferReceive>;
export type TransferNote = z.output<typeof inventoryTransferNote>;

/** Units of a shipped piece neither received nor returned: still on the way. */
const inTransit = (piece: { quantity: number; receivedQuantity: number; returnedQuantity: number }) => piece.quantity - piece.receivedQuantity - piece.returnedQuantity;

/** Units per product, summed over lines (a transfer may carry a product on several lines: one per lot reserved). */
const unitsByProduct = (units: TransferUnits[]): TransferUnits[] => {
  const sums = new Map<string, number>();
  for (const u of units) sums.set(u.productMasterId, (sums.get(u.productMasterId) ?? 0) + u.quantity);
  return [...sums].map(([productMasterId, quantity]) => ({ productMasterId, quantity }));
};

/**
 * Adds each piece's units to its stock line (one series through the ledger), the lines locked first in id
 * order. A line that would pass MAX_QTY on hand refuses the whole action (400 on `lines`), nothing changed.
 */
async function putBack(ctx: TxContext, changes: StockChange[]) {
  await lockLines(ctx, changes.map((c) => c.stockLineId));
  await applyStockChangeSeries(ctx, [...changes].sort((a, b) => (a.stockLineId < b.stockLineId ? -1 : a.stockLineId > b.stockLineId ? 1 : 0))).catch(outOfRange('lines'));
}

/** Adds to a count column of shipped pieces (one UPDATE for all of them). */
async function addToPieces({ prisma: tx }: TxContext, column: 'receivedQuantity' | 'returnedQuantity', counts: Map<string, number>) {
  if (!counts.size) return;
  const ids = [...counts.keys()];
  const col = Prisma.raw(`"${column}"`);
  await tx.$executeRaw`UPDATE inventory_transfer_line_lots p SET ${col} = p.${col} + u.n
    FROM unnest(${ids}::text[], ${ids.map((pieceId) => counts.get(pieceId)!)}::int[]) AS u(id, n) WHERE p.id = u.id`;
}

/**
 * Receives shipped units at the destination (action receive): each line's quantity is taken from its
 * pieces in shipping order and added to the destination's stock line of the same product and lot (so
 * the expiry travels with it), in the receipt's or the line's destination bin, created when missing;
 * one TRANSFER_IN ledger row per piece received (a DESTRUCTION transfer's units arrive as expired: rows on
 * on hand and expired). Partial receipts keep the transfer IN_TRANSIT; when
 * every shipped unit is in, it is RECEIVED. More than is still in transit is 400, nothing changed.
 */
export async function receiveTransfer(ctx: RequestContext, id: string, input: TransferReceiveInput = {}): Promise<TransferWithLines> {
  return inTransaction(ctx, async (ctx) => {
    const tx = ctx.prisma;
    const transfer = await lockTransferFor(ctx, id, 'receive');
    const lines = await tx.inventoryTransferLine.findMany({ where: { transferId: id }, orderBy: { lineNumber: 'asc' }, include: { shipments: { orderBy: { id: 'asc' } } } });
    const byId = new Map(lines.map((line) => [line.id, line]));
    const details = newFieldErrors();
    const wanted = input.lines
      ? input.lines.map((r) => ({ line: byId.get(r.lineId), quantity: r.quantity, destBinId: r.destBinId ?? byId.get(r.lineId)?.destBinId ?? null }))
      : lines.map((line) => ({ line, quantity: line.shippedQuantity - line.receivedQuantity, destBinId: line.destBinId })).filter((r) => r.quantity > 0);
    const asked = new Map<string, number>();
    wanted.forEach((r, i) => {
      if (!r.line) return void (details[`lines.${i}.lineId`] = ['Not a line of this transfer']);
      const total = (asked.get(r.line.id) ?? 0) + r.quantity;
      asked.set(r.line.id, total);
      const open = r.line.shippedQuantity - r.line.receivedQuantity;
      if (total > open) details[`lines.${i}.quantity`] = [`At most ${open} of this line ${open === 1 ? 'is' : 'are'} still in transit`];
    });
    if (Object.keys(details).length) {
      const unknownLine = Object.keys(details).some((field) => field.endsWith('.lineId'));
      throw validationError(details, unknownLine ? 'The receipt names a line that is not of this transfer' : 'The receipt is more than is in transit');
    }

    const binIds = [...new Set(wanted.map((r) => r.destBinId).filter((b): b is string => Boolean(b)))];
    const bins = binIds.length ? await tx.bin.findMany({ where: { organizationId: orgId(ctx), id: { in: binIds } }, select: { id: true, locationId: true } }) : [];
    wanted.forEach((r, i) => {
      const bin = r.destBinId ? bins.find((b) => b.id === r.destBinId) : undefined;
      if (r.destBinId && !bin) details[`lines.${i}.destBinId`] = ['Bin not found'];
      else if (bin && bin.locationId !== transfer.destLocationId) details[`lines.${i}.destBinId`] = ['Not a bin of the destination location'];
    });
    if (Object.keys(details).length) throw validationError(details);

    const received = new Map<string, number>();
    const arrivals: { key: LineKey; quantity: number }[] = [];
    for (const r of wanted) {
      let left = r.quantity;
      for (const piece of r.line!.shipments) {
        const units = Math.min(left, inTransit(piece) - (received.get(piece.id) ?? 0));
        if (units <= 0) continue;
        received.set(piece.id, (received.get(piece.id) ?? 0) + units);
        arrivals.push({ key: { productMasterId: r.line!.productMasterId, locationId: transfer.destLocationId, lotId: piece.lotId, binId: r.destBinId }, quantity: units });
        left -= units;
        if (!left) break;
      }
    }
    const keyText = (k: LineKey) => `${k.productMasterId}|${lineKeyOf(k)}`;
    const keys = [...new Map(arrivals.map((a) => [keyText(a.key), a.key])).values()].sort((a, b) => (keyText(a) < keyText(b) ? -1 : 1));
    await createStockLines(ctx, keys);
    const destLines = await tx.stockLine.findMany({
      where: { organizationId: orgId(ctx), locationId: transfer.destLocationId, OR: keys.map((k) => ({ productMasterId: k.productMasterId, lineKey: lineKeyOf(k) })) },
      select: { id: true, productMasterId: true, lineKey: true },
    });
    const lineOf = new Map(destLines.map((l) => [`${l.productMasterId}|${l.lineKey}`, l.id]));
    const comment = input.comment ?? `Transfer from ${transfer.sourceLocationId}`;
    const deltas = (quantity: number) => unitsBack(transfer, quantity);
    await putBack(
      ctx,
      arrivals.map((a) => ({ stockLineId: lineOf.get(keyText(a.key))!, deltas: deltas(a.quantity), transactionType: 'TRANSFER_IN', sourceType: 'TRANSFER', sourceId: id, comment })),
    );
    await addToPieces(ctx, 'receivedQuantity', received);
    const lineIds = [...asked.keys()];
    await tx.$executeRaw`UPDATE inventory_transfer_lines l SET "receivedQuantity" = l."receivedQuantity" + u.n
      FROM unnest(${lineIds}::text[], ${lineIds.map((lineId) => asked.get(lineId)!)}::int[]) AS u(id, n) WHERE l.id = u.id`;
    const open = await tx.inventoryTransferLine.count({ where: { transferId: id, receivedQuantity: { lt: tx.inventoryTransferLine.fields.shippedQuantity } } });
    const after = await tx.inventoryTransfer.update({ where: { id }, data: open ? {} : { status: 'RECEIVED', receivedAt: new Date() } });
    await appendEvents(ctx, [{ type: 'transfer.received', subjectId: id, locationId: after.destLocationId, payload: { ...transferEvent(after), complete: !open } }]);
    await notifyFollower(ctx, after, 'received', unitsByProduct([...asked].map(([lineId, quantity]) => ({ productMasterId: byId.get(lineId)!.productMasterId, quantity }))));
    return tx.inventoryTransfer.findUniqueOrThrow({ where: { id }, ...TRANSFER_WITH_LINES });
  }, TRANSFER_TRANSACTION);
}

/**
 * Stock sent for destruction comes back expired, wherever it lands (received, or returned to the source by a
 * cancel): on hand and expired up together, never available again.
 */
const unitsBack = (transfer: { sourceType: string | null }, quantity: number) =>
  transfer.sourceType === 'DESTRUCTION' ? { ON_HAND: quantity, EXPIRED: quantity } : { ON_HAND: quantity };

/**
 * Cancels a transfer (action cancel): a DRAFT simply; an IN_TRANSIT one returns every unit still in
 * transit to the very source stock line it left (TRANSFER_IN rows with sourceType TRANSFER; a DESTRUCTION
 * transfer's units return expired), received units stay received. The follower of its sourceType (a stock
 * request) hears of the units returned; of a receipt, of the units received. RECEIVED or CANCELLED: 409 INVALID_STATE.
 */
export async function cancelTransfer(ctx: RequestContext, id: string, input: TransferNote = {}): Promise<TransferWithLines> {
  return inTransaction(ctx, async (ctx) => {
    const tx = ctx.prisma;
    const transfer = await lockTransferFor(ctx, id, 'cancel');
    let back: TransferUnits[] = [];
    if (transfer.status === 'IN_TRANSIT') {
      const pieces = await tx.inventoryTransferLineLot.findMany({ where: { line: { transferId: id } }, orderBy: { id: 'asc' } });
      const returned = new Map(pieces.filter((p) => inTransit(p) > 0).map((p) => [p.id, inTransit(p)]));
      const comment = input.comment ?? 'Transfer cancelled: returned to the source';
      await putBack(
        ctx,
        pieces.filter((p) => returned.has(p.id)).map((p) => ({ stockLineId: p.sourceStockLineId, deltas: unitsBack(transfer, returned.get(p.id)!), transactionType: 'TRANSFER_IN', sourceType: 'TRANSFER', sourceId: id, comment })),
      );
      await addToPieces(ctx, 'returnedQuantity', returned);
      const productOf = new Map((await tx.inventoryTransferLine.findMany({ where: { transferId: id }, select: { id: true, productMasterId: true } })).map((l) => [l.id, l.productMasterId]));
      back = unitsByProduct(pieces.filter((p) => returned.has(p.id)).map((p) => ({ productMasterId: productOf.get(p.transferLineId)!, quantity: returned.get(p.id)! })));
    }
    const after = await tx.inventoryTransfer.update({ where: { id }, data: { status: 'CANCELLED', cancelledAt: new Date(), cancelledBy: transferActor(ctx).id } });
    await notifyFollower(ctx, after, 'returned', back);
    return tx.inventoryTransfer.findUniqueOrThrow({ where: { id }, ...TRANSFER_WITH_LINES });
  }, TRANSFER_TRANSACTION);
}
