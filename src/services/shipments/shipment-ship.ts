import type { z } from 'zod';
import type { shipmentShip } from '../../contracts/shipments/shipments.js';
import type { RequestContext } from '../../context.js';
import { inTransaction, type TxContext } from '../../db/transactions.js';
import type { Shipment } from '../../generated/prisma/client.js';
import type { ShipmentWithLines } from './shipment-shape.js';
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
      const source = shipmentSource(shipment, 'SHIPMENT_OUT', `Shipped by ${input.carrier}`);
      await moveAllUnits(ctx, shipment, (session, stockLineId, quantity) => session.shipPicked(stockLineId, quantity, source));
      const shipped = await moveShipment(ctx, shipment, 'SHIPPED', { shippedAt: new Date(), carrier: input.carrier, trackingNumber: input.trackingNumber ?? null });
      await closeShippedOrder(ctx, shipment);
      return shipped;
    },
    SHIPMENT_TRANSACTION,
  );
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
