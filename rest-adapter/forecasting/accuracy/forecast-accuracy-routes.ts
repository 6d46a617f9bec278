import { ENGINE_MAX_SERIES, forecastAccuracyQuery } from '../../../src/contracts/forecasting/accuracy/forecast-accuracy-query.js';
import { defineRoutes } from '../../route.js';
import { jsonContent } from '../../openapi-common.js';
import { forecasting, withForbidden } from '../forecast-docs.js';
import { accuracyPage } from './forecast-accuracy-responses.js';

const ROW = 'productMasterId locationId channel method points zeroActualPoints scaledPoints actualTotal forecastTotal mase wape bias mape';

export const forecastAccuracyRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/api/forecast/accuracy',
    operation: `query ($source: ForecastAccuracySource, $groupBy: ForecastAccuracyGroupBy, $productMasterId: ID, $locationId: ID, $channel: String,
      $runId: ID, $scenarioId: ID, $from: Date, $to: Date, $horizon: Int, $includeAdjustments: Boolean, $page: Int, $limit: Int) {
      forecastAccuracyPage(source: $source, groupBy: $groupBy, productMasterId: $productMasterId, locationId: $locationId, channel: $channel,
        runId: $runId, scenarioId: $scenarioId, from: $from, to: $to, horizon: $horizon, includeAdjustments: $includeAdjustments, page: $page, limit: $limit) {
        items { ${ROW} } page limit total totalPages source groupBy from to horizon includeAdjustments runId
      }
    }`,
    input: { query: forecastAccuracyQuery },
    // The contract has checked the values; the GraphQL enums are their upper-case names.
    variables: ({ query }) => ({ ...query, groupBy: query.groupBy?.toUpperCase() }),
    result: ({ forecastAccuracyPage: { items, ...meta } }) => ({ data: items, meta: { ...meta, groupBy: meta.groupBy.toLowerCase() } }),
    doc: {
      operationId: 'getForecastAccuracy',
      summary: 'Forecast accuracy',
      description:
        'MASE, WAPE, bias and MAPE of forecasts against the actualUnits of the demand history, one row per product, location, ' +
        "channel, method or in total. source=IMPORTED (default) measures the history's own forecastUnits over the recorded weeks " +
        'from `from` to `to`; source=ENGINE replays GET /api/forecast with `from` (the engine sees only the history before it) ' +
        `and measures its \`horizon\` weeks where an actual is recorded (at most ${ENGINE_MAX_SERIES} series: more is a 400 ` +
        'asking for a narrower filter); the forecasts are those GET /api/forecast answers, events (stated and learned lifts) applied ' +
        'and base planner overrides winning, or with includeAdjustments=false the statistical forecast alone (compare the two for the ' +
        'value the adjustments add; meta.includeAdjustments says which, null otherwise). source=STORED measures the stored points of a ' +
        'forecast run (runId, or the latest COMPLETED run of scenarioId; 404 when there is none) over the weeks with a recorded actual, ' +
        "in SQL, its scale cut at `from`, else the run's from, else its first stored week. MASE is scaled per series by the in-sample " +
        'seasonal-naive MAE of its history before `from` ' +
        '(naive-1 when a year or less, or 0; null without history, so without `from`); MAPE skips zero-actual weeks (zeroActualPoints ' +
        'counts them). Weeks are ISO weeks (Mondays).',
      ...forecasting,
      responses: withForbidden({ 200: { description: 'A page of accuracy rows', ...jsonContent(accuracyPage) } }, [400, 401, 404]),
    },
  },
]);
