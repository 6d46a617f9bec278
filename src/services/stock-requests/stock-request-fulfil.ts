import type { z } from 'zod';
import type { stockRequestFulfil } from '../../contracts/stock-requests/stock-request-fulfilment.js';
import type { RequestContext } from '../../context.js';
import { inTransaction, type TxContext } from '../../db/transactions.js';
import { DomainError, newFieldErrors, notFound, validationError } from '../../kernel/errors.js';
import { actorOf } from '../actor-of.js';
import { openReservations } from '../inventory/reservations/fefo-reservations.js';
import { createShippedTransfer, type ShippedTransferInput } from '../transfers/inventory-transfers/transfer-shipping.js';
import { TRANSFER_TRANSACTION } from '../transfers/inventory-transfers/transfer-state.js';
import { REQUEST_WITH_LINES, requestReference, type StockRequestWithLines } from './stock-request-shape.js';
import { linesWithAllocations, releaseAll, releaseSource, syncReservedQuantities } from './stock-request-reservations.js';
import { lockRequestFor, recordEvent } from './stock-request-state.js';
import './stock-request-transfers.js';

export type StockRequestFulfilInput = z.output<typeof stockRequestFulfil>;

type TransferLine = ShippedTransferInput['lines'][number];

/**
 * Ships units of an APPROVED or PARTIALLY_FULFILLED request from the supplying location to the requesting
 * one as an inventory transfer (createShippedTransfer, sourceType STOCK_REQUEST, sourceId the request), in
 * one transaction under the request's row lock, so two fulfilments of one request at once queue and the
 * second sees what the first shipped:
 * - each line ships what is asked (default: everything approved and not yet fulfilled); more than that is
 *   400 on `lines.i.quantity`, a product without a line 404, nothing to ship 409;
 * - the line's reserved units go first, from exactly the stock lines holding them (released, then withdrawn,
 *   oldest allocation first); units the approval could not reserve come from what is available then,
 *   first-expiring lots first; short of stock: 400 INSUFFICIENT_STOCK naming `lines.i.quantity`, nothing changed;
 * - quantityFulfilled grows, the request becomes PARTIALLY_FULFILLED (FULFILLED only once the transfers are
 *   received), a FULFILMENT entry names the transfer;
 * - `closeRemainder`: what is still unfulfilled is closed and its reservation released.
 */
export function fulfilStockRequest(ctx: RequestContext, input: StockRequestFulfilInput): Promise<StockRequestWithLines> {
  return inTransaction(
    ctx,
    async (ctx) => {
      const request = await lockRequestFor(ctx, input.id, 'fulfil');
      if (request.remainderClosedAt) throw new DomainError('INVALID_STATE', `Cannot fulfil a stock request that is ${request.status} with its remainder closed`);
      const lines = await linesWithAllocations(ctx, request);
      const open = (line: (typeof lines)[number]) => (line.quantityApproved ?? 0) - line.quantityFulfilled;
      const byProduct = new Map(lines.map((line) => [line.productMasterId, line]));
      const wanted = input.lines
        ? input.lines.map((l) => {
            const line = byProduct.get(l.productMasterId);
            if (!line) throw notFound('Stock request line');
            return { line, quantity: l.quantity };
          })
        : lines.filter((line) => open(line) > 0).map((line) => ({ line, quantity: open(line) }));
      const errors = newFieldErrors();
      wanted.forEach((w, i) => {
        if (w.quantity > open(w.line)) errors[`lines.${i}.quantity`] = [`At most ${open(w.line)} of this line remain to fulfil (approved ${w.line.quantityApproved ?? 0}, fulfilled ${w.line.quantityFulfilled})`];
      });
      if (Object.keys(errors).length) throw validationError(errors, 'More than the request has approved and not yet fulfilled');
      if (!wanted.length) throw new DomainError('INVALID_STATE', `Cannot fulfil a stock request that is ${request.status} with nothing left to fulfil`);

      const reservations = await openReservations(ctx, {
        stockOf: wanted.map((w) => ({ productMasterId: w.line.productMasterId, locationId: request.supplyingLocationId })),
        lineIds: lines.flatMap((line) => line.allocations.map((a) => a.stockLineId)),
      });
      const reference = requestReference(request);
      const release = releaseSource(request, `Shipped for ${reference}`);
      // Each transfer line, and the index of the asked line it ships for (to name it in a refusal).
      const shipped: { line: TransferLine; asked: number }[] = [];
      for (const [asked, w] of wanted.entries()) {
        let left = w.quantity;
        for (const a of w.line.allocations) {
          if (!left) break;
          const take = Math.min(left, a.quantity);
          const released = reservations.release(a.stockLineId, take, release);
          if (released) shipped.push({ asked, line: { productMasterId: w.line.productMasterId, quantity: released, lotId: a.stockLine.lotId, binId: a.stockLine.binId, exact: true } });
          left -= released;
          a.quantity -= take;
        }
        if (left) shipped.push({ asked, line: { productMasterId: w.line.productMasterId, quantity: left } });
      }
      await keepAllocations(ctx, wanted.flatMap((w) => w.line.allocations));
      if (input.closeRemainder) await releaseAll(ctx, request, `Remainder of ${reference} closed`, reservations);
      await reservations.write();

      const transfer = await createShippedTransfer(
        ctx,
        { sourceLocationId: request.supplyingLocationId, destLocationId: request.requestingLocationId, lines: shipped.map((s) => s.line), sourceType: 'STOCK_REQUEST', sourceId: request.id, reference },
        { comment: `Stock request ${reference}` },
      ).catch((error: unknown) => {
        throw byAskedLine(error, shipped.map((s) => s.asked));
      });

      const fulfilled = new Map(wanted.map((w) => [w.line.id, w.quantity]));
      const ids = [...fulfilled.keys()];
      await ctx.prisma.$executeRaw`
        UPDATE stock_request_lines l SET "quantityFulfilled" = l."quantityFulfilled" + u.n, "updatedAt" = now()
        FROM unnest(${ids}::text[], ${ids.map((lineId) => fulfilled.get(lineId)!)}::int[]) AS u(id, n) WHERE l.id = u.id`;
      await syncReservedQuantities(ctx, request);
      const units = wanted.reduce((sum, w) => sum + w.quantity, 0);
      const note = [input.note, `${units} unit(s) shipped on transfer ${transfer.id}${input.closeRemainder ? '; the remainder closed' : ''}`].filter(Boolean).join(' — ');
      await recordEvent(ctx, request.id, 'FULFILMENT', { from: request.status, to: 'PARTIALLY_FULFILLED', note, transferId: transfer.id });
      return ctx.prisma.stockRequest.update({
        where: { id: request.id },
        data: { status: 'PARTIALLY_FULFILLED', ...(input.closeRemainder ? { remainderClosedAt: new Date(), remainderClosedBy: actorOf(ctx).createdBy } : {}) },
        ...REQUEST_WITH_LINES,
      });
    },
    TRANSFER_TRANSACTION,
  );
}

/** Writes the allocations as the fulfilment left them: emptied ones go, the others keep what is still reserved. */
async function keepAllocations(ctx: TxContext, allocations: { id: string; quantity: number }[]) {
  const emptied = allocations.filter((a) => a.quantity <= 0).map((a) => a.id);
  if (emptied.length) await ctx.prisma.stockRequestAllocation.deleteMany({ where: { id: { in: emptied } } });
  const kept = allocations.filter((a) => a.quantity > 0);
  if (!kept.length) return;
  await ctx.prisma.$executeRaw`
    UPDATE stock_request_allocations a SET quantity = u.q
    FROM unnest(${kept.map((a) => a.id)}::text[], ${kept.map((a) => a.quantity)}::int[]) AS u(id, q) WHERE a.id = u.id`;
}

/** A shortage of the transfer's lines, named by the request's lines they ship for (`lines.i.quantity` of the body). */
function byAskedLine(error: unknown, askedOf: number[]): unknown {
  if (!(error instanceof DomainError) || error.code !== 'INSUFFICIENT_STOCK' || !error.extra.details) return error;
  const details = newFieldErrors();
  for (const [field, messages] of Object.entries(error.extra.details)) {
    const match = /^lines\.(\d+)\.quantity$/.exec(field);
    const key = match ? `lines.${askedOf[Number(match[1])]}.quantity` : field;
    details[key] = [...(details[key] ?? []), ...messages];
  }
  return new DomainError('INSUFFICIENT_STOCK', 'Not enough stock at the supplying location to fulfil the request', { details });
}
