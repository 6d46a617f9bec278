import { z } from 'zod';
import { MAX_INT } from '../../kernel/input-limits.js';
import { calendarDateText } from '../date-times.js';
import { mustBe } from '../parse.js';
import { optionalNote } from '../text-fields.js';

export const STOCK_REQUEST_STATUSES = ['DRAFT', 'SUBMITTED', 'APPROVED', 'REJECTED', 'PARTIALLY_FULFILLED', 'FULFILLED', 'CANCELLED'] as const;
export const STOCK_REQUEST_PRIORITIES = ['LOW', 'NORMAL', 'HIGH', 'URGENT'] as const;
/** The states POST /{id}/status moves to, each by the transition of the same effect. */
export const STOCK_REQUEST_STATUS_TARGETS = ['SUBMITTED', 'APPROVED', 'REJECTED', 'CANCELLED', 'PARTIALLY_FULFILLED', 'FULFILLED'] as const;
export const MAX_STOCK_REQUEST_LINES = 200;

const id = z.string({ error: mustBe('text') }).trim().min(1, 'Required').max(200, 'At most 200 characters');
const quantity = (what: string, min: number) =>
  z
    .number({ error: mustBe('a whole number') })
    .int('Must be a whole number')
    .min(min, min > 0 ? 'Must be greater than 0' : 'Must be at least 0')
    .max(MAX_INT, `At most ${MAX_INT}`)
    .meta({ description: what });
const requiredText = (max: number, what: string) =>
  z.string({ error: mustBe('text') }).trim().min(1, 'Required').max(max, `At most ${max} characters`).meta({ description: `${what}, up to ${max} characters.` });

const unit = z.string({ error: mustBe('text') }).trim().max(50, 'At most 50 characters').nullish().meta({ description: 'The unit the quantity counts, in words (each, box of 10), up to 50 characters.' });

/** A line as a request is created or its lines replaced with. */
export const stockRequestLine = z.strictObject({
  productMasterId: id.meta({ description: 'The product asked for (404 when it is not one of the organization); one line per product.' }),
  quantityRequested: quantity('Units asked for, more than 0.', 1),
  unit,
});

const distinctProducts = (lines: { productMasterId: string }[] | null | undefined, issue: z.RefinementCtx, field = 'lines') => {
  const seen = new Set<string>();
  lines?.forEach((line, i) => {
    if (seen.has(line.productMasterId)) issue.addIssue({ code: 'custom', path: [field, i, 'productMasterId'], message: 'Each product at most once' });
    seen.add(line.productMasterId);
  });
};

const lines = z
  .array(stockRequestLine, { error: mustBe('a list of lines') })
  .min(1, 'At least one line')
  .max(MAX_STOCK_REQUEST_LINES, `At most ${MAX_STOCK_REQUEST_LINES} lines`)
  .meta({ description: `The lines, 1 to ${MAX_STOCK_REQUEST_LINES}, each product at most once.` });

const fields = {
  requestingLocationId: id.meta({ description: 'The location asking for stock (404 when it is not one of the organization).' }),
  supplyingLocationId: id.meta({ description: 'The location asked to supply it (404 when it is not one of the organization); not the requesting location.' }),
  neededBy: calendarDateText.meta({ description: 'Date the stock is needed by (YYYY-MM-DD).' }),
  priority: z.enum(STOCK_REQUEST_PRIORITIES, { error: `One of ${STOCK_REQUEST_PRIORITIES.join(', ')}` }).meta({ description: 'LOW, NORMAL (default), HIGH or URGENT.' }),
  reason: optionalNote(1000).meta({ description: 'Why the stock is needed, up to 1000 characters.' }),
};

/** Body of POST /api/stock-requests and input of createStockRequest: a DRAFT request. */
export const stockRequestCreate = z
  .strictObject({ ...fields, priority: fields.priority.optional(), lines })
  .superRefine((input, issue) => {
    if (input.requestingLocationId === input.supplyingLocationId) issue.addIssue({ code: 'custom', path: ['supplyingLocationId'], message: 'Must differ from requestingLocationId' });
    distinctProducts(input.lines, issue);
  });

/** Body of PATCH /api/stock-requests/{id}: the fields to change of a DRAFT request; lines replace all. */
export const stockRequestChanges = z
  .strictObject({
    requestingLocationId: fields.requestingLocationId.optional(),
    supplyingLocationId: fields.supplyingLocationId.optional(),
    neededBy: fields.neededBy.optional(),
    priority: fields.priority.optional(),
    reason: fields.reason,
    lines: lines.optional(),
  })
  .superRefine((input, issue) => distinctProducts(input.lines, issue));

/** Input of updateStockRequest. */
export const stockRequestUpdate = z
  .strictObject({ id: id.meta({ description: 'The request (404 when it is not one of the organization).' }), ...stockRequestChanges.shape })
  .superRefine((input, issue) => distinctProducts(input.lines, issue));

const requestId = id.meta({ description: 'The request (404 when it is not one of the organization).' });
const note = optionalNote(2000).meta({ description: 'Kept in the history with the move, up to 2000 characters.' });

/** Body of POST /{id}/submit and /{id}/rollback (without id); with id, the input of submitStockRequest, cancelStockRequest and rollbackStockRequest. */
export const stockRequestNote = z.strictObject({ note });
export const stockRequestMove = z.strictObject({ id: requestId, note });

/** An approved quantity of one line, named by its product. */
export const stockRequestApprovedLine = z.strictObject({
  productMasterId: id.meta({ description: 'The product of a line of the request (404 when the request has no line of it).' }),
  quantityApproved: quantity('Units approved, from 0 (declined) to the quantity requested.', 0),
});

const approvedLines = z
  .array(stockRequestApprovedLine, { error: mustBe('a list of lines') })
  .max(MAX_STOCK_REQUEST_LINES, `At most ${MAX_STOCK_REQUEST_LINES} lines`)
  .meta({ description: 'Approved quantities to set; lines not named keep the approved quantity set earlier, else the quantity requested.' });

/** Body of POST /{id}/approve (without id) and input of approveStockRequest. */
export const stockRequestApproval = z.strictObject({ note, lines: approvedLines.nullish() }).superRefine((input, issue) => distinctProducts(input.lines, issue));
export const stockRequestApprove = z
  .strictObject({ id: requestId, note, lines: approvedLines.nullish() })
  .superRefine((input, issue) => distinctProducts(input.lines, issue));

/** Body of POST /{id}/reject (without id) and input of rejectStockRequest. */
export const stockRequestRejection = z.strictObject({ reason: requiredText(1000, 'Why the request is rejected (required)') });
export const stockRequestReject = z.strictObject({ id: requestId, reason: stockRequestRejection.shape.reason });

/** Body of POST /{id}/comment (without id) and input of commentOnStockRequest. */
export const stockRequestCommentBody = z.strictObject({ note: requiredText(2000, 'The comment (required)') });
export const stockRequestComment = z.strictObject({ id: requestId, note: stockRequestCommentBody.shape.note });

/** Body of POST /{id}/status (without id) and input of moveStockRequest. */
export const stockRequestStatusBody = z
  .strictObject({
    status: z.enum(STOCK_REQUEST_STATUS_TARGETS, { error: `One of ${STOCK_REQUEST_STATUS_TARGETS.join(', ')}` }).meta({
      description:
        'SUBMITTED (submit), APPROVED (approve whole), REJECTED (reject, `note` is the reason), CANCELLED (cancel), PARTIALLY_FULFILLED (fulfil: ship everything approved ' +
        'and not yet fulfilled) or FULFILLED (close the remainder once every transfer is received).',
    }),
    note,
  })
  .superRefine((input, issue) => {
    if (input.status === 'REJECTED' && !input.note?.trim()) issue.addIssue({ code: 'custom', path: ['note'], message: 'Required with status REJECTED (the reason)' });
  });
export const stockRequestStatusMove = z
  .strictObject({ id: requestId, status: stockRequestStatusBody.shape.status, note })
  .superRefine((input, issue) => {
    if (input.status === 'REJECTED' && !input.note?.trim()) issue.addIssue({ code: 'custom', path: ['note'], message: 'Required with status REJECTED (the reason)' });
  });

/** A line of POST /{id}/lines: quantityRequested (and unit) while DRAFT, quantityApproved while SUBMITTED. */
export const stockRequestLineChange = z.strictObject({
  productMasterId: id.meta({ description: 'The product (404 when it is not one of the organization; while SUBMITTED, when the request has no line of it).' }),
  quantityRequested: quantity('Units asked for, more than 0 (DRAFT only: adds the line or changes it).', 1).nullish(),
  quantityApproved: quantity('Units approved, from 0 to the quantity requested (SUBMITTED only, by an approver).', 0).nullish(),
  unit,
});

const lineChanges = z
  .array(stockRequestLineChange, { error: mustBe('a list of lines') })
  .min(1, 'At least one line')
  .max(MAX_STOCK_REQUEST_LINES, `At most ${MAX_STOCK_REQUEST_LINES} lines`)
  .meta({ description: `1 to ${MAX_STOCK_REQUEST_LINES} lines, each product at most once.` });

/** Body of POST /{id}/lines (without id) and input of setStockRequestLines. */
export const stockRequestLinesBody = z.strictObject({ lines: lineChanges }).superRefine((input, issue) => distinctProducts(input.lines, issue));
export const stockRequestLinesSet = z.strictObject({ id: requestId, lines: lineChanges }).superRefine((input, issue) => distinctProducts(input.lines, issue));
