import { z } from 'zod';
import {
  calendarDate,
  DATE_MESSAGE,
  DATE_OR_DATE_TIME_MESSAGE,
  DATE_TIME_MESSAGE,
  dateOrDateTimeOf,
  dateTimeOf,
  MAX_WINDOW_DAYS,
  spanRefusal,
  YEAR_RANGE_MESSAGE,
  yearInRange,
} from '../kernel/input-limits.js';
import { mustBe } from './parse.js';
import { text } from './query-values.js';

/**
 * A date-time in a body: the ISO 8601 text a JSON caller sends, or the Date GraphQL's DateTime scalar
 * has already made of it; a Date either way, in the accepted years.
 */
export const dateTime = z
  .preprocess((value) => (typeof value === 'string' ? (dateTimeOf(value) ?? new Date(Number.NaN)) : value), z.date({ error: (issue) => (issue.input === undefined ? 'Required' : DATE_TIME_MESSAGE) }).refine(yearInRange, { message: YEAR_RANGE_MESSAGE, abort: true }))
  .meta({ type: 'string', format: 'date-time' });

/** A date-time in a query string, checked and left as text (the GraphQL variable it becomes is a DateTime). */
export const dateTimeText = text
  .pipe(
    z
      .string()
      .refine((value) => dateTimeOf(value) !== null, { message: DATE_TIME_MESSAGE, abort: true })
      .refine((value) => yearInRange(dateTimeOf(value)!), YEAR_RANGE_MESSAGE)
      .optional(),
  )
  .meta({ format: 'date-time' });

/**
 * A parameter documented as "a date or a date-time" (a date is its midnight UTC; what a date-only end covers is
 * the service's to say); left as text.
 */
export const dateOrDateTimeText = text.pipe(
  z
    .string()
    .trim()
    .refine((value) => dateOrDateTimeOf(value) !== null, { message: DATE_OR_DATE_TIME_MESSAGE, abort: true })
    .refine((value) => yearInRange(dateOrDateTimeOf(value)!), YEAR_RANGE_MESSAGE)
    .optional(),
).meta({ anyOf: [{ type: 'string', format: 'date' }, { type: 'string', format: 'date-time' }] });

/** A calendar date in a body, `YYYY-MM-DD`, that exists (no February 30th) and is in the accepted years; left as text. */
export const calendarDateText = z
  .string({ error: mustBe('an ISO 8601 date (YYYY-MM-DD)') })
  // In the words of the Date scalar.
  .refine((text) => calendarDate(text) !== null, { message: DATE_MESSAGE, abort: true })
  .refine((text) => yearInRange(calendarDate(text) ?? new Date(Number.NaN)), YEAR_RANGE_MESSAGE)
  .meta({ format: 'date' });

/** A date, date-time, or either as text (already checked by its field), as an instant; null when absent or not one. */
const instantOf = (value: unknown): Date | null => (value instanceof Date ? value : typeof value === 'string' ? dateOrDateTimeOf(value.trim()) : null);

/**
 * The bound on a query window: when both `from` and `to` are given, `to` is at most `days` days after `from`
 * (400 naming `to`), so no window a caller names spans the whole accepted range.
 */
export const windowWithin =
  <K extends string>(from: K, to: K, days = MAX_WINDOW_DAYS) =>
  (value: Partial<Record<K, unknown>>, issue: z.RefinementCtx) => {
    const refusal = spanRefusal(instantOf(value[from]), instantOf(value[to]), days, from);
    if (refusal) issue.addIssue({ code: 'custom', path: [to], message: refusal });
  };
