import { z } from 'zod';
import { MAX_WINDOW_DAYS } from '../../../kernel/input-limits.js';
import { calendarDateText, windowWithin } from '../../date-times.js';
import { text } from '../../query-values.js';

/** Days a window covers when `to` is not given (from `from`, else today). */
export const EXPIRY_RISK_DEFAULT_DAYS = 90;
/** The longest window: the house's bound on every window a caller names (the row cap bounds the answer). */
export const EXPIRY_RISK_MAX_DAYS = MAX_WINDOW_DAYS;
/** Lots a report answers at most: those with the most value at risk. */
export const EXPIRY_RISK_MAX_ROWS = 2000;

/** Query of GET /api/reports/expiry-risk and arguments of expiryRisk. */
export const expiryRiskQuery = z
  .object({
    locationId: text.pipe(z.string({ error: 'Required' }).trim().min(1, 'Required')).meta({ description: 'The location whose lots are reported (required; 404 when it is not one of the organization).' }),
    from: text.pipe(calendarDateText.optional()).meta({ format: 'date', description: 'First expiry date reported (default today, UTC). A day before today reports lots already past their expiry date, all at risk.' }),
    to: text.pipe(calendarDateText.optional()).meta({
      format: 'date',
      description: `Last expiry date reported, inclusive (default ${EXPIRY_RISK_DEFAULT_DAYS} days after from); not before from, at most ${EXPIRY_RISK_MAX_DAYS} days after it.`,
    }),
  })
  .superRefine((query, issue) => {
    if (query.from && query.to && query.to < query.from) issue.addIssue({ code: 'custom', path: ['to'], message: 'Must not be before from' });
  })
  // Also when locationId is missing: both refusals are said at once.
  .superRefine(windowWithin('from', 'to', EXPIRY_RISK_MAX_DAYS), { when: () => true });
