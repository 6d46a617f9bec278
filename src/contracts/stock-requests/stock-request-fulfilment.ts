import { z } from 'zod';
import { MAX_INT } from '../../kernel/input-limits.js';
import { mustBe } from '../parse.js';
import { optionalNote } from '../text-fields.js';
import { MAX_STOCK_REQUEST_LINES } from './stock-requests.js';

const id = z.string({ error: mustBe('text') }).trim().min(1, 'Required').max(200, 'At most 200 characters');

/** Units of one line to ship now, named by its product. */
export const stockRequestFulfilLine = z.strictObject({
  productMasterId: id.meta({ description: 'The product of a line of the request (404 when the request has no line of it).' }),
  quantity: z
    .number({ error: mustBe('a whole number') })
    .int('Must be a whole number')
    .min(1, 'Must be greater than 0')
    .max(MAX_INT, `At most ${MAX_INT}`)
    .meta({ description: 'Units to ship now: more than 0, at most what the line has approved and not yet fulfilled (400 beyond it).' }),
});

const fields = {
  lines: z
    .array(stockRequestFulfilLine, { error: mustBe('a list of lines') })
    .min(1, 'At least one line')
    .max(MAX_STOCK_REQUEST_LINES, `At most ${MAX_STOCK_REQUEST_LINES} lines`)
    .nullish()
    .meta({ description: `The units to ship, 1 to ${MAX_STOCK_REQUEST_LINES} lines, each product at most once; absent: everything approved and not yet fulfilled.` }),
  closeRemainder: z
    .boolean({ error: mustBe('true or false') })
    .nullish()
    .meta({ description: 'true: what stays unfulfilled after this shipment is closed (cancelled) and its reservation released; false or absent: it stays open for a later fulfilment.' }),
  note: optionalNote(2000).meta({ description: 'Kept in the history with the fulfilment, up to 2000 characters.' }),
};

const distinctProducts = (input: { lines?: { productMasterId: string }[] | null }, issue: z.RefinementCtx) => {
  const seen = new Set<string>();
  input.lines?.forEach((line, i) => {
    if (seen.has(line.productMasterId)) issue.addIssue({ code: 'custom', path: ['lines', i, 'productMasterId'], message: 'Each product at most once' });
    seen.add(line.productMasterId);
  });
};

/** Body of POST /api/stock-requests/{id}/fulfil (without id) and input of fulfilStockRequest. */
export const stockRequestFulfilment = z.strictObject(fields).superRefine(distinctProducts);
export const stockRequestFulfil = z
  .strictObject({ id: id.meta({ description: 'The request (404 when it is not one of the organization).' }), ...fields })
  .superRefine(distinctProducts);
