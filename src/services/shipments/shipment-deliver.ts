import type { z } from 'zod';
import type { shipmentDeliver } from '../../contracts/shipments/shipments.js';
import type { RequestContext } from '../../context.js';
import { inTransaction } from '../../db/transactions.js';
import { validationError } from '../../kernel/errors.js';
import type { ShipmentWithLines } from './shipment-shape.js';
import { lockShipmentFor, moveShipment } from './shipment-state.js';

/** SHIPPED → DELIVERED on the date given (default now): not before it shipped, not in the future (400 on `deliveredAt`). */
export function deliverShipment(ctx: RequestContext, input: z.output<typeof shipmentDeliver>): Promise<ShipmentWithLines> {
  return inTransaction(ctx, async (ctx) => {
    const shipment = await lockShipmentFor(ctx, input.id, 'deliver');
    const now = new Date();
    const deliveredAt = input.deliveredAt ?? now;
    if (deliveredAt.getTime() > now.getTime()) throw validationError({ deliveredAt: ['Must not be in the future'] });
    if (shipment.shippedAt && deliveredAt.getTime() < shipment.shippedAt.getTime()) throw validationError({ deliveredAt: [`Must not be before the shipment shipped (${shipment.shippedAt.toISOString()})`] });
    return moveShipment(ctx, shipment, 'DELIVERED', { deliveredAt });
  });
}
