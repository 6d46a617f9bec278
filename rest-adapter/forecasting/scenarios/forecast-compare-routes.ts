import { forecastScenarioCompare, MAX_COMPARED_SCENARIOS, MAX_COMPARED_SERIES, MIN_COMPARED_SCENARIOS } from '../../../src/contracts/forecasting/scenarios/forecast-scenario-compare.js';
import { defineRoutes } from '../../route.js';
import { jsonContent } from '../../openapi-common.js';
import { forecasting, withForbidden } from '../forecast-docs.js';
import { scenarioComparisonResult } from '../demand/forecast-responses.js';

const DELTA = 'forecast delta deltaPct';

export const forecastCompareRoutes = defineRoutes([
  {
    method: 'POST',
    path: '/api/forecast/scenarios/compare',
    operation: `query ($scenarioIds: [ID!]!, $productMasterId: ID, $locationId: ID, $channel: String, $horizon: Int, $from: Date) {
      compareForecastScenarios(scenarioIds: $scenarioIds, productMasterId: $productMasterId, locationId: $locationId, channel: $channel,
        horizon: $horizon, from: $from) {
        items { scenarioId name type status ${DELTA} periods { periodStart ${DELTA} } } baseScenarioId series horizon from
      }
    }`,
    input: { body: forecastScenarioCompare },
    // Checked already; parsed again so that "13" sent for horizon reaches GraphQL as an Int.
    variables: ({ body }) => forecastScenarioCompare.parse(body),
    result: ({ compareForecastScenarios: { items, ...meta } }) => ({ data: items, meta }),
    doc: {
      operationId: 'compareForecastScenarios',
      summary: 'Compare forecast scenarios',
      description:
        `Total forecast per scenario and per week over every demand-history series matching the filters (at most ${MAX_COMPARED_SERIES} ` +
        'series, else 400: narrow with productMasterId, locationId or channel), with the difference from the first scenario ' +
        `(delta, and deltaPct as a fraction, null when the first is 0). ${MIN_COMPARED_SCENARIOS} to ${MAX_COMPARED_SCENARIOS} distinct ` +
        "scenarios of the organization (an unknown or foreign one: 404; ARCHIVED ones can be compared). Each series is fitted once " +
        'and each scenario applies its assumptions on top, as GET /api/forecast?scenarioId= does. A read: forecast.read.',
      ...forecasting,
      responses: withForbidden({ 200: { description: 'Totals per scenario and week', ...jsonContent(scenarioComparisonResult) } }, [400, 401, 404]),
    },
  },
]);
