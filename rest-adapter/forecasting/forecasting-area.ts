import type { RestArea } from '../route.js';
import { forecastAccuracyRoutes } from './forecast-accuracy-routes.js';
import { forecastEventRoutes } from './external-event-routes.js';
import { forecastCompareRoutes } from './forecast-compare-routes.js';
import { forecastRoutes } from './forecast-routes.js';
import { forecastOverrideRoutes } from './forecast-override-routes.js';
import { forecastRunRoutes } from './forecast-run-routes.js';
import { forecastScenarioRoutes } from './forecast-scenario-routes.js';
import { projectionRoutes } from './projection-routes.js';

export const forecastingArea: RestArea = {
  routes: [...forecastRoutes, ...forecastAccuracyRoutes, ...projectionRoutes, ...forecastEventRoutes, ...forecastCompareRoutes, ...forecastOverrideRoutes, ...forecastRunRoutes, ...forecastScenarioRoutes],
  tags: [
    {
      name: 'Forecasting',
      description: "Weekly demand forecasts from the demand history (also split by channel, and monthly 12 to 24 months ahead), the external events (promotions, price changes, holidays, …) that shape them, forecast scenarios, their stored forecast runs (generated in batches by the server's workers) and the forecast change history. Needs the plan capability ai.forecasting.demand (403 FEATURE_NOT_ENABLED otherwise).",
    },
  ],
};
