import type { z } from 'zod';
import type { stockRequestApprove } from '../../contracts/stock-requests/stock-requests.js';
import type { RequestContext } from '../../context.js';
import { inTransaction, type TxContext } from '../../db/transactions.js';
import type { StockRequest } from '../../generated/prisma/client.js';
import { newFieldErrors, notFound, validationError } from '../../kernel/errors.js';
import { actorOf } from '../actor-of.js';
import { reserveApproved } from './stock-request-reservations.js';
import { REQUEST_WITH_LINES, type StockRequestWithLines } from './stock-request-shape.js';
import { checkApprover, lockRequestFor, moveRequest } from './stock-request-state.js';

export type StockRequestApproveInput = z.output<typeof stockRequestApprove>;

/**
 * Sets approved quantities of the request's lines named by product: each line must be on the request (404)
 * and the quantity at most the quantity requested (400 naming `lines.i.quantityApproved`). Checked for
 * every line before any is written.
 */
export async function setApprovedQuantities(ctx: TxContext, request: StockRequest, lines: { productMasterId: string; quantityApproved?: number | null }[]) {
  const existing = await ctx.prisma.stockRequestLine.findMany({ where: { requestId: request.id, productMasterId: { in: lines.map((l) => l.productMasterId) } } });
  const byProduct = new Map(existing.map((line) => [line.productMasterId, line]));
  const errors = newFieldErrors();
  lines.forEach((line, i) => {
    const current = byProduct.get(line.productMasterId);
    if (!current) throw notFound('Stock request line');
    if (line.quantityApproved != null && line.quantityApproved > current.quantityRequested) {
      errors[`lines.${i}.quantityApproved`] = [`At most the quantity requested (${current.quantityRequested})`];
    }
  });
  if (Object.keys(errors).length) throw validationError(errors);
  // The last quantity given for a product wins; one statement for every line named, not one per line.
  const approved = new Map(lines.filter((line) => line.quantityApproved != null).map((line) => [byProduct.get(line.productMasterId)!.id, line.quantityApproved!]));
  if (!approved.size) return;
  const ids = [...approved.keys()];
  const quantities = [...approved.values()];
  await ctx.prisma.$executeRaw`
    UPDATE stock_request_lines l SET "quantityApproved" = u.q, "updatedAt" = now()
    FROM unnest(${ids}::text[], ${quantities}::int[]) AS u(id, q) WHERE l.id = u.id`;
}

/**
 * SUBMITTED → APPROVED, by an approver who is not the requester (unless a tenant administrator): the lines
 * named get their approved quantity, every other line keeps the one an approver set earlier or gets the
 * quantity requested. approvedAt and approvedBy set. The approved units are reserved at the supplying
 * location (first-expiring lots first); what is not available is left unreserved (quantityReserved shows it).
 */
export function approveStockRequest(ctx: RequestContext, input: StockRequestApproveInput): Promise<StockRequestWithLines> {
  return inTransaction(ctx, async (ctx) => {
    const request = await lockRequestFor(ctx, input.id, 'approve');
    checkApprover(ctx, request);
    if (input.lines?.length) await setApprovedQuantities(ctx, request, input.lines);
    await ctx.prisma.$executeRaw`
      UPDATE stock_request_lines SET "quantityApproved" = "quantityRequested", "updatedAt" = now()
      WHERE "requestId" = ${request.id} AND "quantityApproved" IS NULL`;
    const approved = await moveRequest(ctx, request, 'APPROVED', { approvedAt: new Date(), approvedBy: actorOf(ctx).createdBy }, input.note);
    await reserveApproved(ctx, approved);
    return ctx.prisma.stockRequest.findUniqueOrThrow({ where: { id: request.id }, ...REQUEST_WITH_LINES });
  });
}
