import { z } from 'zod';
import { MAX_INT } from '../../../kernel/input-limits.js';
import { calendarDateText } from '../../date-times.js';
import { mustBe } from '../../parse.js';
import { optionalNote } from '../../text-fields.js';

/** Most lines one record-stock or record-count request may carry; more is a 400 on `lines`. */
export const MAX_LINES = 1000;

const REASON_CODE = 'An active reason code of the organization: its id, or its code (for example DAMAGED, any case).';
const ROOT_CAUSE =
  "Why the stock was lost. Required (400 details.rootCause) when the organization's industry is HEALTHCARE and on hand drops by " +
  "the organization's largeAdjustmentThreshold (default 100) units or more.";

const code = z.string({ error: mustBe('text') }).trim().min(1, 'Must not be blank').max(100, 'At most 100 characters').nullish();
const isoDate = calendarDateText.nullish();

/** One line of a record-stock batch; `quantity` means received units or the counted on hand. */
export const batchLine = (minQuantity: number) =>
  z.strictObject({
    productMasterId: z.string({ error: mustBe('text') }).min(1, 'Required').meta({ description: 'A product of the organization (else 400 details lines.N.productMasterId).' }),
    locationId: z.string({ error: mustBe('text') }).min(1, 'Required').meta({ description: 'A location of the organization (else 400 details lines.N.locationId).' }),
    quantity: z
      .number({ error: mustBe('a whole number') })
      .int('Must be a whole number')
      .min(minQuantity, minQuantity ? `Must be at least ${minQuantity}` : 'Must be 0 or more')
      .max(MAX_INT, `At most ${MAX_INT}`)
      .meta({ description: minQuantity ? `Units received (at least ${minQuantity}); added to on hand.` : 'Counted on hand (0 or more); on hand is set to it.' }),
    lotCode: code.meta({ description: 'Lot code; the lot is created for the product when missing.' }),
    expiryDate: isoDate.meta({
      format: 'date',
      description: 'Only with lotCode. A new lot gets this expiry; an existing lot with another (or no) expiry is a 400 (details lines.N.expiryDate).',
    }),
    binCode: code.meta({ description: 'Bin code at the location; the bin is created when missing.' }),
    comment: optionalNote(2000).meta({ description: 'Free text for the ledger row, up to 2000 characters.' }),
  });

export const batchLines = <T extends z.ZodTypeAny>(line: T) =>
  z.array(line, { error: mustBe('a list') }).min(1, 'At least one line').max(MAX_LINES, `At most ${MAX_LINES} lines per request`);

/** Body of POST /api/inventory/record-stock and input of recordStock. */
export const recordStockBody = z.strictObject({
  lines: batchLines(batchLine(1).meta({ description: 'quantity: units received, at least 1; added to on hand.' })).meta({ description: 'The received lines.' }),
});

const countLine = batchLine(0).extend({ rootCause: optionalNote(2000).meta({ description: 'Overrides the batch rootCause for this line.' }) });

/** Body of POST /api/inventory/adjustments/record-stock and input of recordCount. */
export const recordCountBody = z
  .strictObject({
    lines: batchLines(countLine).meta({ description: 'Each stock line (product, location, lotCode, binCode) at most once (else 400 details lines.N); quantity is the counted on hand.' }),
    reasonCodeId: z.string({ error: mustBe('text') }).trim().min(1, 'Required').nullish().meta({ description: `${REASON_CODE} Default COUNT_CORRECTION.` }),
    comment: optionalNote(2000).meta({ description: 'For every ledger row without its own comment.' }),
    rootCause: optionalNote(2000).meta({ description: ROOT_CAUSE }),
  })
  .superRefine((input, issue) => {
    const seen = new Map<string, number>();
    input.lines.forEach((line, i) => {
      const key = [line.productMasterId, line.locationId, line.lotCode ?? '', line.binCode ?? ''].join('\u0000');
      const first = seen.get(key);
      if (first === undefined) seen.set(key, i);
      else issue.addIssue({ code: 'custom', path: ['lines', i], message: `Counts the same stock line as line ${first}` });
    });
  });
