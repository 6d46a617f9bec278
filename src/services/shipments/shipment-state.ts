import type { TxContext } from '../../db/transactions.js';
import type { Prisma, Shipment, ShipmentStatus } from '../../generated/prisma/client.js';
import { DomainError, notFound } from '../../kernel/errors.js';
import { appendEvents } from '../events/outbox/append-events.js';
import { orgId } from '../tenant.js';
import { SHIPMENT_WITH_LINES } from './shipment-shape.js';

/** Interactive transaction limits of a shipment move: it may queue on the shipment's and stock lines' locks. */
export const SHIPMENT_TRANSACTION = { maxWait: 10_000, timeout: 20_000 };

/** What each move may start from; the one table of a shipment's states. */
const ALLOWED_FROM = {
  pick: ['RESERVED'],
  pack: ['PICKED'],
  ship: ['PACKED'],
  deliver: ['SHIPPED'],
  cancel: ['RESERVED', 'PICKED', 'PACKED'],
} as const satisfies Record<string, readonly ShipmentStatus[]>;

export type ShipmentMove = keyof typeof ALLOWED_FROM;

/**
 * Locks the organization's shipment (SELECT ... FOR UPDATE) for the rest of the transaction and checks that
 * `move` may start from its state: a second move of the same shipment waits here and then sees the state the
 * first left, so two ships at once ship once and the other is refused. Unknown or foreign id: 404; wrong
 * state: 409 INVALID_STATE naming the state.
 */
export async function lockShipmentFor(ctx: TxContext, id: string, move: ShipmentMove): Promise<Shipment> {
  const [shipment] = await ctx.prisma.$queryRaw<Shipment[]>`
    SELECT * FROM shipments WHERE id = ${id} AND "organizationId" = ${orgId(ctx)} FOR UPDATE`;
  if (!shipment) throw notFound('Shipment');
  const allowed: readonly ShipmentStatus[] = ALLOWED_FROM[move];
  if (!allowed.includes(shipment.status)) {
    throw new DomainError('INVALID_STATE', `Cannot ${move} a shipment that is ${shipment.status}; allowed from ${allowed.join(' or ')}`);
  }
  return shipment;
}

/** The organization's next shipment number; creations of one organization queue on a transaction-level advisory lock. */
export async function nextNumber(ctx: TxContext): Promise<number> {
  const organizationId = orgId(ctx);
  await ctx.prisma.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`shipment-number:${organizationId}`}))`;
  const last = await ctx.prisma.shipment.aggregate({ where: { organizationId }, _max: { number: true } });
  return (last._max.number ?? 0) + 1;
}

/** Moves the locked shipment to `to` with the other columns given, and tells the outbox; answers it with its lines. */
export async function moveShipment(ctx: TxContext, shipment: Shipment, to: ShipmentStatus, data: Prisma.ShipmentUpdateInput = {}) {
  const moved = await ctx.prisma.shipment.update({ where: { id: shipment.id }, data: { ...data, status: to }, ...SHIPMENT_WITH_LINES });
  await shipmentMoved(ctx, moved, shipment.status);
  return moved;
}

/** The `shipment.moved` event of a shipment that has just reached its status (from `from`; null: created), in the move's transaction. */
export function shipmentMoved(ctx: TxContext, shipment: Shipment, from: ShipmentStatus | null) {
  return appendEvents(ctx, [
    {
      type: 'shipment.moved',
      subjectId: shipment.id,
      locationId: shipment.locationId,
      payload: { shipmentId: shipment.id, orderId: shipment.salesOrderId, transferId: shipment.transferId, from, to: shipment.status, carrier: shipment.carrier, trackingNumber: shipment.trackingNumber },
    },
  ]);
}
