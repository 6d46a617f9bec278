import { z } from 'zod';
import { MAX_WINDOW_DAYS } from '../../../kernel/input-limits.js';
import { calendarDateText, windowWithin } from '../../date-times.js';
import { text } from '../../query-values.js';

/** Days the accuracy report covers when `from` is not given: the 90 days ending on `to`. */
export const DEFAULT_ACCURACY_DAYS = 90;

/** Query of GET /api/inventory/cycle-count/accuracy and arguments of cycleCountAccuracy. */
export const cycleCountAccuracyQuery = z
  .object({
    locationId: text.meta({ description: "Only this location (404 when it is not one of the organization's). Absent: every location." }),
    from: text.pipe(calendarDateText.optional()).meta({
      format: 'date',
      description: `First day of the period (UTC), by the day each line was counted. Default: ${DEFAULT_ACCURACY_DAYS - 1} days before to (${DEFAULT_ACCURACY_DAYS} days in all).`,
    }),
    to: text.pipe(calendarDateText.optional()).meta({ format: 'date', description: `Last day of the period (UTC, inclusive; default today); not before from, at most ${MAX_WINDOW_DAYS} days after it.` }),
  })
  .superRefine((query, issue) => {
    if (query.from && query.to && query.to < query.from) issue.addIssue({ code: 'custom', path: ['to'], message: 'Must not be before from' });
  })
  .superRefine(windowWithin('from', 'to'));
