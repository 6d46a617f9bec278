import { z } from 'zod';
import { MAX_WINDOW_DAYS } from '../../../kernel/input-limits.js';
import { dateOrDateTimeText, windowWithin } from '../../date-times.js';
import { anyCaseEnum, text, wholeNumber } from '../../query-values.js';

/** Largest page of GET /api/inventory/adjustments (the interface leaves the maximum open). */
export const HISTORY_MAX_LIMIT = 500;

/** The quantities of a stock line a ledger row can change (the ledger's buckets), and ALL of them. */
const BUCKET_FILTERS = ['ON_HAND', 'RESERVED', 'ON_HOLD', 'PICKED', 'RECALLED', 'EXPIRED', 'ALL'] as const;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const when = dateOrDateTimeText.nullish();

const filterFields = {
  inventoryItemId: text.meta({ description: 'Only rows of this stock line.' }),
  productMasterId: text.meta({ description: 'Only rows of this product.' }),
  locationId: text.meta({ description: 'Only rows at this location.' }),
  startDate: when.meta({ description: 'From this date (start of day, UTC) or date-time with a time zone.' }),
  endDate: when.meta({ description: `Up to this date (the whole day, UTC, included) or date-time with a time zone; not before startDate, at most ${MAX_WINDOW_DAYS} days after it.` }),
  bucket: anyCaseEnum(BUCKET_FILTERS).meta({ description: 'Which quantity (default ON_HAND; any case).' }),
  transactionType: text.pipe(z.string().trim().max(200, 'At most 200 characters').optional()).meta({ description: 'Only these types, comma-separated (for example ADJUSTMENT,COUNT).' }),
};

/** startDate from the start of its day; a plain endDate date includes that whole day (UTC). */
export function bounds(f: { startDate?: string | null; endDate?: string | null }) {
  const start = f.startDate ? new Date(DAY.test(f.startDate) ? `${f.startDate}T00:00:00.000Z` : f.startDate) : undefined;
  const end = f.endDate ? (DAY.test(f.endDate) ? new Date(Date.parse(`${f.endDate}T00:00:00.000Z`) + 86_400_000 - 1) : new Date(f.endDate)) : undefined;
  return { start, end };
}

const spanWithin = windowWithin('startDate', 'endDate');
const datesInOrder = (f: { startDate?: string | null; endDate?: string | null }, issue: z.RefinementCtx) => {
  if (f.startDate && f.endDate && bounds(f).start! > bounds(f).end!) {
    issue.addIssue({ code: 'custom', path: ['endDate'], message: 'Must not be before startDate' });
  }
  spanWithin(f, issue);
};

/** Filter of the ledger connection and of a page of it. */
export const ledgerFilter = z.object(filterFields).superRefine(datesInOrder);

/** Query of GET /api/inventory/adjustments and arguments of stockTransactionHistory. */
export const ledgerPageQuery = z
  .object({
    ...filterFields,
    limit: wholeNumber(`Must be a whole number from 1 to ${HISTORY_MAX_LIMIT}`, { min: 1, max: HISTORY_MAX_LIMIT }).meta({ description: 'Page size (the interface leaves the maximum open: 500; default 50).' }),
    offset: wholeNumber('Must be a whole number, 0 or more', { min: 0 }).meta({ description: 'Rows to skip (default 0).' }),
  })
  .superRefine(datesInOrder);
