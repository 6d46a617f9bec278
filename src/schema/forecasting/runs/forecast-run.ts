import { builder } from '../../builder.js';
import { ProductType } from '../../products/product.js';
import { LocationType } from '../../master-data/location.js';
import { productOf, locationOf, linked } from '../../record-loaders.js';
import { FORECAST_RUN_PAGING, FORECAST_RUN_SERIES_PAGING, forecastGenerateFields, forecastRunListQuery, forecastRunSeriesQuery } from '../../../contracts/forecasting/runs/forecast-run.js';
import { contractArgs, contractInput, parseInput } from '../../contract-input.js';
import type { ForecastRun } from '../../../generated/prisma/client.js';
import { generateForecast, getForecastRun, listForecastRuns, MAX_ATTEMPTS, runProgress } from '../../../services/forecasting/runs/forecast-runs.js';
import { forecastRunSeriesPage, type StoredSeriesForecast } from '../../../services/forecasting/runs/run-results.js';
import { scenarioActor } from '../../../services/forecasting/scenarios/forecast-scenarios.js';
import { DemandClassEnum, DemandForecastPointRef, ErrorScaleEnum, ForecastMethodEnum, IntervalSourceEnum, SeriesAdjustmentRef } from '../demand/demand-forecast.js';
import { ForecastActorRef, ForecastScenarioType } from '../scenarios/forecast-scenario.js';
import { canReadForecasts, canWriteForecasts } from '../forecast-scopes.js';
import { NodeRef } from '../../node/node-interface.js';
import { positionCursors, windowConnection } from '../../window-connection.js';
import { readScopesOf } from '../../link-scopes.js';
import { windowAnswer } from '../forecast-window.js';

export const ForecastRunStatusEnum = builder.enumType('ForecastRunStatus', {
  description: 'Where a stored forecast run is: PENDING until a worker takes its first batch, RUNNING while batches are fitted, then COMPLETED or FAILED.',
  values: {
    PENDING: { description: 'Asked for; no batch started yet.' },
    RUNNING: { description: 'Batches of series are being fitted and stored.' },
    COMPLETED: { description: 'Every series is stored; totalForecast is set.' },
    FAILED: { description: 'Stopped: failureReason says why; batches stored before stay readable.' },
  } as const,
});

const day = (date: Date | null) => (date ? date.toISOString().slice(0, 10) : null);

export const ForecastRunRef = builder.objectRef<ForecastRun>('ForecastRun').implement({
  interfaces: [NodeRef],
  description: "A stored forecast of a scenario's series: a job held in the database, fitted in batches by the server's workers.",
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Identifier.' }),
    scenarioId: t.exposeID('scenarioId', { description: 'The scenario the forecast was generated under.' }),
    scenario: t.field({ type: ForecastScenarioType, nullable: true, authScopes: readScopesOf('ForecastScenario'), description: 'The scenario the forecast was generated under (null only when it was deleted since).', resolve: (row, _args, ctx) => linked(ctx, 'forecastScenario', row.scenarioId) }),
    status: t.field({ type: ForecastRunStatusEnum, description: 'PENDING, RUNNING, COMPLETED or FAILED.', resolve: (r) => r.status }),
    horizon: t.exposeInt('horizon', { description: 'Weeks forecast per series.' }),
    levels: t.exposeFloatList('levels', { description: 'Interval levels, in the order asked (lower/upper are the first).' }),
    from: t.field({ type: 'Date', nullable: true, description: "The first forecast week (Monday) when one was asked for; null: each series from the week after its history.", resolve: (r) => day(r.fromWeek) }),
    productMasterId: t.exposeID('productMasterId', { nullable: true, description: 'Only this product, when asked for.' }),
    product: t.field({ type: ProductType, nullable: true, description: 'The product of productMasterId (null without one, or when it was deleted since).', resolve: (row, _args, ctx) => productOf(ctx, row.productMasterId) }),
    locationId: t.exposeID('locationId', { nullable: true, description: 'Only this location, when asked for.' }),
    location: t.field({ type: LocationType, nullable: true, description: 'The location of locationId (null without one, or when it was deleted since).', resolve: (row, _args, ctx) => locationOf(ctx, row.locationId) }),
    channel: t.exposeString('channel', { nullable: true, description: 'Only this channel label, when asked for.' }),
    totalSeries: t.exposeInt('totalSeries', { description: 'Series (product × location × channel) in the run.' }),
    processedSeries: t.exposeInt('processedSeries', { description: 'Series fitted and stored so far.' }),
    totalBatches: t.exposeInt('totalBatches', { description: 'Batches the series were cut into.' }),
    processedBatches: t.exposeInt('processedBatches', { description: 'Batches stored so far.' }),
    progress: t.float({ description: 'processedSeries / totalSeries, from 0 to 1 (1 for a completed run of no series).', resolve: (r) => runProgress(r) }),
    totalForecast: t.exposeFloat('totalForecast', { nullable: true, description: 'Sum of every stored weekly forecast; null until COMPLETED.' }),
    failureReason: t.exposeString('failureReason', { nullable: true, description: 'Why the run FAILED; null otherwise.' }),
    failedAttempts: t.exposeInt('failedAttempts', {
      description: `Batch attempts that ended in an error so far; a failed batch waits before it is tried again, and its ${MAX_ATTEMPTS}th failure fails the run.`,
    }),
    retryAt: t.expose('retryAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When the batch that failed last is tried again (meanwhile other work goes first); null when no batch waits for a retry.',
    }),
    createdBy: t.field({ type: ForecastActorRef, description: 'Who asked for the run.', resolve: (r) => scenarioActor(r.createdByType, r.createdBy)! }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the run was asked for.' }),
    startedAt: t.expose('startedAt', { type: 'DateTime', nullable: true, description: 'When a worker took its first batch.' }),
    completedAt: t.expose('completedAt', { type: 'DateTime', nullable: true, description: 'When it COMPLETED or FAILED.' }),
  }),
});

type RunPage = Awaited<ReturnType<typeof listForecastRuns>>;

const ForecastRunPageRef = builder.objectRef<RunPage>('ForecastRunPage').implement({
  description: "One page of a scenario's forecast runs, newest first.",
  fields: (t) => ({
    items: t.field({ type: [ForecastRunRef], description: 'Runs on this page.', resolve: (p) => p.runs }),
    page: t.exposeInt('page', { description: 'Page number, from 1.' }),
    limit: t.exposeInt('limit', { description: 'Runs per page.' }),
    total: t.exposeInt('total', { description: 'Runs of the scenario.' }),
    totalPages: t.exposeInt('totalPages', { description: 'Number of pages.' }),
  }),
});

const StoredSeriesRef = builder.objectRef<StoredSeriesForecast>('StoredSeriesForecast').implement({
  description: 'One stored series of a forecast run: what GET /api/forecast answered for it when the run fitted it.',
  fields: (t) => ({
    productMasterId: t.exposeID('productMasterId', { description: 'The product.' }),
    product: t.field({ type: ProductType, nullable: true, description: 'The product (null only when it was deleted since).', resolve: (row, _args, ctx) => productOf(ctx, row.productMasterId) }),
    locationId: t.exposeID('locationId', { description: 'The location.' }),
    location: t.field({ type: LocationType, nullable: true, description: 'The location (null only when it was deleted since).', resolve: (row, _args, ctx) => locationOf(ctx, row.locationId) }),
    channel: t.exposeString('channel', { description: 'Channel label of the demand history.' }),
    method: t.field({ type: ForecastMethodEnum, description: 'The method chosen by backtest.', resolve: (s) => s.method }),
    backtestError: t.exposeFloat('backtestError', { nullable: true, description: 'Mean MASE of the method over the backtest; null when the series was too short.' }),
    errorScale: t.field({ type: ErrorScaleEnum, description: 'What backtestError is scaled by.', resolve: (s) => s.errorScale }),
    demandClass: t.field({ type: DemandClassEnum, nullable: true, description: 'Demand class; null without any demand.', resolve: (s) => s.demandClass }),
    intervalSource: t.field({ type: IntervalSourceEnum, description: 'How the intervals were made.', resolve: (s) => s.intervalSource }),
    historyWeeks: t.exposeInt('historyWeeks', { description: 'Weeks of history the engine saw.' }),
    lastHistoryWeek: t.expose('lastHistoryWeek', { type: 'Date', description: 'The last of them (YYYY-MM-DD).' }),
    eventIds: t.exposeIDList('eventIds', { description: 'Events that lifted at least one of the points.' }),
    adjustments: t.field({ type: SeriesAdjustmentRef, nullable: true, description: "The scenario's adjustments of this series.", resolve: (s) => s.adjustments }),
    totalForecast: t.exposeFloat('totalForecast', { description: 'Sum of the series’ weekly forecasts.' }),
    points: t.field({ type: [DemandForecastPointRef], description: 'One point per week, horizon points from the first forecast week.', resolve: (s) => s.points }),
  }),
});

type SeriesPage = Awaited<ReturnType<typeof forecastRunSeriesPage>>;

const StoredSeriesPageRef = builder.objectRef<SeriesPage>('ForecastRunSeriesPage').implement({
  description: "One page of a forecast run's stored series, in the run's order (product, location, channel id).",
  fields: (t) => ({
    items: t.field({ type: [StoredSeriesRef], description: 'Series on this page.', resolve: (p) => p.data }),
    runId: t.exposeID('runId', { description: 'The run.' }),
    run: t.field({ type: ForecastRunRef, nullable: true, authScopes: readScopesOf('ForecastRun'), description: 'The run (null only when it was deleted since).', resolve: (row, _args, ctx) => linked(ctx, 'forecastRun', row.runId) }),
    status: t.field({ type: ForecastRunStatusEnum, description: "The run's status: a run not yet COMPLETED answers the series stored so far.", resolve: (p) => p.status }),
    page: t.exposeInt('page', { description: 'Page number, from 1.' }),
    limit: t.exposeInt('limit', { description: 'Series per page.' }),
    total: t.exposeInt('total', { description: 'Stored series matching the filters.' }),
    totalPages: t.exposeInt('totalPages', { description: 'Number of pages.' }),
  }),
});

const GenerateInput = contractInput('ForecastGenerateInput', forecastGenerateFields, {
  description: 'What to generate: the options of demandForecast, for every matching series at once. Every field may be absent.',
  types: { levels: ['Float'] },
});

const runIdArg = { required: true, description: 'Forecast run id.' } as const;

builder.queryFields((t) => ({
  forecastRun: t.field({
    type: ForecastRunRef,
    description: "One stored forecast run by id (what GET /api/forecast/runs/{id} serves); null when it is unknown or not the organization's.",
    orNullWhenAbsent: true,
    authScopes: canReadForecasts,
    args: { id: t.arg.id(runIdArg) },
    resolve: (_parent, args, ctx) => getForecastRun(ctx, String(args.id)),
  }),
  forecastRuns: t.connection(
    {
      type: ForecastRunRef,
      description: "A scenario's forecast runs, newest first, as a Relay connection (NOT_FOUND for an unknown or foreign scenario).",
      authScopes: canReadForecasts,
      extensions: positionCursors(FORECAST_RUN_PAGING.max),
      args: { scenarioId: t.arg.id({ required: true, description: 'Scenario id.' }) },
      resolve: (_parent, args, ctx) =>
        windowConnection(args, FORECAST_RUN_PAGING.limit, (window) =>
          listForecastRuns(ctx, String(args.scenarioId), parseInput(forecastRunListQuery, {}), {}, window).then((page) => ({ items: page.runs, total: page.total })),
        ),
    },
    {
      name: 'ForecastRunConnection',
      description: "A page of a scenario's forecast runs with the cursors to fetch the next or previous page.",
      fields: (c) => ({ totalCount: c.int({ description: 'Runs of the scenario.', resolve: (page) => page.totalCount }) }),
    },
  ),
  forecastRunsPage: t.field({
    type: ForecastRunPageRef,
    description: "REST adapter's shape (GET /api/forecast/scenarios/{id}/runs): a page of a scenario's forecast runs by page number, newest first.",
    deprecationReason: "The REST adapter's page shape (GET /api/forecast/scenarios/{id}/runs); GraphQL clients use the connection `forecastRuns`.",
    authScopes: canReadForecasts,
    args: { scenarioId: t.arg.id({ required: true, description: 'Scenario id.' }), ...contractArgs(t, forecastRunListQuery) },
    resolve: (_parent, args, ctx) => listForecastRuns(ctx, String(args.scenarioId), parseInput(forecastRunListQuery, args)),
  }),
}));

builder.queryFields((t) => {
  // The filters of GET /api/forecast/runs/{id}/series, from its contract; the connection pages by position instead.
  const runSeriesArgs = (paging: 'pages' | 'window') => ({
    id: t.arg.id(runIdArg),
    ...contractArgs(t, forecastRunSeriesQuery, { omit: paging === 'window' ? ['page', 'limit'] : [] }),
  });
  return {
    forecastRunSeries: t.connection(
      {
        extensions: positionCursors(FORECAST_RUN_SERIES_PAGING.max),
        type: StoredSeriesRef,
        description: "A forecast run's stored series with their weekly points, in the run's order (product, location, channel id), as a Relay connection (NOT_FOUND for an unknown or foreign run).",
        authScopes: canReadForecasts,
        args: runSeriesArgs('window'),
        resolve: (_parent, args, ctx) =>
          windowConnection(args, FORECAST_RUN_SERIES_PAGING.limit, (window) =>
            forecastRunSeriesPage(ctx, String(args.id), parseInput(forecastRunSeriesQuery, args), window).then(windowAnswer),
          ),
      },
      {
        name: 'ForecastRunSeriesConnection',
        description: "A page of a forecast run's stored series with the cursors to fetch the next or previous page.",
        fields: (c) => ({
          totalCount: c.int({ description: 'Stored series matching the filters.', resolve: (page) => page.totalCount }),
          runId: c.id({ description: 'The run.', resolve: (page) => page.runId }),
          status: c.field({ type: ForecastRunStatusEnum, description: "The run's status: a run not yet COMPLETED answers the series stored so far.", resolve: (page) => page.status }),
        }),
      },
    ),
    forecastRunSeriesPage: t.field({
      type: StoredSeriesPageRef,
      description: "REST adapter's shape (GET /api/forecast/runs/{id}/series): a page of a forecast run's stored series with their weekly points, by page number.",
      deprecationReason: "The REST adapter's page shape (GET /api/forecast/runs/{id}/series); GraphQL clients use the connection `forecastRunSeries`.",
      authScopes: canReadForecasts,
      args: runSeriesArgs('pages'),
      resolve: (_parent, args, ctx) => forecastRunSeriesPage(ctx, String(args.id), parseInput(forecastRunSeriesQuery, args)),
    }),
  };
});

builder.mutationFields((t) => ({
  generateForecast: t.field({
    refusals: ['ValidationError', 'NotFoundError', 'ConflictError'],
    type: ForecastRunRef,
    description:
      "Stores a forecast of a DRAFT scenario's series (PUBLISHED or ARCHIVED: INVALID_STATE): answers the PENDING run at once; the server's workers fit it in batches. " +
      'Follow it with forecastRun or the forecastRunProgress subscription. No series in scope: a COMPLETED run of 0 series.',
    authScopes: canWriteForecasts,
    args: {
      scenarioId: t.arg.id({ required: true, description: 'Scenario id.' }),
      input: t.arg({ type: GenerateInput, description: 'Options; all may be absent.' }),
    },
    resolve: (_parent, args, ctx) => generateForecast(ctx, String(args.scenarioId), parseInput(forecastGenerateFields, args.input ?? {})),
  }),
}));
