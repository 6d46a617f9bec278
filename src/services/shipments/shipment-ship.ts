import type { z } from 'zod';
import type { shipmentShip } from '../../contracts/shipments/shipments.js';
import type { RequestContext } from '../../context.js';
import { inTransaction, type TxContext } from '../../db/transactions.js';
import type { Shipment } from '../../generated/prisma/client.js';
import { shipmentReference, type ShipmentWithLines } from './shipment-shape.js';
import { type PinnedUnits, shipTransferForShipment } from '../transfers/inventory-transfers/transfer-shipping.js';
import { lockShipmentFor, moveShipment, SHIPMENT_TRANSACTION } from './shipment-state.js';
import { moveAllUnits, shipmentSource } from './shipment-stock.js';

/**
 * PACKED → SHIPPED with the carrier and tracking number: the picked units leave the location through the ledger
 * (picked and on hand down together, SHIPMENT_OUT rows naming the shipment). The order becomes FULFILLED once its
 * shipped shipments hold every unit it ordered.
 */
export function shipShipment(ctx: RequestContext, input: z.output<typeof shipmentShip>): Promise<ShipmentWithLines> {
  return inTransaction(
    ctx,
    async (ctx) => {
      const shipment = await lockShipmentFor(ctx, input.id, 'ship');
      if (shipment.transferId) {
        await shipTransfer(ctx, shipment, input.carrier);
      } else {
        const source = shipmentSource(shipment, 'SHIPMENT_OUT', `Shipped by ${input.carrier}`);
        await moveAllUnits(ctx, shipment, (session, stockLineId, quantity) => session.shipPicked(stockLineId, quantity, source));
      }
      const shipped = await moveShipment(ctx, shipment, 'SHIPPED', { shippedAt: new Date(), carrier: input.carrier, trackingNumber: input.trackingNumber ?? null });
      if (shipment.salesOrderId) await closeShippedOrder(ctx, shipment);
      return shipped;
    },
    SHIPMENT_TRANSACTION,
  );
}

/**
 * A transfer's shipment hands its picked units to the transfer: back on their shelves (SHIPMENT_UNPICK rows), then
 * out of exactly those stock lines as the transfer ships (TRANSFER_OUT rows; the transfer IN_TRANSIT), so in-transit
 * stock, receipts and returns work as for any shipped transfer.
 */
async function shipTransfer(ctx: TxContext, shipment: Shipment, carrier: string) {
  const handOver = shipmentSource(shipment, 'SHIPMENT_UNPICK', 'Handed to the transfer');
  await moveAllUnits(ctx, shipment, (session, stockLineId, quantity) => session.unpick(stockLineId, quantity, handOver));
  const lines = await ctx.prisma.shipmentLine.findMany({ where: { shipmentId: shipment.id }, include: { allocations: true } });
  const pinned = new Map<string, PinnedUnits[]>(lines.map((l) => [l.transferLineId!, l.allocations.map((a) => ({ lotId: a.lotId, binId: a.binId, quantity: a.quantity }))]));
  await shipTransferForShipment(ctx, shipment.transferId!, shipment.id, pinned, `Shipped by ${carrier} (${shipmentReference(shipment)})`);
}

/** The shipment's order becomes FULFILLED when no line has units left that no SHIPPED or DELIVERED shipment carries. */
async function closeShippedOrder(ctx: TxContext, shipment: Shipment) {
  await ctx.prisma.$executeRaw`
    UPDATE sales_orders o SET status = 'FULFILLED', "updatedAt" = now()
    WHERE o.id = ${shipment.salesOrderId} AND NOT EXISTS (
      SELECT 1 FROM sales_order_lines l WHERE l."salesOrderId" = o.id AND l."requestedQty" > COALESCE((
        SELECT SUM(sl.quantity) FROM shipment_lines sl JOIN shipments s ON s.id = sl."shipmentId"
        WHERE sl."orderLineId" = l.id AND s.status IN ('SHIPPED', 'DELIVERED')), 0))`;
}
