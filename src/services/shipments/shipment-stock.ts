import type { TxContext } from '../../db/transactions.js';
import type { Shipment } from '../../generated/prisma/client.js';
import { DomainError, newFieldErrors } from '../../kernel/errors.js';
import { openReservations, type Reservations, type ReservationSource } from '../inventory/reservations/fefo-reservations.js';
import { shipmentReference } from './shipment-shape.js';

/** What the ledger rows of a shipment's stock changes say: the transaction type, the shipment, a comment. */
export const shipmentSource = (shipment: Shipment, transactionType: string, comment: string): ReservationSource => ({
  transactionType,
  sourceType: 'SHIPMENT',
  sourceId: shipment.id,
  comment: `${comment} (${shipmentReference(shipment)})`,
});

/** The shipment's lines with the stock lines holding their units. */
export const allocationsOf = (ctx: TxContext, shipment: Shipment) =>
  ctx.prisma.shipmentAllocation.findMany({ where: { line: { shipmentId: shipment.id } }, orderBy: { id: 'asc' }, include: { line: { select: { lineNumber: true } } } });

/**
 * Applies `step` (pick, unpick or shipPicked of the reservations service) to every allocation of the shipment,
 * in one session over exactly its stock lines. Each allocation must move whole: a stock line that no longer holds
 * the units (taken by a stock move or an import meanwhile) is 400 INSUFFICIENT_STOCK naming the shipment's line, and
 * nothing is written.
 */
export async function moveAllUnits(ctx: TxContext, shipment: Shipment, step: (session: Reservations, stockLineId: string, quantity: number) => number) {
  const allocations = await allocationsOf(ctx, shipment);
  const session = await openReservations(ctx, { stockOf: [], lineIds: allocations.map((a) => a.stockLineId) });
  const details = newFieldErrors();
  for (const a of allocations) {
    const moved = step(session, a.stockLineId, a.quantity);
    if (moved < a.quantity) (details[`lines.${a.line.lineNumber - 1}`] ??= []).push(`Only ${moved} of ${a.quantity} unit(s) are still held on stock line ${a.stockLineId}`);
  }
  if (Object.keys(details).length) throw new DomainError('INSUFFICIENT_STOCK', 'The stock lines no longer hold the units of the shipment', { details });
  await session.write();
}
