import type { RequestContext } from '../../../context.js';
import { DomainError, notFound } from '../../../kernel/errors.js';
import type { InventoryTransfer, InventoryTransferStatus } from '../../../generated/prisma/client.js';
import { orgId } from '../../tenant.js';
import { actorOf } from '../../actor-of.js';
import type { TxContext } from '../../../db/transactions.js';

/** Interactive transaction limits of a transfer move: it may queue on stock line locks. */
export const TRANSFER_TRANSACTION = { maxWait: 10_000, timeout: 20_000 };

/** What each action may start from. */
const ALLOWED_FROM = {
  ship: ['DRAFT'],
  receive: ['IN_TRANSIT'],
  cancel: ['DRAFT', 'IN_TRANSIT'],
  update: ['DRAFT'],
} as const satisfies Record<string, readonly InventoryTransferStatus[]>;

export type TransferAction = keyof typeof ALLOWED_FROM;

/** A shipment (docs/shipments.md) that holds a DRAFT transfer's units from its creation until it ships or is cancelled. */
const OPEN_SHIPMENT = ['RESERVED', 'PICKED', 'PACKED'];

/**
 * Locks the organization's transfer (SELECT ... FOR UPDATE) for the rest of `tx` and checks that
 * `action` may start from its state: a second request on the same transfer waits here and then sees
 * the state the first left, so each move happens once. Unknown or foreign id: 404; wrong state: 409.
 * While a shipment carries the DRAFT transfer (reserved, picked or packed), the transfer does not move or
 * change by itself: 409 naming the shipment; that shipment's own ship passes `byShipment`.
 */
export async function lockTransferFor(ctx: TxContext, id: string, action: TransferAction, options: { byShipment?: string } = {}): Promise<InventoryTransfer> {
  const tx = ctx.prisma;
  const [transfer] = await tx.$queryRaw<InventoryTransfer[]>`
    SELECT * FROM inventory_transfers WHERE id = ${id} AND "organizationId" = ${orgId(ctx)} FOR UPDATE`;
  if (!transfer) throw notFound('Transfer');
  const allowed: readonly InventoryTransferStatus[] = ALLOWED_FROM[action];
  if (!allowed.includes(transfer.status)) {
    throw new DomainError('INVALID_STATE', `Cannot ${action} a transfer that is ${transfer.status}; allowed from ${allowed.join(' or ')}`);
  }
  if (transfer.status === 'DRAFT') {
    const open = await tx.shipment.findFirst({ where: { transferId: id, status: { in: OPEN_SHIPMENT as never[] } }, select: { id: true, number: true, status: true } });
    if (open && open.id !== options.byShipment) {
      const reference = `SH-${String(open.number).padStart(6, '0')}`;
      throw new DomainError('INVALID_STATE', `Cannot ${action} a transfer that shipment ${reference} carries (${open.status}); ship or cancel the shipment`);
    }
  }
  return transfer;
}

/** The actor fields a transfer records (USER or API_KEY, and the id). */
export const transferActor = (ctx: RequestContext) => {
  const { actorType, createdBy } = actorOf(ctx);
  return { type: actorType, id: createdBy };
};

/** The payload of a transfer's domain events (docs/events.md). */
export const transferEvent = (t: InventoryTransfer) => ({
  transferId: t.id,
  reference: t.reference,
  status: t.status,
  sourceLocationId: t.sourceLocationId,
  destLocationId: t.destLocationId,
});
