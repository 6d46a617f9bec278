import type { RestArea } from '../route.js';
import { inventorySummaryRoutes } from './inventory-summary/inventory-summary-routes.js';

export const dashboardArea: RestArea = {
  routes: [...inventorySummaryRoutes],
  tags: [
    {
      name: 'Dashboard',
      description: 'Widgets of a dashboard: the inventory summary of a location, now or as of a past moment rebuilt from the stock ledger.',
    },
  ],
};
