import { z } from 'zod';
import { text, wholeNumberOr } from '../query-values.js';
import { WEEK_MESSAGE, weekMonday } from './booking-week.js';
import { BOOKING_STATUSES } from './bookings.js';

export const BOOKINGS_DEFAULT_LIMIT = 50;
export const BOOKINGS_MAX_LIMIT = 100;

const filterId = (description: string) => text.pipe(z.string().trim().min(1).max(200, 'At most 200 characters').optional()).meta({ description });
const statusMessage = `One or more (comma-separated) of ${BOOKING_STATUSES.join(', ')}, any case`;
const weekFilter = (description: string) =>
  text
    .pipe(
      z
        .string()
        .trim()
        .max(10, WEEK_MESSAGE)
        .refine((value) => weekMonday(value) !== null, WEEK_MESSAGE)
        .transform((value) => weekMonday(value)!)
        .optional(),
    )
    .meta({ type: 'string', description });

/** Query of GET /api/bookings and arguments of bookings. */
export const bookingListQuery = z
  .object({
    status: text
      .pipe(
        z
          .string()
          .max(200, 'At most 200 characters')
          .transform((value) => value.split(',').map((s) => s.trim().toUpperCase()).filter(Boolean))
          .refine((list) => list.every((v) => (BOOKING_STATUSES as readonly string[]).includes(v)), statusMessage)
          .optional(),
      )
      .meta({ type: 'string', description: `Only bookings in these states: ${statusMessage}.` }),
    locationId: filterId('Only bookings at this location (404 when it is not one of the organization).'),
    productId: filterId('Only bookings with a line of this product (404 when it is not one of the organization).'),
    customer: text.pipe(z.string().trim().max(200, 'At most 200 characters').optional()).meta({ description: 'Only bookings whose customer contains this text (any case), up to 200 characters.' }),
    weekFrom: weekFilter('Only bookings of this week or later (a Monday YYYY-MM-DD or YYYY-Www).'),
    weekTo: weekFilter('Only bookings of this week or earlier (a Monday YYYY-MM-DD or YYYY-Www); not before weekFrom.'),
    limit: wholeNumberOr(BOOKINGS_DEFAULT_LIMIT, `Must be a whole number from 1 to ${BOOKINGS_MAX_LIMIT}`, { min: 1, max: BOOKINGS_MAX_LIMIT }).meta({
      description: `Page size (default ${BOOKINGS_DEFAULT_LIMIT}, at most ${BOOKINGS_MAX_LIMIT}).`,
    }),
    offset: wholeNumberOr(0, 'Must be a whole number of at least 0', { min: 0 }).meta({ description: 'Bookings to skip (default 0).' }),
  })
  .superRefine((query, issue) => {
    if (query.weekFrom && query.weekTo && query.weekTo < query.weekFrom) issue.addIssue({ code: 'custom', path: ['weekTo'], message: 'Must not be before weekFrom' });
  });
