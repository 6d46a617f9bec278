import type { TxContext } from '../../../db/transactions.js';
import type { InventoryTransfer } from '../../../generated/prisma/client.js';

/** Units of one product that a transfer's receipt brought in, or its cancellation returned to the source. */
export interface TransferUnits {
  productMasterId: string;
  quantity: number;
}

/**
 * What a document that creates transfers (by their sourceType) wants to hear about them, inside the
 * transaction of the receipt or cancellation, after the transfer's own rows are written: a refusal thrown
 * here refuses the whole action. The transfers area calls these and imports nothing of the documents, so
 * the dependency stays one way (documents → transfers).
 */
export interface TransferFollower {
  received(ctx: TxContext, transfer: InventoryTransfer, units: TransferUnits[]): Promise<void>;
  returned(ctx: TxContext, transfer: InventoryTransfer, units: TransferUnits[]): Promise<void>;
}

const followers = new Map<string, TransferFollower>();

/** Registers the follower of transfers with this sourceType (one per sourceType; registering again replaces it). */
export function followTransfers(sourceType: string, follower: TransferFollower): void {
  followers.set(sourceType, follower);
}

/** Tells the follower of the transfer's sourceType, if any, what happened. */
export async function notifyFollower(ctx: TxContext, transfer: InventoryTransfer, event: keyof TransferFollower, units: TransferUnits[]): Promise<void> {
  const follower = transfer.sourceType ? followers.get(transfer.sourceType) : undefined;
  const moved = units.filter((u) => u.quantity > 0);
  if (follower && moved.length) await follower[event](ctx, transfer, moved);
}
