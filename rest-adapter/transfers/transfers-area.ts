import type { RestArea } from '../route.js';
import { binMoveRoutes } from './bin-moves/bin-move-routes.js';
import { inventoryTransferRoutes } from './inventory-transfers/inventory-transfer-routes.js';
import { recommendationRoutes } from './recommendations/recommendation-routes.js';
import { transferCostRoutes } from './recommendations/transfer-cost-routes.js';

export const transfersArea: RestArea = {
  routes: [...binMoveRoutes, ...inventoryTransferRoutes, ...recommendationRoutes, ...transferCostRoutes],
  tags: [
    {
      name: 'Inventory Transfers',
      description:
        'Inventory transfers between locations (draft, ship, receive, cancel, through the stock ledger), stock in transit, bins of a location and bin-to-bin moves.',
    },
    {
      name: 'Transfers',
      description:
        'Rebalancing stock between locations: recommendations generated from inventory levels, stock and forecasts, approved or rejected by a manager and executed as ' +
        'inventory transfers; the cost per unit of each location pair the recommendations\' ROI uses.',
    },
  ],
};
