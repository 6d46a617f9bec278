import type { RestArea } from '../../route.js';
import { recommendationRoutes } from './recommendation-routes.js';
import { transferCostRoutes } from './transfer-cost-routes.js';

export const recommendationsArea: RestArea = {
  routes: [...recommendationRoutes, ...transferCostRoutes],
  tags: [
    {
      name: 'Transfers',
      description:
        'Rebalancing stock between locations: recommendations generated from inventory levels, stock and forecasts, approved or rejected by a manager and executed as ' +
        'inventory transfers; the cost per unit of each location pair the recommendations\' ROI uses.',
    },
  ],
};
