import type { RequestContext } from '../../context.js';
import { inTransaction } from '../../db/transactions.js';
import type { ShipmentWithLines } from './shipment-shape.js';
import { lockShipmentFor, moveShipment, SHIPMENT_TRANSACTION } from './shipment-state.js';
import { moveAllUnits, shipmentSource } from './shipment-stock.js';

/** RESERVED → PICKED: every reserved unit is taken off its lot and bin (reserved → picked on the same stock lines, PICK rows), which the allocations record. */
export function pickShipment(ctx: RequestContext, input: { id: string }): Promise<ShipmentWithLines> {
  return inTransaction(
    ctx,
    async (ctx) => {
      const shipment = await lockShipmentFor(ctx, input.id, 'pick');
      const source = shipmentSource(shipment, 'SHIPMENT_PICK', 'Picked for shipment');
      await moveAllUnits(ctx, shipment, (session, stockLineId, quantity) => session.pick(stockLineId, quantity, source));
      return moveShipment(ctx, shipment, 'PICKED', { pickedAt: new Date() });
    },
    SHIPMENT_TRANSACTION,
  );
}
