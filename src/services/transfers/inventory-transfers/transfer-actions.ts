import type { z } from 'zod';
import type { inventoryTransferActionInput } from '../../../contracts/transfers/inventory-transfers/inventory-transfer.js';
import type { RequestContext } from '../../../context.js';
import { validationError } from '../../../kernel/errors.js';
import { updateTransfer } from './transfer-drafts.js';
import { cancelTransfer, receiveTransfer } from './transfer-receiving.js';
import { shipTransfer } from './transfer-shipping.js';

/** The input as its contract outputs it (parsed once, where it comes in). */
export type TransferActionInput = z.output<typeof inventoryTransferActionInput>;

/** One action on a transfer (POST /api/inventory/transfers/{id}): ship, receive, cancel or update. */
export function actOnTransfer(ctx: RequestContext, id: string, input: TransferActionInput) {
  switch (input.action) {
    case 'ship':
      return shipTransfer(ctx, id, { comment: input.comment });
    case 'receive':
      return receiveTransfer(ctx, id, input.receipt ?? { comment: input.comment });
    case 'cancel':
      return cancelTransfer(ctx, id, { comment: input.comment });
    case 'update':
      return updateTransfer(ctx, id, input.changes ?? {});
    default:
      throw validationError({ action: ['One of ship, receive, cancel, update'] });
  }
}
