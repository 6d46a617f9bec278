import { stockRequestFulfil, stockRequestFulfilLine } from '../../contracts/stock-requests/stock-request-fulfilment.js';
import { fulfilStockRequest } from '../../services/stock-requests/stock-request-fulfil.js';
import { builder } from '../builder.js';
import { contractInput, parseInput } from '../contract-input.js';
import { StockRequestRef } from './stock-request-types.js';

const FulfilLineInput = contractInput('StockRequestFulfilLineInput', stockRequestFulfilLine, { description: 'Units of one line to ship, named by its product.', types: { productMasterId: 'ID' } });
const FulfilInput = contractInput('StockRequestFulfilInput', stockRequestFulfil, {
  description: 'The request to fulfil, the units to ship (default: everything approved and not yet fulfilled), and whether the rest is closed.',
  types: { id: 'ID', lines: [FulfilLineInput] },
});

builder.mutationFields((t) => ({
  fulfilStockRequest: t.field({
    refusals: ['ValidationError', 'NotFoundError', 'ConflictError', 'InsufficientStockError'],
    type: StockRequestRef,
    description:
      'Ships units of an APPROVED or PARTIALLY_FULFILLED request from the supplying location to the requesting one as an inventory transfer (sourceType STOCK_REQUEST; ' +
      'its id in the FULFILMENT history entry): reserved lots first, then available stock first-expiry-first-out. More than a line has approved and not yet fulfilled: ' +
      'ValidationError on lines.i.quantity; short of stock: INSUFFICIENT_STOCK; any other state, or nothing left: ConflictError INVALID_STATE; nothing changed on a refusal. ' +
      'The request becomes PARTIALLY_FULFILLED, and FULFILLED when every approved unit (or, with closeRemainder, every unit shipped) is received.',
    authScopes: { permission: 'stockrequests.write' },
    args: { input: t.arg({ type: FulfilInput, required: true, description: 'The request and what to ship.' }) },
    resolve: (_parent, args, ctx) => fulfilStockRequest(ctx, parseInput(stockRequestFulfil, args.input)),
  }),
}));
