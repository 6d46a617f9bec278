import type { RestArea } from '../route.js';
import { stockRequestHelperRoutes } from './stock-request-helper-routes.js';
import { stockRequestRoutes } from './stock-request-routes.js';

export const stockRequestsArea: RestArea = {
  routes: [...stockRequestHelperRoutes, ...stockRequestRoutes],
  tags: [
    {
      name: 'Stock Requests',
      description:
        'Requests of one location to another of the organization for stock: DRAFT → SUBMITTED → APPROVED (whole or by line) or REJECTED, CANCELLED, one-step rollbacks, ' +
        'comments and the status history; lists by category, a dashboard, filter values, pending approvals, product search and the stocklist. Fulfilment is not served yet.',
    },
  ],
};
