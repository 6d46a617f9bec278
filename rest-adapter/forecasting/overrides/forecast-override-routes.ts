import { forecastOverrideListQuery, forecastOverrideSet } from '../../../src/contracts/forecasting/overrides/forecast-override.js';
import { defineRoutes } from '../../route.js';
import { jsonContent, pathParam } from '../../openapi-common.js';
import { forecasting, withForbidden } from '../forecast-docs.js';
import { forecastOverride, forecastOverrideList } from './forecast-override-responses.js';

const OVERRIDE = 'id scenarioId productMasterId locationId channel periodStart quantity note setBy { type id: actorId } createdAt updatedAt';

export const forecastOverrideRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/api/forecast/overrides',
    operation: `query ($productMasterId: ID, $locationId: ID, $channel: String, $scenarioId: ID, $baseOnly: Boolean, $from: String, $to: String, $limit: Int, $offset: Int) {
      forecastOverridesPage(productMasterId: $productMasterId, locationId: $locationId, channel: $channel, scenarioId: $scenarioId, baseOnly: $baseOnly,
        from: $from, to: $to, limit: $limit, offset: $offset) { entries { ${OVERRIDE} } total limit offset hasMore }
    }`,
    input: { query: forecastOverrideListQuery },
    variables: ({ query }) => query,
    result: ({ forecastOverridesPage: { entries, ...pagination } }) => ({ overrides: entries, data: entries, pagination }),
    doc: {
      operationId: 'listForecastOverrides',
      summary: 'List forecast overrides',
      description:
        "Planners' overrides of single forecast weeks, by week, then product, location and channel. A scenarioId, productMasterId or locationId that is not the organization's: 404.",
      ...forecasting,
      responses: withForbidden({ 200: { description: 'A page of overrides', ...jsonContent(forecastOverrideList) } }, [400, 401, 404]),
    },
  },
  {
    method: 'PUT',
    path: '/api/forecast/overrides',
    operation: `mutation ($input: ForecastOverrideInput!) { setForecastOverride(input: $input) { ${OVERRIDE} } }`,
    input: { body: forecastOverrideSet },
    variables: ({ body }) => ({ input: body }),
    result: (data) => data.setForecastOverride,
    doc: {
      operationId: 'setForecastOverride',
      summary: 'Set a forecast override',
      description:
        'Sets the forecast of one week (periodStart, a Monday) of one series (product, location, channel) to quantity, winning over the model in GET /api/forecast. ' +
        'Creates the override, or replaces the one of the same point and scenario (or base). Without scenarioId it holds for the base forecast and every ' +
        "scenario without its own override of the point. Writes an OVERRIDE row to the change history (totalBefore: the override in effect before, null when it was the model's). " +
        "Product, location or scenario not the organization's: 400 naming the field; a PUBLISHED or ARCHIVED scenario: 409 INVALID_STATE.",
      ...forecasting,
      responses: withForbidden({ 200: { description: 'The override', ...jsonContent(forecastOverride) } }, [400, 401, 409]),
    },
  },
  {
    method: 'DELETE',
    path: '/api/forecast/overrides/:id',
    operation: `mutation ($id: ID!) { removeForecastOverride(id: $id) { ${OVERRIDE} } }`,
    variables: ({ params }) => ({ id: params.id }),
    result: (data) => data.removeForecastOverride,
    doc: {
      operationId: 'removeForecastOverride',
      summary: 'Remove a forecast override',
      description:
        "The point answers the model again (a scenario's point: the base override when there is one). Answers the removed override; writes an OVERRIDE row " +
        'to the change history. A PUBLISHED or ARCHIVED scenario: 409 INVALID_STATE.',
      ...forecasting,
      parameters: [pathParam('id', 'Override id')],
      responses: withForbidden({ 200: { description: 'The removed override', ...jsonContent(forecastOverride) } }, [401, 404, 409]),
    },
  },
]);
