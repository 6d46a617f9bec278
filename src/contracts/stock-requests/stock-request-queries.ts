import { z } from 'zod';
import { MAX_WINDOW_DAYS } from '../../kernel/input-limits.js';
import { calendarDateText, windowWithin } from '../date-times.js';
import { text, wholeNumberOr } from '../query-values.js';
import { STOCK_REQUEST_PRIORITIES, STOCK_REQUEST_STATUSES } from './stock-requests.js';

export const STOCK_REQUESTS_DEFAULT_LIMIT = 50;
export const STOCK_REQUESTS_MAX_LIMIT = 100;
export const STOCK_REQUEST_HISTORY_DEFAULT_LIMIT = 100;
export const STOCK_REQUEST_HISTORY_MAX_LIMIT = 500;

function requestLimit() {
  return wholeNumberOr(STOCK_REQUESTS_DEFAULT_LIMIT, `Must be a whole number from 1 to ${STOCK_REQUESTS_MAX_LIMIT}`, { min: 1, max: STOCK_REQUESTS_MAX_LIMIT }).meta({
    description: `Page size (default ${STOCK_REQUESTS_DEFAULT_LIMIT}, at most ${STOCK_REQUESTS_MAX_LIMIT}).`,
  });
}

const filterId = text.pipe(z.string().trim().min(1).max(200, 'At most 200 characters').optional());

/** Comma-separated values of a closed list, any case. */
const anyOf = (values: readonly string[], what: string) => {
  const message = `One or more (comma-separated) of ${values.join(', ')}, any case`;
  return text
    .pipe(
      z
        .string()
        .max(200, 'At most 200 characters')
        .transform((value) => value.split(',').map((s) => s.trim().toUpperCase()).filter(Boolean))
        .refine((list) => list.every((v) => values.includes(v)), message)
        .optional(),
    )
    .meta({ type: 'string', description: `Only requests of these ${what}: ${message}.` });
};

const notBeforeFrom = (query: { from?: string; to?: string }, issue: z.RefinementCtx) => {
  if (query.from && query.to && query.to < query.from) issue.addIssue({ code: 'custom', path: ['to'], message: 'Must not be before from' });
};

/** The creation-date window of the lists and reports: whole UTC days, both ends included. */
const createdWindow = {
  from: text.pipe(calendarDateText.optional()).meta({ format: 'date', description: 'Only requests created on or after this day (YYYY-MM-DD, UTC).' }),
  to: text.pipe(calendarDateText.optional()).meta({
    format: 'date',
    description: `Only requests created on or before this day (YYYY-MM-DD, UTC, the whole day); not before from, at most ${MAX_WINDOW_DAYS} days after it.`,
  }),
};

/** The filters of the list, shared by GET /api/stock-requests and /by-category. */
const requestFilters = {
  status: anyOf(STOCK_REQUEST_STATUSES, 'statuses'),
  priority: anyOf(STOCK_REQUEST_PRIORITIES, 'priorities'),
  requestingLocationId: filterId.meta({ description: 'Only requests made by this location (404 when it is not one of the organization).' }),
  supplyingLocationId: filterId.meta({ description: 'Only requests to this location (404 when it is not one of the organization).' }),
  requesterId: filterId.meta({ description: 'Only requests created by this user or API key (its id; no match: an empty answer).' }),
  ...createdWindow,
};

const search = text.pipe(z.string().trim().max(200, 'At most 200 characters').optional()).meta({
  description: 'Only requests whose reason contains this text (any case), or whose number it is (`12` or `SR-000012`); up to 200 characters.',
});

/** Query of GET /api/stock-requests and arguments of stockRequests. */
export const stockRequestListQuery = z
  .object({
    ...requestFilters,
    search,
    limit: requestLimit(),
    offset: wholeNumberOr(0, 'Must be a whole number of at least 0', { min: 0 }).meta({ description: 'Requests to skip (default 0).' }),
  })
  .superRefine(notBeforeFrom)
  .superRefine(windowWithin('from', 'to'));

/** Query of GET /api/stock-requests/by-category and arguments of stockRequestsByCategory: the list's filters. */
export const stockRequestCategoryQuery = z
  .object({ ...requestFilters, search })
  .superRefine(notBeforeFrom)
  .superRefine(windowWithin('from', 'to'));

/** Query of GET /api/stock-requests/dashboard and arguments of stockRequestDashboard. */
export const stockRequestDashboardQuery = z
  .object({
    locationId: filterId.meta({ description: 'Only requests made by or to this location (404 when it is not one of the organization).' }),
    ...createdWindow,
  })
  .superRefine(notBeforeFrom)
  .superRefine(windowWithin('from', 'to'));

/** Query of GET /api/stock-requests/pending-approvals and arguments of stockRequestsPendingApproval. */
export const stockRequestPendingQuery = z.object({
  requestingLocationId: requestFilters.requestingLocationId,
  supplyingLocationId: requestFilters.supplyingLocationId,
  limit: requestLimit(),
  offset: wholeNumberOr(0, 'Must be a whole number of at least 0', { min: 0 }).meta({ description: 'Requests to skip (default 0).' }),
});

/** Query of GET /api/stock-requests/{id}/status: a page of the history, oldest first. */
export const stockRequestHistoryQuery = z.object({
  limit: wholeNumberOr(STOCK_REQUEST_HISTORY_DEFAULT_LIMIT, `Must be a whole number from 1 to ${STOCK_REQUEST_HISTORY_MAX_LIMIT}`, {
    min: 1,
    max: STOCK_REQUEST_HISTORY_MAX_LIMIT,
  }).meta({ description: `Entries per page (default ${STOCK_REQUEST_HISTORY_DEFAULT_LIMIT}, at most ${STOCK_REQUEST_HISTORY_MAX_LIMIT}).` }),
  offset: wholeNumberOr(0, 'Must be a whole number of at least 0', { min: 0 }).meta({ description: 'Entries to skip (default 0).' }),
});
