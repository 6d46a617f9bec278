import type { RequestContext } from '../../context.js';
import { inTransaction, type TxContext } from '../../db/transactions.js';
import type { InventoryTransfer } from '../../generated/prisma/client.js';
import { DomainError, newFieldErrors, validationError } from '../../kernel/errors.js';
import { actorOf } from '../actor-of.js';
import { openReservations } from '../inventory/reservations/fefo-reservations.js';
import { lockTransferFor } from '../transfers/inventory-transfers/transfer-state.js';
import { orgId } from '../tenant.js';
import { SHIPMENT_WITH_LINES, type ShipmentWithLines } from './shipment-shape.js';
import { nextNumber, SHIPMENT_TRANSACTION, shipmentMoved } from './shipment-state.js';
import { shipmentSource } from './shipment-stock.js';

/**
 * Locks the DRAFT transfer a shipment is made for: unknown or foreign is 400 on `transferId` (a reference in the
 * body, as an order's is); not DRAFT, already carried by an open shipment, or stock sent for destruction (which
 * takes expired units a reservation never would, and ships directly) is 409 INVALID_STATE.
 */
async function lockTransfer(ctx: TxContext, id: string): Promise<InventoryTransfer> {
  const [known] = await ctx.prisma.$queryRaw<{ id: string }[]>`SELECT id FROM inventory_transfers WHERE id = ${id} AND "organizationId" = ${orgId(ctx)}`;
  if (!known) throw validationError({ transferId: ['Unknown transfer'] }, 'Unknown transfer');
  const transfer = await lockTransferFor(ctx, id, 'ship');
  if (transfer.sourceType === 'DESTRUCTION') throw new DomainError('INVALID_STATE', 'A transfer of expired stock for destruction ships directly, not through a shipment');
  return transfer;
}

/**
 * A RESERVED shipment of a whole DRAFT transfer from its source location, in one transaction under the transfer's
 * row lock: one shipment line per transfer line, its units reserved through the reservations service (the line's
 * lot and bin when it names them, else first-expiring lots first; SHIPMENT_RESERVE rows). Short of stock: 400
 * INSUFFICIENT_STOCK on `lines.i.quantity`, nothing changed. From then on the transfer moves only through the
 * shipment (its ship, update and cancel are 409) until the shipment ships (the transfer goes IN_TRANSIT) or is
 * cancelled (the transfer is a DRAFT again, free).
 */
export function createTransferShipment(ctx: RequestContext, transferId: string, note: string | null): Promise<ShipmentWithLines> {
  return inTransaction(
    ctx,
    async (ctx) => {
      const transfer = await lockTransfer(ctx, transferId);
      const lines = await ctx.prisma.inventoryTransferLine.findMany({ where: { transferId }, orderBy: { lineNumber: 'asc' } });
      const { actorType, createdBy } = actorOf(ctx);
      const shipment = await ctx.prisma.shipment.create({
        data: {
          organizationId: orgId(ctx), number: await nextNumber(ctx), transferId, locationId: transfer.sourceLocationId, note, createdByType: actorType, createdBy,
          lines: { create: lines.map((line, i) => ({ lineNumber: i + 1, transferLineId: line.id, productMasterId: line.productMasterId, quantity: line.quantity })) },
        },
        include: { lines: { orderBy: { lineNumber: 'asc' } } },
      });
      const session = await openReservations(ctx, {
        stockOf: [...new Set(lines.map((l) => l.productMasterId))].map((productMasterId) => ({ productMasterId, locationId: transfer.sourceLocationId })),
      });
      const reserve = shipmentSource(shipment, 'SHIPMENT_RESERVE', 'Reserved for shipment');
      const errors = newFieldErrors();
      const rows = lines.flatMap((line, i) => {
        const got = session.reserve({ productMasterId: line.productMasterId, locationId: transfer.sourceLocationId, quantity: line.quantity, lotId: line.lotId, binId: line.binId }, reserve);
        const units = got.reduce((sum, a) => sum + a.quantity, 0);
        if (units < line.quantity) errors[`lines.${i}.quantity`] = [`Only ${units} available at the source location (asked ${line.quantity})`];
        return got.map((a) => ({ lineId: shipment.lines[i]!.id, stockLineId: a.stockLineId, lotId: a.lotId, binId: a.binId, quantity: a.quantity }));
      });
      if (Object.keys(errors).length) throw new DomainError('INSUFFICIENT_STOCK', 'Not enough available stock at the source location for the shipment', { details: errors });
      await session.write();
      await ctx.prisma.shipmentAllocation.createMany({ data: rows });
      await shipmentMoved(ctx, shipment, null);
      return ctx.prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id }, ...SHIPMENT_WITH_LINES });
    },
    SHIPMENT_TRANSACTION,
  );
}
