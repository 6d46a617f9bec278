import type { RestArea } from '../route.js';
import { forecastEventRoutes } from './external-event-routes.js';

export const forecastingArea: RestArea = {
  routes: forecastEventRoutes,
  tags: [
    {
      name: 'Forecasting',
      description: "External events (promotions, price changes, holidays, …) that shape demand forecasts. Needs the plan capability ai.forecasting.demand (403 FEATURE_NOT_ENABLED otherwise).",
    },
  ],
};
