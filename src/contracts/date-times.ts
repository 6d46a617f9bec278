import { z } from 'zod';
import { calendarDate, dateTimeOf, YEAR_RANGE_MESSAGE, yearInRange } from '../kernel/input-limits.js';
import { mustBe } from './parse.js';
import { text } from './query-values.js';

const DATE_TIME_MESSAGE = 'Must be an ISO 8601 date-time string';

/**
 * A date-time in a body: the ISO 8601 text a JSON caller sends, or the Date GraphQL's DateTime scalar
 * has already made of it; a Date either way, in the accepted years.
 */
export const dateTime = z
  .preprocess((value) => (typeof value === 'string' ? (dateTimeOf(value) ?? new Date(Number.NaN)) : value), z.date({ error: (issue) => (issue.input === undefined ? 'Required' : DATE_TIME_MESSAGE) }).refine(yearInRange, YEAR_RANGE_MESSAGE))
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

/** A calendar date in a body, `YYYY-MM-DD`, that exists (no February 30th) and is in the accepted years; left as text. */
export const calendarDateText = z
  .string({ error: mustBe('an ISO 8601 date (YYYY-MM-DD)') })
  // In the words of the Date scalar.
  .refine((text) => calendarDate(text) !== null, { message: 'Must be an ISO 8601 date (YYYY-MM-DD)', abort: true })
  .refine((text) => yearInRange(calendarDate(text) ?? new Date(Number.NaN)), YEAR_RANGE_MESSAGE)
  .meta({ format: 'date' });
