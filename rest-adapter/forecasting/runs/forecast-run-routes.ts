import { forecastGenerateBody, forecastRunListQuery, forecastRunSeriesQuery } from '../../../src/contracts/forecasting/runs/forecast-run.js';
import { defineRoutes } from '../../route.js';
import { jsonContent, pathParam } from '../../openapi-common.js';
import { forecasting, withForbidden } from '../forecast-docs.js';
import { forecastRunEnvelope, forecastRunList, forecastRunSeriesPage } from './forecast-run-responses.js';

const RUN = `id scenarioId status horizon levels from productMasterId locationId channel totalSeries processedSeries totalBatches processedBatches progress
  totalForecast failureReason failedAttempts retryAt createdBy { type id: actorId } createdAt startedAt completedAt`;

const STORED_SERIES = `productMasterId locationId channel method backtestError errorScale demandClass intervalSource historyWeeks lastHistoryWeek eventIds
  adjustments { scenarioId categoryId categoryLiftPct channelId channelLiftPct globalLiftPct factor } totalForecast
  points { periodStart forecast lower upper lower95 upper95 intervals { level lower upper } liftFactor liftSource eventIds adjustmentFactor bookedQuantity overridden modelForecast overrideId }`;

const statusUrl = (runId: string) => `/api/forecast/runs/${runId}`;
const withUrl = (run: Record<string, unknown>) => ({ ...run, statusUrl: statusUrl(String(run.id)) });
/** The run under `run` and as its own fields at the top level, with its statusUrl. */
const envelope = (run: Record<string, unknown>) => {
  const shaped = withUrl(run);
  return { run: shaped, ...shaped };
};
/** The checked body as the mutation's input: levels may come as "80,95", as in GET /api/forecast (the contract accepted it already). */
const inputOf = (body: any) => (body && typeof body.levels === 'string' ? { ...body, levels: body.levels.split(',').map(Number) } : (body ?? null));
const runResponse = (description: string) => ({ description, ...jsonContent(forecastRunEnvelope) });

export const forecastRunRoutes = defineRoutes([
  {
    method: 'POST',
    path: '/api/forecast/scenarios/:id/generate',
    operation: `mutation ($scenarioId: ID!, $input: ForecastGenerateInput) { generateForecast(scenarioId: $scenarioId, input: $input) { ${RUN} } }`,
    input: { body: forecastGenerateBody },
    variables: ({ params, body }) => ({ scenarioId: params.id, input: inputOf(body) }),
    result: (data) => envelope(data.generateForecast),
    status: 202,
    doc: {
      operationId: 'generateForecast',
      summary: 'Generate and store forecasts for a scenario',
      description:
        "Stores the forecast of every demand-history series matching the filters (all of the organization's when none) under a DRAFT scenario, " +
        'exactly as GET /api/forecast?scenarioId= answers it (events the scenario includes, its category, channel and global adjustments, planner ' +
        "overrides). Answers 202 with the PENDING run at once; the server's workers (of any instance) fit it in batches, each stored with its checkpoint " +
        'in one transaction; poll statusUrl or follow the GraphQL subscription forecastRunProgress. The run keeps a copy of the assumptions: edits ' +
        'made while it runs do not change it. When it completes, totalForecast is set and a GENERATE row enters the change history (totalBefore: the ' +
        "scenario's previous completed run, null for the first). No series in scope: a COMPLETED run of 0 series. A PUBLISHED or ARCHIVED scenario: " +
        '409 INVALID_STATE; an unknown or foreign scenario, product or location: 404.',
      ...forecasting,
      parameters: [pathParam('id', 'Scenario id')],
      responses: withForbidden({ 202: runResponse('The run, PENDING (or COMPLETED when no series are in scope)') }, [400, 401, 404, 409]),
    },
  },
  {
    method: 'GET',
    path: '/api/forecast/scenarios/:id/runs',
    operation: `query ($scenarioId: ID!, $page: Int, $limit: Int) { forecastRunsPage(scenarioId: $scenarioId, page: $page, limit: $limit) { items { ${RUN} } page limit total totalPages } }`,
    input: { query: forecastRunListQuery },
    variables: ({ params, query }) => ({ scenarioId: params.id, ...query }),
    result: ({ forecastRunsPage: { items, ...meta } }) => {
      const runs = items.map(withUrl);
      return { runs, data: runs, meta };
    },
    doc: {
      operationId: 'listForecastRuns',
      summary: "List a scenario's forecast runs",
      description: "The scenario's stored forecast runs, newest first, paged. `runs` and `data` hold the same page. An unknown or foreign scenario: 404.",
      ...forecasting,
      parameters: [pathParam('id', 'Scenario id')],
      responses: withForbidden({ 200: { description: 'A page of runs', ...jsonContent(forecastRunList) } }, [400, 401, 404]),
    },
  },
  {
    method: 'GET',
    path: '/api/forecast/runs/:id',
    operation: `query ($id: ID!) { forecastRun(id: $id) { ${RUN} } }`,
    variables: ({ params }) => ({ id: params.id }),
    result: (data) => envelope(data.forecastRun),
    doc: {
      operationId: 'getForecastRun',
      summary: 'Status of a forecast run',
      description: 'Status, series counts, progress (0 to 1) and, once COMPLETED, the total of one of the organization\'s forecast runs. Unknown or foreign: 404.',
      ...forecasting,
      parameters: [pathParam('id', 'Forecast run id')],
      responses: withForbidden({ 200: runResponse('The run') }, [401, 404]),
    },
  },
  {
    method: 'GET',
    path: '/api/forecast/runs/:id/series',
    operation: `query ($id: ID!, $productMasterId: ID, $locationId: ID, $channel: String, $page: Int, $limit: Int) {
      forecastRunSeriesPage(id: $id, productMasterId: $productMasterId, locationId: $locationId, channel: $channel, page: $page, limit: $limit) {
        items { ${STORED_SERIES} } runId status page limit total totalPages
      }
    }`,
    input: { query: forecastRunSeriesQuery },
    variables: ({ params, query }) => ({ id: params.id, ...query }),
    result: ({ forecastRunSeriesPage: { items, ...meta } }) => ({ data: items, meta }),
    doc: {
      operationId: 'listForecastRunSeries',
      summary: "A forecast run's stored series",
      description:
        "One page of a run's stored series with their weekly points, in the run's order (product, location, channel id), in the point shape of " +
        'GET /api/forecast; filters by product, location and channel label. A run not yet COMPLETED answers the series stored so far. Unknown or foreign run, or a product or location filter not of the organization: 404.',
      ...forecasting,
      parameters: [pathParam('id', 'Forecast run id')],
      responses: withForbidden({ 200: { description: 'A page of stored series', ...jsonContent(forecastRunSeriesPage) } }, [400, 401, 404]),
    },
  },
]);
