import type { RestArea } from '../route.js';
import { stockRequestFulfilmentRoutes } from './stock-request-fulfilment-routes.js';
import { stockRequestHelperRoutes } from './stock-request-helper-routes.js';
import { stockRequestRoutes } from './stock-request-routes.js';

export const stockRequestsArea: RestArea = {
  routes: [...stockRequestHelperRoutes, ...stockRequestRoutes, ...stockRequestFulfilmentRoutes],
  tags: [
    {
      name: 'Stock Requests',
      description:
        'Requests of one location to another of the organization for stock: DRAFT → SUBMITTED → APPROVED (whole or by line) or REJECTED, CANCELLED, one-step rollbacks, ' +
        'comments and the status history; fulfilment as inventory transfers from stock reserved on approval, completed by their receipt; lists by category, a dashboard, ' +
        'filter values, pending approvals, product search and the stocklist.',
    },
  ],
};
