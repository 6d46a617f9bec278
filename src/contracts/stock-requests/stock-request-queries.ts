import { z } from 'zod';
import { text, wholeNumberOr } from '../query-values.js';
import { STOCK_REQUEST_PRIORITIES, STOCK_REQUEST_STATUSES } from './stock-requests.js';

export const STOCK_REQUESTS_DEFAULT_LIMIT = 50;
export const STOCK_REQUESTS_MAX_LIMIT = 100;
export const STOCK_REQUEST_HISTORY_DEFAULT_LIMIT = 100;
export const STOCK_REQUEST_HISTORY_MAX_LIMIT = 500;

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

/** Query of GET /api/stock-requests and arguments of stockRequests. */
export const stockRequestListQuery = z.object({
  status: anyOf(STOCK_REQUEST_STATUSES, 'statuses'),
  priority: anyOf(STOCK_REQUEST_PRIORITIES, 'priorities'),
  requestingLocationId: filterId.meta({ description: 'Only requests made by this location (404 when it is not one of the organization).' }),
  supplyingLocationId: filterId.meta({ description: 'Only requests to this location (404 when it is not one of the organization).' }),
  search: text.pipe(z.string().trim().max(200, 'At most 200 characters').optional()).meta({
    description: 'Only requests whose reason contains this text (any case), or whose number it is (`12` or `SR-000012`); up to 200 characters.',
  }),
  limit: wholeNumberOr(STOCK_REQUESTS_DEFAULT_LIMIT, `Must be a whole number from 1 to ${STOCK_REQUESTS_MAX_LIMIT}`, { min: 1, max: STOCK_REQUESTS_MAX_LIMIT }).meta({
    description: `Page size (default ${STOCK_REQUESTS_DEFAULT_LIMIT}, at most ${STOCK_REQUESTS_MAX_LIMIT}).`,
  }),
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
