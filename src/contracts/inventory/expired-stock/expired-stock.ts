import { z } from 'zod';
import { MAX_INT } from '../../../kernel/input-limits.js';
import { calendarDateText } from '../../date-times.js';
import { mustBe } from '../../parse.js';
import { text, wholeNumber } from '../../query-values.js';
import { optionalNote } from '../../text-fields.js';

export const EXPIRED_PAGE = { limit: 100, max: 500 } as const;
export const MAX_EXPIRED_LINES = 500;
/** Stock lines a lot / location filter may select in one request (10 requests' worth of named lines). */
export const MAX_FILTERED_EXPIRED_LINES = 5000;

/** Query of GET /api/inventory/expired and arguments of expiredStock. */
export const expiredStockQuery = z.object({
  asOf: text.pipe(calendarDateText.optional()).meta({ description: 'Lots that expired before this day (YYYY-MM-DD, UTC; default today).' }),
  locationId: text.meta({ description: "Only lines at this location (404 when it is not the organization's)." }),
  productMasterId: text.meta({ description: "Only lines of this product (404 when it is not the organization's)." }),
  lotId: text.meta({ description: "Only lines of this lot (404 when it is not the organization's)." }),
  minDaysExpired: wholeNumber('Must be a whole number, 0 or more', { min: 0 }).meta({ description: 'Only lots expired at least this many days before asOf (1 = expired the day before).' }),
  limit: wholeNumber(`Must be a whole number from 1 to ${EXPIRED_PAGE.max}`, { min: 1, max: EXPIRED_PAGE.max }).meta({ description: `Page size (default ${EXPIRED_PAGE.limit}).` }),
  offset: wholeNumber('Must be a whole number, 0 or more', { min: 0 }).meta({ description: 'Lines to skip (default 0).' }),
});

const id = (description: string) => z.string({ error: mustBe('text') }).trim().min(1, 'Required').meta({ description });

const line = z
  .strictObject({
    stockLineId: id("A stock line of the organization (400 naming lines.N.stockLineId otherwise)."),
    quantity: z
      .number({ error: mustBe('a whole number') })
      .int('Must be a whole number')
      .min(1, 'Must be 1 or more')
      .max(MAX_INT, `At most ${MAX_INT}`)
      .nullish()
      .meta({ description: 'Units to act on; default every unit the action can take from the line.' }),
  })
  .meta({ description: 'One stock line and how many of its units.' });

/** The fields every expired-stock action takes: which lines, and why. */
const actionFields = {
  lines: z.array(line).min(1, 'At least one line').max(MAX_EXPIRED_LINES, `At most ${MAX_EXPIRED_LINES} lines`).nullish().meta({ description: `The stock lines, 1 to ${MAX_EXPIRED_LINES}; or name lotId and/or locationId instead.` }),
  lotId: id(`Instead of lines: every line of this lot (at locationId when given) whose lot has expired; 400 when it is not the organization's, or when the filter selects more than ${MAX_FILTERED_EXPIRED_LINES} lines.`).nullish(),
  locationId: id(`Instead of lines: every line at this location (of lotId when given) whose lot has expired; 400 when it is not the organization's, or when the filter selects more than ${MAX_FILTERED_EXPIRED_LINES} lines.`).nullish(),
  reasonCodeId: id('An active reason code (id or code); default EXPIRED.').nullish(),
  note: optionalNote(2000).meta({ description: 'Written on every ledger row, up to 2000 characters.' }),
  force: z.boolean({ error: mustBe('true or false') }).nullish().meta({ description: 'Act on lines whose lot has not expired too. Only an ADMIN user or a key with the * scope (403 FORBIDDEN otherwise).' }),
};

type Selection = { lines?: unknown[] | null; lotId?: string | null; locationId?: string | null };

/** Lines, or a lot / location filter: one of the two. */
const oneSelection = (input: Selection, issue: z.RefinementCtx) => {
  if (!input.lines && !input.lotId && !input.locationId) issue.addIssue({ code: 'custom', path: ['lines'], message: 'Give lines, or lotId and/or locationId' });
  if (input.lines && (input.lotId || input.locationId)) issue.addIssue({ code: 'custom', path: ['lines'], message: 'Give lines or a lot/location filter, not both' });
};

/** Body of POST /api/inventory/expired/mark-expired and /mark-consumed, and input of markExpired and markExpiredConsumed. */
export const expiredStockAction = z
  .strictObject(actionFields)
  .superRefine(oneSelection)
  .meta({ description: 'Which expired stock to act on, and why.' });

/** Body of POST /api/inventory/expired/transfer-destruction and input of destroyExpiredStock. */
export const expiredStockDestruction = z
  .strictObject({
    ...actionFields,
    destinationLocationId: id(
      "The destruction location: the stock goes there on an inventory transfer (one per source location, shipped at once). A location of the organization other than the lines' (400 otherwise). Absent: the stock is written off with documentNumber.",
    ).nullish(),
    documentNumber: z
      .string({ error: mustBe('text') })
      .trim()
      .min(1, 'Required')
      .max(200, 'At most 200 characters')
      .nullish()
      .meta({ description: "The destruction certificate or write-off document, up to 200 characters. Required without destinationLocationId (kept on the ledger rows); with one, the transfers' reference." }),
  })
  .superRefine((input, issue) => {
    oneSelection(input, issue);
    if (!input.destinationLocationId && !input.documentNumber) {
      issue.addIssue({ code: 'custom', path: ['documentNumber'], message: 'Required without destinationLocationId: the document of the write-off' });
    }
    if (input.destinationLocationId && input.destinationLocationId === input.locationId) {
      issue.addIssue({ code: 'custom', path: ['destinationLocationId'], message: 'Must differ from locationId: the stock is already there' });
    }
  })
  .meta({ description: 'Which expired stock to send for destruction, where (or under which document), and why.' });
