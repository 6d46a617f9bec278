import { z } from 'zod';
import { calendarDateText, windowWithin } from '../date-times.js';
import { text, wholeNumberOr } from '../query-values.js';
import { SHIPMENT_STATUSES } from './shipments.js';

export const SHIPMENTS_DEFAULT_LIMIT = 50;
export const SHIPMENTS_MAX_LIMIT = 100;

const filterId = (description: string) => text.pipe(z.string().trim().min(1).max(200, 'At most 200 characters').optional()).meta({ description });
const statusMessage = `One or more (comma-separated) of ${SHIPMENT_STATUSES.join(', ')}, any case`;

/** Query of GET /api/shipments and arguments of shipments. */
export const shipmentListQuery = z
  .object({
    status: text
      .pipe(
        z
          .string()
          .max(200, 'At most 200 characters')
          .transform((value) => value.split(',').map((s) => s.trim().toUpperCase()).filter(Boolean))
          .refine((list) => list.every((v) => (SHIPMENT_STATUSES as readonly string[]).includes(v)), statusMessage)
          .optional(),
      )
      .meta({ type: 'string', description: `Only shipments in these states: ${statusMessage}.` }),
    locationId: filterId('Only shipments from this location (404 when it is not one of the organization).'),
    orderId: filterId('Only shipments of this sales order (its id; no match: an empty answer).'),
    transferId: filterId('Only shipments of this inventory transfer (its id; no match: an empty answer).'),
    carrier: text.pipe(z.string().trim().max(100, 'At most 100 characters').optional()).meta({ description: 'Only shipments of this carrier (exact, any case), up to 100 characters.' }),
    from: text.pipe(calendarDateText.optional()).meta({ format: 'date', description: 'Only shipments created on or after this day (YYYY-MM-DD, UTC).' }),
    to: text.pipe(calendarDateText.optional()).meta({ format: 'date', description: 'Only shipments created on or before this day (YYYY-MM-DD, UTC, the whole day); not before from.' }),
    search: text.pipe(z.string().trim().max(200, 'At most 200 characters').optional()).meta({
      description: "Only shipments whose number it is (`12` or `SH-000012`), whose tracking number contains it, or whose order's external id contains it (any case); up to 200 characters.",
    }),
    limit: wholeNumberOr(SHIPMENTS_DEFAULT_LIMIT, `Must be a whole number from 1 to ${SHIPMENTS_MAX_LIMIT}`, { min: 1, max: SHIPMENTS_MAX_LIMIT }).meta({
      description: `Page size (default ${SHIPMENTS_DEFAULT_LIMIT}, at most ${SHIPMENTS_MAX_LIMIT}).`,
    }),
    offset: wholeNumberOr(0, 'Must be a whole number of at least 0', { min: 0 }).meta({ description: 'Shipments to skip (default 0).' }),
  })
  .superRefine((query, issue) => {
    if (query.from && query.to && query.to < query.from) issue.addIssue({ code: 'custom', path: ['to'], message: 'Must not be before from' });
  })
  .superRefine(windowWithin('from', 'to'));
