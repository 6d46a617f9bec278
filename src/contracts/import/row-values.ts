import { z } from 'zod';
import { MAX_INT, MAX_YEAR, MIN_YEAR, YEAR_RANGE_MESSAGE, yearInRange } from '../../kernel/input-limits.js';
import { textProblem } from '../../kernel/text-rule.js';

/**
 * Field values of import rows. Rows come from files: CSV loaders send every value as text, so an empty
 * cell or null is an absent value, numbers may come as numeric text, and SKUs and codes may come as
 * numbers. Each row is judged on its own when its chunk is applied (one bad row never refuses the others),
 * in these words. Every schema here is built once, at load: a chunk parses thousands of rows with them.
 */
export const NOT_A_ROW = 'Each row must be a JSON object';

/** How rows name a location (resolved when the row is applied). */
export const LOCATION_REF =
  'Location code (for example DC-EAST) or its normalized form: organization id and location id joined by a hyphen (<organizationId>-<locationId>).';

const blank = (value: unknown) => (value === null || (typeof value === 'string' && value.trim() === '') ? undefined : value);
// A number too large for a double (1e309) reaches a row as Infinity: it is neither a number nor a text here.
const asText = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? String(value) : blank(value));
const asNumber = (value: unknown) => {
  const v = blank(value);
  return typeof v === 'string' && Number.isFinite(Number(v)) ? Number(v) : v;
};
const numberError = (issue: { input?: unknown }) =>
  issue.input === undefined ? 'Required' : typeof issue.input === 'number' ? 'Must be a finite number' : 'Must be a number';

const text = (max: number) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? 'Required' : typeof issue.input === 'number' ? 'Must be a string (a finite number is taken as its text)' : 'Must be a string') })
    .trim()
    .max(max, `At most ${max} characters`)
    // The text rule of every door (PostgreSQL cannot store a NUL or a lone surrogate): for rows that reach
    // a worker without passing one, it rejects the row instead of failing the chunk.
    .superRefine((value, ctx) => {
      const problem = textProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    });

/**
 * A required, trimmed, non-empty text of at most `max` characters ("Required" when absent, empty or null),
 * shaped further by `then` (normalized, refined) when given: inside, so that the row documents it as required.
 */
export const requiredText = <T extends z.ZodType = ReturnType<typeof text>>(max: number, then?: (value: ReturnType<typeof text>) => T) =>
  z.preprocess(asText, then ? then(text(max)) : text(max)).meta({ type: 'string', minLength: 1 });

/** An optional trimmed text of at most `max` characters; empty or null is absent. */
export const optionalText = (max: number) => z.preprocess(asText, text(max).optional()).meta({ type: 'string' });

interface Bounds {
  min?: number;
  max?: number;
  integer?: boolean;
  /** Greater than 0 ("Must be greater than 0") rather than at least `min`. */
  positive?: boolean;
}

function numberSchema({ min = 0, max, integer = false, positive = false }: Bounds) {
  let schema = z.number({ error: numberError });
  // Not .int(): it also refuses integers beyond 2^53 (1e20) as not whole, where the range is what is wrong.
  if (integer) schema = schema.refine(Number.isInteger, 'Must be a whole number');
  schema = positive ? schema.positive('Must be greater than 0') : schema.min(min, `Must be ${min} or more`);
  // Whole numbers go into int4 columns: beyond, the row is rejected instead of the chunk failing.
  const top = max ?? (integer ? MAX_INT : undefined);
  return top === undefined ? schema : schema.max(top, `At most ${top}`);
}

const numberDoc = (integer?: boolean) => ({ type: [integer ? 'integer' : 'number', 'string'] });

/** A number (numeric text accepted) within the bounds; whole numbers at most 2,147,483,647. */
export const requiredNumber = (bounds: Bounds) => z.preprocess(asNumber, numberSchema(bounds)).meta(numberDoc(bounds.integer));

/** The same, absent when empty or null. */
export const optionalNumber = (bounds: Bounds) => z.preprocess(asNumber, numberSchema(bounds).optional()).meta(numberDoc(bounds.integer));

/** The same, `fallback` when absent, empty or null. */
export const numberOr = (fallback: number, bounds: Bounds) =>
  z.preprocess(asNumber, numberSchema(bounds).default(fallback)).meta({ ...numberDoc(bounds.integer), default: fallback });

const DATE_MESSAGE = 'Must be an ISO date (YYYY-MM-DD)';
const dateText = z
  .string({ error: (issue) => (issue.input === undefined ? 'Required' : DATE_MESSAGE) })
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}(?:[T ].*)?$/, DATE_MESSAGE)
  .transform((value, ctx) => {
    const day = value.slice(0, 10);
    const date = new Date(`${day}T00:00:00.000Z`);
    if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== day) {
      ctx.addIssue({ code: 'custom', message: 'Not a valid calendar date' });
      return z.NEVER;
    }
    // One plausible range for every date: two extreme ones would make a weekly series thousands of years long.
    if (!yearInRange(date)) {
      ctx.addIssue({ code: 'custom', message: YEAR_RANGE_MESSAGE });
      return z.NEVER;
    }
    return date;
  });
const dateDoc = { type: 'string', format: 'date' };

/** How the date fields of import rows are described. */
export const IMPORT_DATE_WORDS = `ISO date YYYY-MM-DD in the years ${MIN_YEAR} to ${MAX_YEAR} (of a date-time, its date part as written is used).`;

/**
 * An ISO calendar date `YYYY-MM-DD` in the accepted years (a date-time is accepted and its date part,
 * as written, is used), parsed to midnight UTC of that date.
 */
export const isoDate = z.preprocess(blank, dateText).meta(dateDoc);

/** The same, absent when empty or null. */
export const optionalIsoDate = z.preprocess(blank, dateText.optional()).meta(dateDoc);

/** The lines of an order row: at least one, at most 1,000, numbered from 1 in this order. */
export const orderLines = <S extends z.ZodType>(line: S) =>
  z.array(line, 'Must be an array of lines').min(1, 'At least one line is required').max(1000, 'At most 1000 lines');

/** A row: an object of these fields (keys it does not define are plain data, never read). */
export const rowObject = <T extends z.ZodRawShape>(shape: T) => z.object(shape, NOT_A_ROW);
