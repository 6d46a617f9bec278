import { z } from 'zod';
import { dateTimeOf, YEAR_RANGE_MESSAGE, yearInRange } from '../../kernel/input-limits.js';
import { text } from '../query-values.js';

export const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
const isoDate = text.pipe(
  z
    .string()
    .trim()
    .refine((value) => (DATE_ONLY.test(value) || DATE_TIME.test(value)) && dateTimeOf(value) !== null, { message: 'Must be an ISO 8601 date or date-time', abort: true })
    .refine((value) => yearInRange(new Date(value)), YEAR_RANGE_MESSAGE)
    .optional(),
);
const id = text.pipe(z.string().trim().min(1, 'Required').optional());

/** Query of GET /api/inventory/analytics and arguments of inventoryAnalytics. */
export const analyticsQuery = z.object({
  locationId: id.meta({ description: "Only this location (404 when it is not the organization's)." }),
  categoryId: id.meta({ description: "Only products of this category (404 when it is not the organization's)." }),
  fromDate: isoDate.meta({ description: 'Start: ISO 8601 date (its midnight UTC) or date-time; default toDate minus 30 days.' }),
  toDate: isoDate.meta({ description: 'End: ISO 8601 date (the whole day, UTC) or date-time; default now.' }),
});
