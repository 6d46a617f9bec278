import type { RequestContext } from '../../context.js';
import { inTransaction } from '../../db/transactions.js';
import type { ShipmentWithLines } from './shipment-shape.js';
import { lockShipmentFor, moveShipment, SHIPMENT_TRANSACTION } from './shipment-state.js';
import { moveAllUnits, shipmentSource } from './shipment-stock.js';

/**
 * RESERVED, PICKED or PACKED → CANCELLED: a reservation is released (SHIPMENT_RELEASE rows), picked units go back
 * on their shelf, available again (SHIPMENT_UNPICK rows). The order's units are open to another shipment. Final.
 */
export function cancelShipment(ctx: RequestContext, input: { id: string }): Promise<ShipmentWithLines> {
  return inTransaction(
    ctx,
    async (ctx) => {
      const shipment = await lockShipmentFor(ctx, input.id, 'cancel');
      if (shipment.status === 'RESERVED') {
        const source = shipmentSource(shipment, 'SHIPMENT_RELEASE', 'Shipment cancelled');
        await moveAllUnits(ctx, shipment, (session, stockLineId, quantity) => session.release(stockLineId, quantity, source));
      } else {
        const source = shipmentSource(shipment, 'SHIPMENT_UNPICK', 'Shipment cancelled, picked units returned');
        await moveAllUnits(ctx, shipment, (session, stockLineId, quantity) => session.unpick(stockLineId, quantity, source));
      }
      return moveShipment(ctx, shipment, 'CANCELLED', { cancelledAt: new Date() });
    },
    SHIPMENT_TRANSACTION,
  );
}
