import type { RestArea } from '../route.js';
import { stockRequestRoutes } from './stock-request-routes.js';

export const stockRequestsArea: RestArea = {
  routes: stockRequestRoutes,
  tags: [
    {
      name: 'Stock Requests',
      description:
        'Requests of one location to another of the organization for stock: DRAFT → SUBMITTED → APPROVED (whole or by line) or REJECTED, CANCELLED, one-step rollbacks, ' +
        'comments and the status history. Fulfilment is not served yet.',
    },
  ],
};
