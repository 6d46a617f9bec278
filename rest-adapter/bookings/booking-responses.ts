import { z } from 'zod';
import { BOOKING_STATUSES } from '../../src/contracts/bookings/bookings.js';
import { calendarDate, dateTime, integer, nullableString, stockAllocationFields } from '../common-responses.js';

const allocation = z
  .object(stockAllocationFields)
  .meta({ id: 'BookingAllocation', description: 'Units of a booking line on one stock line (a lot in a bin): reserved while CONFIRMED, shipped from when FULFILLED.' });

const line = z
  .object({
    id: z.string(),
    lineNumber: integer,
    productId: z.string(),
    quantity: integer,
    reservedQuantity: integer.describe('Units held reserved for the line (CONFIRMED only).'),
    shortQuantity: integer.describe('Units not reserved for lack of stock (CONFIRMED only): outbound demand in the planning projection.'),
    allocations: z.array(allocation),
  })
  .meta({ id: 'BookingLine', description: 'Units of one product on a booking.' });

export const booking = z
  .object({
    id: z.string(),
    number: integer.describe('Number of the booking in the organization, from 1.'),
    reference: z.string().describe('BK- and the number in six digits or more.'),
    customer: z.string(),
    customerReference: nullableString,
    locationId: z.string().describe('The location the units leave from.'),
    week: calendarDate.describe('Monday of the ISO week booked.'),
    status: z.enum(BOOKING_STATUSES),
    note: nullableString,
    createdByType: z.string().describe('USER or API_KEY.'),
    createdBy: z.string(),
    confirmedAt: dateTime.nullable(),
    confirmedBy: nullableString,
    fulfilledAt: dateTime.nullable(),
    fulfilledBy: nullableString,
    cancelledAt: dateTime.nullable(),
    cancelledBy: nullableString,
    createdAt: dateTime,
    updatedAt: dateTime,
    lines: z.array(line),
  })
  .meta({ id: 'Booking', description: 'A wholesale (B2B) booking of future quantities for one week at one location.' });

export const bookingList = z
  .object({ bookings: z.array(booking), data: z.array(booking), total: integer, limit: integer, offset: integer })
  .describe('`bookings` and `data` hold the same bookings, by week, newest first within a week.');
