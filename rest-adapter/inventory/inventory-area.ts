import type { RestArea } from '../route.js';
import { adjustmentRoutes } from './adjustments-routes.js';
import { adjustmentSchemas } from './adjustments-schemas.js';
import { analyticsRoutes, analyticsSchemas } from './analytics-routes.js';
import { channelAtpRoutes, channelAtpSchemas } from './channel-atp-routes.js';
import { inventoryLevelRoutes, inventoryLevelSchemas } from './levels-routes.js';
import { inventoryRoutes, inventorySchemas } from './stock-lines-routes.js';

export const inventoryArea: RestArea = {
  routes: [...channelAtpRoutes, ...analyticsRoutes, ...inventoryRoutes, ...inventoryLevelRoutes, ...adjustmentRoutes],
  schemas: { ...channelAtpSchemas, ...inventorySchemas, ...analyticsSchemas, ...inventoryLevelSchemas, ...adjustmentSchemas },
  tags: [
    {
      name: 'Inventory',
      description:
        'Stock lines and their quantities, availability to promise, moves between quantity buckets, adjustments, counts and receipts, ' +
        'the stock ledger, inventory levels, channel ATP, analytics and the locations stock is kept at.',
    },
  ],
};
