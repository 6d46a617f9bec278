import type { RestArea } from '../route.js';
import { bookingRoutes } from './booking-routes.js';

export const bookingsArea: RestArea = {
  routes: bookingRoutes,
  tags: [
    {
      name: 'Wholesale Bookings',
      description:
        'B2B customers book future quantities by week and location: DRAFT (changeable) → CONFIRMED (stock reserved where available, the rest outbound demand in the planning ' +
        'projection; a BOOKING event lifts the week\'s forecast by the booked units) → FULFILLED (units leave through the ledger; the lift goes) or CANCELLED (reservations released). ' +
        'planning.read reads, planning.write creates and moves.',
    },
  ],
};
