import { apiKeysArea } from './api-keys/api-keys-area.js';
import { authArea } from './auth/auth-area.js';
import { dashboardArea } from './dashboard/dashboard-area.js';
import { forecastingArea } from './forecasting/forecasting-area.js';
import { importArea } from './import/import-area.js';
import { inventoryArea } from './inventory/inventory-area.js';
import { masterDataArea } from './master-data/master-data-area.js';
import { planningArea } from './planning/planning-area.js';
import { productsArea } from './products/products-area.js';
import type { RestArea, RouteSpec } from './route.js';
import { reportsArea } from './reports/reports-area.js';
import { shipmentsArea } from './shipments/shipments-area.js';
import { bookingsArea } from './bookings/bookings-area.js';
import { stockRequestsArea } from './stock-requests/stock-requests-area.js';
import { transfersArea } from './transfers/transfers-area.js';
import { webhooksArea } from './webhooks/webhooks-area.js';
import { alertsArea } from './alerts/alerts-area.js';

/** Every area of the REST API, in matching order (static paths before parameterised ones in each area). */
export const areas: RestArea[] = [authArea, apiKeysArea, productsArea, masterDataArea, forecastingArea, transfersArea, inventoryArea, planningArea, reportsArea, dashboardArea, importArea, stockRequestsArea, shipmentsArea, bookingsArea, webhooksArea, alertsArea];

export const allRoutes: RouteSpec[] = areas.flatMap((area) => area.routes);
