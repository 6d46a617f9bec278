import { z } from 'zod';
import { mustBe } from '../parse.js';
import { optionalNote } from '../text-fields.js';
import { bookingWeek } from './booking-week.js';

export const BOOKING_STATUSES = ['DRAFT', 'CONFIRMED', 'FULFILLED', 'CANCELLED'] as const;
export const MAX_BOOKING_LINES = 500;
export const MAX_BOOKING_QUANTITY = 1_000_000;

const id = z.string({ error: mustBe('text') }).trim().min(1, 'Required').max(200, 'At most 200 characters');
const bookingId = id.meta({ description: 'The booking (404 when it is not one of the organization).' });

/** One product booked and how many of its units. */
export const bookingLineInput = z.strictObject({
  productId: id.meta({ description: 'The product booked (400 when it is not one of the organization).' }),
  quantity: z
    .number({ error: mustBe('a whole number') })
    .int('Must be a whole number')
    .min(1, 'Must be greater than 0')
    .max(MAX_BOOKING_QUANTITY, `At most ${MAX_BOOKING_QUANTITY}`)
    .meta({ description: `Units booked, 1 to ${MAX_BOOKING_QUANTITY}.` }),
});

const lines = z
  .array(bookingLineInput, { error: mustBe('a list of lines') })
  .min(1, 'At least one line')
  .max(MAX_BOOKING_LINES, `At most ${MAX_BOOKING_LINES} lines`)
  .superRefine((list, issue) => {
    const seen = new Set<string>();
    list.forEach((line, i) => {
      if (seen.has(line.productId)) issue.addIssue({ code: 'custom', path: [i, 'productId'], message: 'Each product at most once' });
      seen.add(line.productId);
    });
  })
  .meta({ description: `The products booked (1 to ${MAX_BOOKING_LINES}, each product once).` });

const customer = z.string({ error: mustBe('text') }).trim().min(1, 'Required').max(200, 'At most 200 characters').meta({ description: 'The customer, up to 200 characters.' });
const customerReference = z
  .string({ error: mustBe('text') })
  .trim()
  .max(100, 'At most 100 characters')
  .nullish()
  .meta({ description: "The customer's own reference (their order number), up to 100 characters." });
const week = bookingWeek.meta({ description: 'The week booked: its Monday (YYYY-MM-DD) or the ISO week (2026-W50); answered as the Monday.' });
const locationId = id.meta({ description: 'The location the units leave from (400 when it is not one of the organization).' });
const note = optionalNote(1000).meta({ description: 'Free text, up to 1000 characters.' });

/** Body of POST /api/bookings and input of createBooking. */
export const bookingCreate = z.strictObject({ customer, customerReference, locationId, week, note, lines });

/** Body of PATCH /api/bookings/{id}: the fields given change (lines replace the lines). */
export const bookingUpdateBody = z
  .strictObject({
    customer: customer.optional(),
    customerReference,
    locationId: locationId.optional(),
    week: week.optional(),
    note,
    lines: lines.optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), { message: 'Give at least one field to change' });

/** Input of updateBooking. */
export const bookingUpdate = z.strictObject({ id: bookingId, ...bookingUpdateBody.shape }).refine((body) => Object.entries(body).some(([key, value]) => key !== 'id' && value !== undefined), {
  message: 'Give at least one field to change',
});

/** Body of the moves without fields: nothing (an empty object or none). */
export const bookingNoBody = z.strictObject({});

/** Input of confirmBooking, reserveBooking, fulfilBooking and cancelBooking. */
export const bookingMove = z.strictObject({ id: bookingId });
