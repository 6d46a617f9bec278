import type { TxContext } from '../../db/transactions.js';
import { type InventoryTransfer, Prisma } from '../../generated/prisma/client.js';
import { followTransfers, type TransferUnits } from '../transfers/inventory-transfers/transfer-followers.js';
import { completeWhenDone } from './stock-request-completion.js';
import { lockRequestFor, recordEvent } from './stock-request-state.js';

/** Adds (a negative count: takes) units per product to a count column of the request's lines, in one statement. */
async function addToLines(ctx: TxContext, requestId: string, column: 'quantityReceived' | 'quantityFulfilled', units: TransferUnits[], sign: 1 | -1) {
  const col = Prisma.raw(`"${column}"`);
  await ctx.prisma.$executeRaw`UPDATE stock_request_lines l SET ${col} = GREATEST(l.${col} + u.n, 0), "updatedAt" = now()
    FROM unnest(${units.map((u) => u.productMasterId)}::text[], ${units.map((u) => sign * u.quantity)}::int[]) AS u(p, n)
    WHERE l."requestId" = ${requestId} AND l."productMasterId" = u.p`;
}

const describe = (units: TransferUnits[]) => `${units.reduce((sum, u) => sum + u.quantity, 0)} unit(s)`;

/**
 * What a stock request hears of the transfers its fulfilments shipped (the transfers area calls these in the
 * transaction of the receipt or cancellation, after locking the transfer; the request is locked next).
 * Transfers do not import stock requests: this follower is registered by sourceType, so the dependency runs
 * one way and the request's lines and history change in the very transaction that moved the stock.
 */
followTransfers('STOCK_REQUEST', {
  /** A receipt at the requesting location: quantityReceived grows, a RECEIPT entry names the transfer, and the request is FULFILLED when done. */
  async received(ctx: TxContext, transfer: InventoryTransfer, units: TransferUnits[]) {
    const request = await lockRequestFor(ctx, transfer.sourceId!, 'record a transfer of');
    await addToLines(ctx, request.id, 'quantityReceived', units, 1);
    await recordEvent(ctx, request.id, 'RECEIPT', { note: `${describe(units)} received on transfer ${transfer.id}`, transferId: transfer.id });
    await completeWhenDone(ctx, request, 'Every approved unit shipped and received');
  },
  /** A linked transfer cancelled in transit: its units are back at the supplying location, so they count as unfulfilled again (a later fulfilment may ship them). */
  async returned(ctx: TxContext, transfer: InventoryTransfer, units: TransferUnits[]) {
    const request = await lockRequestFor(ctx, transfer.sourceId!, 'record a transfer of');
    await addToLines(ctx, request.id, 'quantityFulfilled', units, -1);
    await recordEvent(ctx, request.id, 'RETURN', { note: `${describe(units)} returned to the supplying location: transfer ${transfer.id} cancelled`, transferId: transfer.id });
    await completeWhenDone(ctx, request, 'Every transfer received or returned, and the remainder closed');
  },
});
