import { z } from 'zod';
import { YEAR_RANGE_MESSAGE, yearInRange } from '../kernel/input-limits.js';
import { text } from './query-values.js';

const DATE_TIME_MESSAGE = 'Must be an ISO 8601 date-time string';

/**
 * A date-time in a body: the ISO 8601 text a JSON caller sends, or the Date GraphQL's DateTime scalar
 * has already made of it; a Date either way, in the accepted years.
 */
export const dateTime = z
  .preprocess((value) => (typeof value === 'string' ? new Date(value) : value), z.date({ error: (issue) => (issue.input === undefined ? 'Required' : DATE_TIME_MESSAGE) }).refine(yearInRange, YEAR_RANGE_MESSAGE))
  .meta({ type: 'string', format: 'date-time' });

/** A date-time in a query string, checked and left as text (the GraphQL variable it becomes is a DateTime). */
export const dateTimeText = text
  .pipe(
    z
      .string()
      .refine((value) => !Number.isNaN(new Date(value).getTime()), { message: DATE_TIME_MESSAGE, abort: true })
      .refine((value) => yearInRange(new Date(value)), YEAR_RANGE_MESSAGE)
      .optional(),
  )
  .meta({ format: 'date-time' });
