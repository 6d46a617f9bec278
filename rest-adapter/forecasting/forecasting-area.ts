import type { RestArea } from '../route.js';
import { forecastEventRoutes } from './external-event-routes.js';
import { forecastScenarioRoutes } from './forecast-scenario-routes.js';

export const forecastingArea: RestArea = {
  routes: [...forecastEventRoutes, ...forecastScenarioRoutes],
  tags: [
    {
      name: 'Forecasting',
      description: "External events (promotions, price changes, holidays, …) that shape demand forecasts, forecast scenarios and the forecast change history. Needs the plan capability ai.forecasting.demand (403 FEATURE_NOT_ENABLED otherwise).",
    },
  ],
};
