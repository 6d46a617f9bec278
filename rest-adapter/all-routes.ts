import { adjustmentRoutes, adjustmentSchemas } from './adjustments-routes.js';
import { analyticsRoutes, analyticsSchemas } from './analytics-routes.js';
import { apiKeyRoutes, apiKeySchemas } from './api-keys-routes.js';
import { authRoutes, authSchemas } from './auth-routes.js';
import { channelAtpRoutes, channelAtpSchemas } from './channel-atp-routes.js';
import { inventoryLevelRoutes, inventoryLevelSchemas } from './inventory-levels-routes.js';
import { inventoryRoutes, inventorySchemas } from './inventory-routes.js';
import { forecastEventRoutes, forecastEventSchemas } from './forecast-events-routes.js';
import { importRoutes, importSchemas } from './import-routes.js';
import { masterDataRoutes, masterDataSchemas } from './master-data-routes.js';
import { commonSchemas } from './openapi-common.js';
import { productRoutes, productSchemas } from './products-routes.js';
import type { RouteSpec } from './route.js';

/** Every REST route, in matching order (static paths before parameterised ones in each area). */
export const allRoutes: RouteSpec[] = [...authRoutes, ...apiKeyRoutes, ...productRoutes, ...masterDataRoutes, ...forecastEventRoutes, ...channelAtpRoutes, ...analyticsRoutes, ...inventoryRoutes, ...inventoryLevelRoutes, ...adjustmentRoutes, ...importRoutes];

export const allSchemas: Record<string, unknown> = { ...commonSchemas, ...authSchemas, ...apiKeySchemas, ...productSchemas, ...masterDataSchemas, ...forecastEventSchemas, ...channelAtpSchemas, ...inventorySchemas, ...analyticsSchemas, ...inventoryLevelSchemas, ...adjustmentSchemas, ...importSchemas };
