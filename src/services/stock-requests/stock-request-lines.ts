import type { z } from 'zod';
import type { stockRequestLinesSet } from '../../contracts/stock-requests/stock-requests.js';
import { MAX_STOCK_REQUEST_LINES } from '../../contracts/stock-requests/stock-requests.js';
import type { RequestContext } from '../../context.js';
import { inTransaction } from '../../db/transactions.js';
import { newFieldErrors, validationError } from '../../kernel/errors.js';
import { checkFilterIds } from '../filter-ids.js';
import { setApprovedQuantities } from './stock-request-approve.js';
import { REQUEST_WITH_LINES, type StockRequestWithLines } from './stock-request-shape.js';
import { checkApprover, lockRequestFor, recordEvent } from './stock-request-state.js';

export type StockRequestLinesInput = z.output<typeof stockRequestLinesSet>;

/**
 * While DRAFT: adds lines or changes them (quantityRequested required, quantityApproved refused). While
 * SUBMITTED: an approver (not the requester, unless a tenant administrator) sets approved quantities of
 * existing lines (quantityApproved required, the rest refused). A LINES entry in the history. Any other state: 409.
 */
export async function setStockRequestLines(ctx: RequestContext, input: StockRequestLinesInput): Promise<StockRequestWithLines> {
  await checkFilterIds(ctx, { productMasterId: input.lines.map((l) => l.productMasterId) });
  return inTransaction(ctx, async (ctx) => {
    const request = await lockRequestFor(ctx, input.id, 'change lines of');
    const errors = newFieldErrors();
    const draft = request.status === 'DRAFT';
    input.lines.forEach((line, i) => {
      if (draft) {
        if (line.quantityRequested == null) errors[`lines.${i}.quantityRequested`] = ['Required while the request is DRAFT'];
        if (line.quantityApproved != null) errors[`lines.${i}.quantityApproved`] = ['Only while the request is SUBMITTED'];
      } else {
        if (line.quantityApproved == null) errors[`lines.${i}.quantityApproved`] = ['Required while the request is SUBMITTED'];
        if (line.quantityRequested != null) errors[`lines.${i}.quantityRequested`] = ['Only while the request is DRAFT'];
        if (line.unit != null) errors[`lines.${i}.unit`] = ['Only while the request is DRAFT'];
      }
    });
    if (Object.keys(errors).length) throw validationError(errors);
    if (draft) {
      const existing = await ctx.prisma.stockRequestLine.findMany({ where: { requestId: request.id }, select: { productMasterId: true } });
      const known = new Set(existing.map((l) => l.productMasterId));
      const added = input.lines.filter((l) => !known.has(l.productMasterId)).length;
      if (existing.length + added > MAX_STOCK_REQUEST_LINES) throw validationError({ lines: [`A request has at most ${MAX_STOCK_REQUEST_LINES} lines`] });
      for (const line of input.lines) {
        const values = { quantityRequested: line.quantityRequested!, ...(line.unit !== undefined ? { unit: line.unit } : {}) };
        await ctx.prisma.stockRequestLine.upsert({
          where: { requestId_productMasterId: { requestId: request.id, productMasterId: line.productMasterId } },
          create: { requestId: request.id, productMasterId: line.productMasterId, ...values },
          update: values,
        });
      }
    } else {
      checkApprover(ctx, request);
      await setApprovedQuantities(ctx, request, input.lines);
    }
    await recordEvent(ctx, request.id, 'LINES', { note: `${input.lines.length} line(s) ${draft ? 'added or changed' : 'given approved quantities'}` });
    return ctx.prisma.stockRequest.findUniqueOrThrow({ where: { id: request.id }, ...REQUEST_WITH_LINES });
  });
}
