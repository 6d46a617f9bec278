import type { RestArea } from '../route.js';
import { forecastAccuracyRoutes } from './accuracy/forecast-accuracy-routes.js';
import { forecastEventRoutes } from './events/external-event-routes.js';
import { learnedLiftRoutes } from './events/learned-lift-routes.js';
import { forecastCompareRoutes } from './scenarios/forecast-compare-routes.js';
import { forecastRoutes } from './demand/forecast-routes.js';
import { forecastOverrideRoutes } from './overrides/forecast-override-routes.js';
import { forecastRunRoutes } from './runs/forecast-run-routes.js';
import { forecastScenarioRoutes } from './scenarios/forecast-scenario-routes.js';
import { projectionRoutes } from './projections/projection-routes.js';

export const forecastingArea: RestArea = {
  routes: [...forecastRoutes, ...forecastAccuracyRoutes, ...projectionRoutes, ...learnedLiftRoutes, ...forecastEventRoutes, ...forecastCompareRoutes, ...forecastOverrideRoutes, ...forecastRunRoutes, ...forecastScenarioRoutes],
  tags: [
    {
      name: 'Forecasting',
      description: "Weekly demand forecasts from the demand history (also split by channel, and monthly 12 to 24 months ahead), the external events (promotions, price changes, holidays, …) that shape them, forecast scenarios, their stored forecast runs (generated in batches by the server's workers) and the forecast change history. Needs the plan capability ai.forecasting.demand (403 FEATURE_NOT_ENABLED otherwise).",
    },
  ],
};
