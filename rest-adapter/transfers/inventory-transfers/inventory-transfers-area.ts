import type { RestArea } from '../../route.js';
import { inventoryTransferRoutes } from './inventory-transfer-routes.js';

export const inventoryTransfersArea: RestArea = {
  routes: inventoryTransferRoutes,
  tags: [
    {
      name: 'Inventory Transfers',
      description:
        'Inventory transfers between locations (draft, ship, receive, cancel, through the stock ledger), stock in transit, bins of a location and bin-to-bin moves.',
    },
  ],
};
