import type { RestArea } from '../route.js';
import { adjustmentRoutes } from './adjustments/adjustments-routes.js';
import { analyticsRoutes } from './analytics/analytics-routes.js';
import { channelAtpRoutes } from './channel-atp/channel-atp-routes.js';
import { cycleCountRoutes } from './cycle-counts/cycle-counts-routes.js';
import { inventoryLevelRoutes } from './levels/levels-routes.js';
import { stockLineRoutes } from './stock-lines/stock-lines-routes.js';
import { availabilityRoutes } from './availability/availability-routes.js';
import { receivingRoutes } from './receiving/receiving-routes.js';
import { holdRoutes } from './holds/holds-routes.js';
import { lotControlRoutes } from './lot-control/lot-control-routes.js';
import { expiredStockRoutes } from './expired-stock/expired-stock-routes.js';
import { putAwayRoutes } from './put-away/put-away-routes.js';
import { replenishmentRoutes } from './replenishment/replenishment-routes.js';

export const inventoryArea: RestArea = {
  routes: [...channelAtpRoutes, ...analyticsRoutes, ...stockLineRoutes, ...availabilityRoutes, ...inventoryLevelRoutes, ...receivingRoutes, ...adjustmentRoutes, ...holdRoutes, ...lotControlRoutes, ...expiredStockRoutes, ...putAwayRoutes, ...replenishmentRoutes, ...cycleCountRoutes],
  tags: [
    {
      name: 'Inventory',
      description:
        'Stock lines and their quantities, availability to promise, moves between quantity buckets, adjustments, counts and receipts, ' +
        'the stock ledger, inventory levels, channel ATP, analytics and the locations stock is kept at.',
    },
  ],
};
