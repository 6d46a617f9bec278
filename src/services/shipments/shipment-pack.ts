import type { z } from 'zod';
import type { shipmentPack } from '../../contracts/shipments/shipments.js';
import type { RequestContext } from '../../context.js';
import { inTransaction } from '../../db/transactions.js';
import type { ShipmentWithLines } from './shipment-shape.js';
import { lockShipmentFor, moveShipment } from './shipment-state.js';

/** PICKED → PACKED with the packages (count, and the weight when known). Stock does not change. */
export function packShipment(ctx: RequestContext, input: z.output<typeof shipmentPack>): Promise<ShipmentWithLines> {
  return inTransaction(ctx, async (ctx) => {
    const shipment = await lockShipmentFor(ctx, input.id, 'pack');
    return moveShipment(ctx, shipment, 'PACKED', { packedAt: new Date(), packageCount: input.packageCount, weightKg: input.weightKg ?? null });
  });
}
