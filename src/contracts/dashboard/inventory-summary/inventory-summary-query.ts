import { z } from 'zod';
import { MAX_WINDOW_DAYS } from '../../../kernel/input-limits.js';
import { dateTimeText } from '../../date-times.js';
import { text } from '../../query-values.js';

/** Query of GET /api/dashboard/widgets/inventory-summary and arguments of inventorySummary. */
export const inventorySummaryQuery = z.object({
  locationId: text.pipe(z.string({ error: 'Required' }).trim().min(1, 'Required')).meta({
    description: "The location summarised (required; 404 when it is not one of the organization's).",
  }),
  asOf: dateTimeText.meta({
    description:
      `The moment to answer for, an ISO 8601 date-time with a time zone: stock as it was then, rebuilt from the stock ledger. ` +
      `Default now (from the stock lines). Not in the future, at most ${MAX_WINDOW_DAYS} days ago (400 naming asOf otherwise).`,
  }),
});
