import { forecastChangeQuery } from '../../../src/contracts/forecasting/scenarios/forecast-change-query.js';
import { forecastScenarioCreate, forecastScenarioListQuery, forecastScenarioUpdate } from '../../../src/contracts/forecasting/scenarios/forecast-scenario.js';
import { defineRoutes, type RouteSpec } from '../../route.js';
import { jsonContent, pathParam } from '../../openapi-common.js';
import { withForbidden } from '../forecast-docs.js';
import { forecastChangeHistory, forecastScenarioEnvelope, forecastScenarioList } from './forecast-scenario-responses.js';

const ACTOR = 'type id: actorId';
const SCENARIO = `id name description type status
  assumptions { narrative globalLiftPct categoryAdjustments { categoryId liftPct } channelAdjustments { channelId liftPct } includedEventIds }
  createdBy { ${ACTOR} } publishedBy { ${ACTOR} } publishedAt archivedAt createdAt updatedAt`;

const forecasting = { tags: ['Forecasting'] };
const idParam = pathParam('id', 'Scenario id');

/** Both published shapes of one scenario: `{scenario}` and the scenario's own fields. */
const envelope = (scenario: Record<string, unknown>) => ({ scenario, ...scenario });
const scenarioResponse = (description: string) => ({ description, ...jsonContent(forecastScenarioEnvelope) });

const READ_ONLY = 'PUBLISHED and ARCHIVED scenarios are read-only: 409 INVALID_STATE.';

/** PUT and PATCH are one partial update (the interface lists the update "also as PATCH"), as for events. */
const updateRoute = (method: 'PUT' | 'PATCH'): RouteSpec => ({
  method,
  path: '/api/forecast/scenarios/:id',
  operation: `mutation ($id: ID!, $input: ForecastScenarioUpdateInput!) { updateForecastScenario(id: $id, input: $input) { ${SCENARIO} } }`,
  input: { body: forecastScenarioUpdate },
  variables: ({ params, body }) => ({ id: params.id, input: body }),
  result: (data) => envelope(data.updateForecastScenario),
  doc: {
    operationId: method === 'PUT' ? 'putForecastScenario' : 'updateForecastScenario',
    summary: 'Update a draft scenario',
    description:
      `Partial update, the same for PUT and PATCH: absent fields stay as they are; assumptions are replaced as a whole; null clears description or assumptions. ${READ_ONLY}`,
    ...forecasting,
    parameters: [idParam],
    responses: withForbidden({ 200: scenarioResponse('The changed scenario') }, [400, 401, 404, 409]),
  },
});

const moveRoute = (move: 'publish' | 'archive'): RouteSpec => {
  const field = move === 'publish' ? 'publishForecastScenario' : 'archiveForecastScenario';
  return {
    method: move === 'publish' ? 'POST' : 'DELETE',
    path: move === 'publish' ? '/api/forecast/scenarios/:id/publish' : '/api/forecast/scenarios/:id',
    operation: `mutation ($id: ID!) { ${field}(id: $id) { ${SCENARIO} } }`,
    variables: ({ params }) => ({ id: params.id }),
    result: (data) => envelope(data[field]),
    doc: {
      operationId: field,
      summary: move === 'publish' ? 'Publish a scenario' : 'Archive a scenario',
      description:
        move === 'publish'
          ? 'DRAFT → PUBLISHED (publishedAt and publishedBy are set, a PUBLISH row is added to the change history). A PUBLISHED or ARCHIVED scenario: 409 INVALID_STATE.'
          : 'Archives rather than removes: DRAFT or PUBLISHED → ARCHIVED (archivedAt is set, an ARCHIVE row is added to the change history); answers the archived ' +
            'scenario. An already ARCHIVED scenario: 409 INVALID_STATE.',
      ...forecasting,
      parameters: [idParam],
      responses: withForbidden({ 200: scenarioResponse(move === 'publish' ? 'The published scenario' : 'The archived scenario') }, [401, 404, 409]),
    },
  };
};

export const forecastScenarioRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/api/forecast/scenarios',
    operation: `query ($status: ForecastScenarioStatus, $type: ForecastScenarioType, $includeArchived: Boolean) {
      allForecastScenarios(status: $status, type: $type, includeArchived: $includeArchived) { ${SCENARIO} }
    }`,
    input: { query: forecastScenarioListQuery },
    variables: ({ query }) => query,
    result: ({ allForecastScenarios }) => ({ scenarios: allForecastScenarios, data: allForecastScenarios }),
    doc: {
      operationId: 'listForecastScenarios',
      summary: 'List forecast scenarios',
      description: 'Scenarios of the organization, newest first. Archived ones are left out unless includeArchived=true or status=ARCHIVED. `scenarios` and `data` hold the same list.',
      ...forecasting,
      responses: withForbidden({ 200: { description: 'The scenarios', ...jsonContent(forecastScenarioList) } }, [400, 401]),
    },
  },
  {
    method: 'POST',
    path: '/api/forecast/scenarios',
    operation: `mutation ($input: ForecastScenarioInput!) { createForecastScenario(input: $input) { ${SCENARIO} } }`,
    input: { body: forecastScenarioCreate },
    variables: ({ body }) => ({ input: body }),
    result: (data) => envelope(data.createForecastScenario),
    status: 201,
    doc: {
      operationId: 'createForecastScenario',
      summary: 'Create a forecast scenario',
      description:
        'A new scenario in DRAFT. Categories, channels and events the assumptions name must be of the organization (else 400 naming the entry, ' +
        'e.g. assumptions.categoryAdjustments.1.categoryId).',
      ...forecasting,
      responses: withForbidden({ 201: scenarioResponse('The new scenario') }, [400, 401]),
    },
  },
  {
    method: 'GET',
    path: '/api/forecast/scenarios/:id',
    operation: `query ($id: ID!) { forecastScenario(id: $id) { ${SCENARIO} } }`,
    variables: ({ params }) => ({ id: params.id }),
    result: (data) => envelope(data.forecastScenario),
    doc: {
      operationId: 'getForecastScenario',
      summary: 'Get a forecast scenario',
      ...forecasting,
      parameters: [idParam],
      responses: withForbidden({ 200: scenarioResponse('The scenario') }, [401, 404]),
    },
  },
  updateRoute('PUT'),
  updateRoute('PATCH'),
  moveRoute('archive'),
  moveRoute('publish'),
  {
    method: 'GET',
    path: '/api/forecast/change-history',
    operation: `query ($scenarioId: ID, $kind: ForecastChangeKind, $productMasterId: ID, $locationId: ID, $from: DateTime, $to: DateTime, $limit: Int, $offset: Int) {
      forecastChangesPage(scenarioId: $scenarioId, kind: $kind, productMasterId: $productMasterId, locationId: $locationId, from: $from, to: $to,
        limit: $limit, offset: $offset) {
        entries { id kind scenarioId productMasterId locationId channel periodStart totalBefore totalAfter actor { ${ACTOR} } note createdAt }
        total limit offset hasMore
      }
    }`,
    input: { query: forecastChangeQuery },
    variables: ({ query }) => query,
    result: ({ forecastChangesPage: { entries, ...pagination } }) => ({ changes: entries, data: entries, pagination }),
    doc: {
      operationId: 'listForecastChanges',
      summary: 'Forecast change history',
      description:
        'Who changed which forecast when, newest first: PUBLISH and ARCHIVE rows for scenarios, OVERRIDE rows for planner overrides (scenarioId null for the ' +
        'base forecast; a GENERATE row when a stored forecast run completes, with the scenario\'s previous run total and its own), with the value before and after where one is known. A scenarioId, productMasterId or locationId that is not the ' +
        "organization's: 404. `changes` and `data` hold the same page.",
      ...forecasting,
      responses: withForbidden({ 200: { description: 'A page of changes', ...jsonContent(forecastChangeHistory) } }, [400, 401, 404]),
    },
  },
]);
