import type { z } from 'zod';
import { shippedTransferInput } from '../../../contracts/transfers/inventory-transfers/inventory-transfer.js';
import type { RequestContext } from '../../../context.js';
import { DomainError, newFieldErrors } from '../../../kernel/errors.js';
import type { InventoryTransfer } from '../../../generated/prisma/client.js';
import { orgId, parseInput } from '../../tenant.js';
import { openReservations } from '../../inventory/reservations/fefo-reservations.js';
import { inTransaction, type TxContext } from '../../../db/transactions.js';
import { checkTransferRefs } from './transfer-references.js';
import type { TransferNote } from './transfer-receiving.js';
import { appendEvents } from '../../events/outbox/append-events.js';
import { lockTransferFor, transferEvent, TRANSFER_TRANSACTION, transferActor } from './transfer-state.js';
import { TRANSFER_WITH_LINES, type TransferWithLines } from './transfer-shape.js';

export type ShippedTransferInput = z.input<typeof shippedTransferInput>;

/** What the TRANSFER_OUT ledger rows of a shipment say besides the transfer: a comment, and a reason (stock sent for destruction). */
export interface ShipmentNote {
  comment?: string | null;
  reasonCodeId?: string | null;
  reasonCode?: string | null;
}

/**
 * Takes the stock of every line of a DRAFT transfer out of its source and marks it IN_TRANSIT, in `tx`:
 * one reservation session locks the products' stock lines at the source, each line takes its lot (and
 * bin) when named, else first-expiring lots first, and every unit leaves through the ledger as a
 * TRANSFER_OUT row (sourceType TRANSFER, sourceId the transfer). A DESTRUCTION transfer (expired stock
 * sent for destruction) takes each line from the stock line of exactly its lot and bin, expired units
 * included (the session's withdrawExpired). All lines or nothing: a line short of stock is 400
 * INSUFFICIENT_STOCK with `details` per line, before anything is written.
 */
async function shipInTx(ctx: TxContext, transfer: InventoryTransfer, note: ShipmentNote = {}, exactLines: ReadonlySet<number> = new Set(), pinned?: ReadonlyMap<string, PinnedUnits[]>) {
  const tx = ctx.prisma;
  const lines = await tx.inventoryTransferLine.findMany({ where: { transferId: transfer.id }, orderBy: { lineNumber: 'asc' } });
  const stockOf = [...new Set(lines.map((l) => l.productMasterId))].map((productMasterId) => ({ productMasterId, locationId: transfer.sourceLocationId }));
  const reservations = await openReservations(ctx, { stockOf });
  const source = {
    transactionType: 'TRANSFER_OUT',
    sourceType: 'TRANSFER',
    sourceId: transfer.id,
    comment: note.comment ?? `Transfer to ${transfer.destLocationId}`,
    reasonCodeId: note.reasonCodeId ?? null,
    reasonCode: note.reasonCode ?? null,
  };
  const forDestruction = transfer.sourceType === 'DESTRUCTION';
  const details = newFieldErrors();
  const pieces = lines.flatMap((line, i) => {
    const request = { productMasterId: line.productMasterId, locationId: transfer.sourceLocationId, quantity: line.quantity, lotId: line.lotId, binId: line.binId, exact: exactLines.has(line.lineNumber) };
    const pins = pinned?.get(line.id);
    const allocations = pins
      ? pins.flatMap((pin) => reservations.withdraw({ ...request, quantity: pin.quantity, lotId: pin.lotId, binId: pin.binId, exact: true }, source))
      : forDestruction
        ? reservations.withdrawExpired(request, source)
        : reservations.withdraw(request, source);
    const got = allocations.reduce((sum, a) => sum + a.quantity, 0);
    if (got < line.quantity) details[`lines.${i}.quantity`] = [`Only ${got} ${forDestruction ? 'expired or available' : 'available'} at the source (asked ${line.quantity})`];
    return allocations.map((a) => ({ transferLineId: line.id, sourceStockLineId: a.stockLineId, lotId: a.lotId, binId: a.binId, quantity: a.quantity }));
  });
  if (Object.keys(details).length) {
    throw new DomainError('INSUFFICIENT_STOCK', 'Not enough available stock at the source to ship the transfer', { details });
  }
  await reservations.write();
  await tx.inventoryTransferLineLot.createMany({ data: pieces });
  await tx.$executeRaw`UPDATE inventory_transfer_lines SET "shippedQuantity" = quantity WHERE "transferId" = ${transfer.id}`;
  const shipped = await tx.inventoryTransfer.update({ where: { id: transfer.id }, data: { status: 'IN_TRANSIT', shippedAt: new Date(), shippedBy: transferActor(ctx).id } });
  await appendEvents(ctx, [{ type: 'transfer.shipped', subjectId: transfer.id, locationId: transfer.sourceLocationId, payload: transferEvent(shipped) }]);
}

/** Units of a transfer line held on the stock line of one lot and bin (by the shipment that carries the transfer). */
export interface PinnedUnits {
  lotId: string | null;
  binId: string | null;
  quantity: number;
}

/**
 * DRAFT → IN_TRANSIT for the shipment that carries the transfer (docs/shipments.md), inside the shipment's
 * transaction: each line leaves from exactly the stock lines (lot, bin) the shipment picked, which the caller has
 * made available again, as TRANSFER_OUT rows like any ship. Unknown or foreign transfer: 404; not DRAFT: 409.
 */
export async function shipTransferForShipment(ctx: TxContext, transferId: string, shipmentId: string, pinned: ReadonlyMap<string, PinnedUnits[]>, comment: string): Promise<void> {
  const transfer = await lockTransferFor(ctx, transferId, 'ship', { byShipment: shipmentId });
  await shipInTx(ctx, transfer, { comment }, new Set(), pinned);
}

/** DRAFT → IN_TRANSIT (POST /api/inventory/transfers/{id} action ship). */
export async function shipTransfer(ctx: RequestContext, id: string, input: TransferNote = {}): Promise<TransferWithLines> {
  return inTransaction(ctx, async (ctx) => {
    const tx = ctx.prisma;
    const transfer = await lockTransferFor(ctx, id, 'ship');
    await shipInTx(ctx, transfer, { comment: input.comment });
    return tx.inventoryTransfer.findUniqueOrThrow({ where: { id }, ...TRANSFER_WITH_LINES });
  }, TRANSFER_TRANSACTION);
}

/**
 * Creates a transfer and ships it at once, inside the caller's transaction `tx` (executing a transfer
 * recommendation does this, and sending expired stock for destruction, sourceType DESTRUCTION): the stock
 * leaves the source through the ledger as in shipTransfer, the rows carrying `note` (comment, reason).
 * Refuses with 400 INSUFFICIENT_STOCK (details per line) when the source lacks the stock, and with 404 /
 * 400 for unknown ids; a refusal throws before any stock is written, and the caller's transaction
 * rolls back whatever else it did. A line marked `exact` (units a stock request reserved on one stock line)
 * takes from the line of exactly its lot and bin, none meaning none.
 */
export async function createShippedTransfer(ctx: TxContext, raw: ShippedTransferInput, note: ShipmentNote = {}): Promise<TransferWithLines> {
  const tx = ctx.prisma;
  const input = parseInput(shippedTransferInput, raw);
  await checkTransferRefs(ctx, input);
  const actor = transferActor(ctx);
  const transfer = await tx.inventoryTransfer.create({
    data: {
      organizationId: orgId(ctx),
      sourceLocationId: input.sourceLocationId,
      destLocationId: input.destLocationId,
      reference: input.reference ?? null,
      sourceType: input.sourceType ?? null,
      sourceId: input.sourceId ?? null,
      createdByType: actor.type,
      createdBy: actor.id,
      lines: {
        create: input.lines.map((line, i) => ({ lineNumber: i + 1, productMasterId: line.productMasterId, quantity: line.quantity, lotId: line.lotId ?? null, binId: line.binId ?? null })),
      },
    },
  });
  const exactLines = new Set(input.lines.flatMap((line, i) => (line.exact ? [i + 1] : [])));
  await shipInTx(ctx, transfer, { ...note, comment: note.comment ?? (input.sourceType ? `${input.sourceType} ${input.sourceId ?? ''}`.trim() : null) }, exactLines);
  return tx.inventoryTransfer.findUniqueOrThrow({ where: { id: transfer.id }, ...TRANSFER_WITH_LINES });
}
