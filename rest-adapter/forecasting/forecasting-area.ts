import type { RestArea } from '../route.js';
import { forecastAccuracyRoutes } from './forecast-accuracy-routes.js';
import { forecastEventRoutes } from './external-event-routes.js';
import { forecastRoutes } from './forecast-routes.js';
import { forecastScenarioRoutes } from './forecast-scenario-routes.js';

export const forecastingArea: RestArea = {
  routes: [...forecastRoutes, ...forecastAccuracyRoutes, ...forecastEventRoutes, ...forecastScenarioRoutes],
  tags: [
    {
      name: 'Forecasting',
      description: "Weekly demand forecasts from the demand history, the external events (promotions, price changes, holidays, …) that shape them, forecast scenarios and the forecast change history. Needs the plan capability ai.forecasting.demand (403 FEATURE_NOT_ENABLED otherwise).",
    },
  ],
};
