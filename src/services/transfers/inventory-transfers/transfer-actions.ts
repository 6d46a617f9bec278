import type { RequestContext } from '../../../context.js';
import { validationError } from '../../../kernel/errors.js';
import { type TransferUpdateInput, updateTransfer } from './transfer-drafts.js';
import { cancelTransfer, receiveTransfer, type TransferReceiveInput } from './transfer-receiving.js';
import { shipTransfer } from './transfer-shipping.js';

export interface TransferActionInput {
  action: string;
  comment?: string | null;
  receipt?: TransferReceiveInput | null;
  changes?: TransferUpdateInput | null;
}

/** One action on a transfer (POST /api/inventory/transfers/{id}): ship, receive, cancel or update. */
export function actOnTransfer(ctx: RequestContext, id: string, input: TransferActionInput) {
  switch (input.action.toLowerCase()) {
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
