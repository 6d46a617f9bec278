import { z } from 'zod';
import { MAX_WINDOW_DAYS } from '../../../kernel/input-limits.js';
import { dateOrDateTimeText, windowWithin } from '../../date-times.js';
import { text } from '../../query-values.js';

export const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const id = text.pipe(z.string().trim().min(1, 'Required').optional());

/** Query of GET /api/inventory/analytics and arguments of inventoryAnalytics. */
export const analyticsQuery = z
  .object({
    locationId: id.meta({ description: "Only this location (404 when it is not the organization's)." }),
    categoryId: id.meta({ description: "Only products of this category (404 when it is not the organization's)." }),
    fromDate: dateOrDateTimeText.meta({ description: 'Start: ISO 8601 date (its midnight UTC) or date-time with a time zone; default toDate minus 30 days.' }),
    toDate: dateOrDateTimeText.meta({ description: `End: ISO 8601 date (the whole day, UTC) or date-time with a time zone; default now. With fromDate, at most ${MAX_WINDOW_DAYS} days after it.` }),
  })
  .superRefine(windowWithin('fromDate', 'toDate'));
