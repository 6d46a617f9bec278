import { contractArgs, parseInput } from '../../contract-input.js';
import { builder } from '../../builder.js';
import { ProductType } from '../../products/product.js';
import { LocationType } from '../../master-data/location.js';
import { productOf, locationOf, linked } from '../../record-loaders.js';
import { ACCURACY_PAGING, ENGINE_MAX_SERIES, forecastAccuracyQuery } from '../../../contracts/forecasting/accuracy/forecast-accuracy-query.js';
import type { AccuracyRow } from '../../../services/forecasting/accuracy/accuracy-metrics.js';
import { forecastAccuracy } from '../../../services/forecasting/accuracy/forecast-accuracy.js';
import { ForecastMethodEnum } from '../demand/demand-forecast.js';
import { canReadForecasts } from '../forecast-scopes.js';
import { accuracyReplay } from '../../engine-cost.js';
import { ForecastRunRef } from '../runs/forecast-run.js';
import { readScopesOf } from '../../link-scopes.js';
import { positionCursors, windowConnection } from '../../window-connection.js';
import { windowAnswer } from '../forecast-window.js';

const SourceEnum = builder.enumType('ForecastAccuracySource', {
  description: 'Which forecasts are measured against the actuals of the demand history.',
  values: {
    IMPORTED: { description: "The demand history's own forecastUnits (the planners' forecasts)." },
    ENGINE: { description: `The engine's forecasts replayed from \`from\` (what demandForecast with that from answers; at most ${ENGINE_MAX_SERIES} series).` },
    STORED: { description: "The points of a stored forecast run (runId, or scenarioId's latest COMPLETED run), measured in SQL." },
  } as const,
});

const GroupByEnum = builder.enumType('ForecastAccuracyGroupBy', {
  description: 'What one accuracy row covers.',
  values: {
    PRODUCT: { description: 'One row per product.' },
    LOCATION: { description: 'One row per location.' },
    CHANNEL: { description: 'One row per channel label.' },
    METHOD: { description: 'One row per method the engine chose (ENGINE or STORED).' },
    TOTAL: { description: 'One row for everything measured.' },
  } as const,
});

const AccuracyRowRef = builder.objectRef<AccuracyRow>('ForecastAccuracyRow').implement({
  description: 'Accuracy of the forecasts of one group against the actuals (docs/forecasting.md, "Forecast accuracy", has the formulas).',
  fields: (t) => ({
    productMasterId: t.exposeID('productMasterId', { nullable: true, description: 'The product, when grouped by product.' }),
    product: t.field({ type: ProductType, nullable: true, description: 'The product, when grouped by product (null otherwise).', resolve: (row, _args, ctx) => productOf(ctx, row.productMasterId) }),
    locationId: t.exposeID('locationId', { nullable: true, description: 'The location, when grouped by location.' }),
    location: t.field({ type: LocationType, nullable: true, description: 'The location, when grouped by location (null otherwise).', resolve: (row, _args, ctx) => locationOf(ctx, row.locationId) }),
    channel: t.exposeString('channel', { nullable: true, description: 'The channel label, when grouped by channel.' }),
    method: t.field({ type: ForecastMethodEnum, nullable: true, description: 'The method, when grouped by method.', resolve: (r) => r.method as never }),
    points: t.exposeInt('points', { description: 'Weeks measured (series × week with a recorded actual).' }),
    zeroActualPoints: t.exposeInt('zeroActualPoints', { description: 'Of them, weeks whose actual is 0 (MAPE skips them).' }),
    scaledPoints: t.exposeInt('scaledPoints', { description: 'Of them, weeks of series with a MASE scale (MASE averages over them).' }),
    actualTotal: t.exposeFloat('actualTotal', { description: 'Σ actual units.' }),
    forecastTotal: t.exposeFloat('forecastTotal', { description: 'Σ forecast units.' }),
    mase: t.exposeFloat('mase', { nullable: true, description: 'Mean absolute error scaled by each series\' in-sample seasonal-naive (else naive-1) MAE before from; null when no series has a scale.' }),
    wape: t.exposeFloat('wape', { nullable: true, description: 'Σ|F − A| / ΣA; null when ΣA is 0.' }),
    bias: t.exposeFloat('bias', { nullable: true, description: '(ΣF − ΣA) / ΣA, positive when over-forecast; null when ΣA is 0.' }),
    mape: t.exposeFloat('mape', { nullable: true, description: 'Mean of |F − A| / A over the weeks with A ≠ 0; null when there are none.' }),
  }),
});

type AccuracyPage = Awaited<ReturnType<typeof forecastAccuracy>>;

const AccuracyPageRef = builder.objectRef<AccuracyPage>('ForecastAccuracyPage').implement({
  description: 'One page of accuracy rows with paging totals and the options used.',
  fields: (t) => ({
    items: t.field({ type: [AccuracyRowRef], description: 'Rows on this page, ordered by the grouping key.', resolve: (p) => p.data }),
    page: t.exposeInt('page', { description: 'Page number, from 1.' }),
    limit: t.exposeInt('limit', { description: 'Rows per page.' }),
    total: t.exposeInt('total', { description: 'Groups in all pages.' }),
    totalPages: t.exposeInt('totalPages', { description: 'Number of pages.' }),
    source: t.field({ type: SourceEnum, description: 'What was measured.', resolve: (p) => p.source }),
    groupBy: t.field({ type: GroupByEnum, description: 'What one row covers.', resolve: (p) => p.groupBy.toUpperCase() as never }),
    from: t.expose('from', { type: 'Date', nullable: true, description: 'The first measured week (Monday), when asked for.' }),
    to: t.expose('to', { type: 'Date', nullable: true, description: 'The last measured week (Monday), when asked for.' }),
    horizon: t.exposeInt('horizon', { nullable: true, description: 'ENGINE: weeks forecast from `from`; null otherwise.' }),
    includeAdjustments: t.exposeBoolean('includeAdjustments', {
      nullable: true,
      description: 'ENGINE: whether events (stated and learned lifts) and base planner overrides were applied (true) or the statistical forecast was measured alone (false); null otherwise.',
    }),
    runId: t.exposeID('runId', { nullable: true, description: 'STORED: the forecast run measured; null otherwise.' }),
    run: t.field({ type: ForecastRunRef, nullable: true, authScopes: readScopesOf('ForecastRun'), description: 'STORED: the forecast run measured (null otherwise).', resolve: (row, _args, ctx) => linked(ctx, 'forecastRun', row.runId) }),
  }),
});


builder.queryFields((t) => {
  // The filters of GET /api/forecast/accuracy, from its contract; the connection pages by position instead.
  const filters = (paging: 'pages' | 'window') =>
    contractArgs(t, forecastAccuracyQuery, { omit: paging === 'window' ? ['page', 'limit'] : [], types: { source: SourceEnum, groupBy: GroupByEnum } });
  const description = "MASE, WAPE, bias and MAPE of the imported, the engine's or a stored run's forecasts against the demand history's actuals, per group";
  return {
    forecastAccuracy: t.connection(
      {
        extensions: { ...accuracyReplay, ...positionCursors(ACCURACY_PAGING.max) },
        type: AccuracyRowRef,
        description: `${description}, ordered by the grouping key, as a Relay connection (NOT_FOUND for a foreign run, scenario, product or location filter).`,
        authScopes: canReadForecasts,
        args: filters('window'),
        resolve: (_parent, args, ctx) =>
          windowConnection(args, ACCURACY_PAGING.limit, (window) => forecastAccuracy(ctx, parseInput(forecastAccuracyQuery, args), window).then(windowAnswer)),
      },
      {
        name: 'ForecastAccuracyConnection',
        description: 'A page of accuracy rows with the cursors to fetch the next or previous page, and the options used.',
        fields: (c) => ({
          totalCount: c.int({ description: 'Groups measured.', resolve: (page) => page.totalCount }),
          source: c.field({ type: SourceEnum, description: 'What was measured.', resolve: (page) => page.source }),
          groupBy: c.field({ type: GroupByEnum, description: 'What one row covers.', resolve: (page) => page.groupBy.toUpperCase() as never }),
          from: c.field({ type: 'Date', nullable: true, description: 'The first measured week (Monday), when asked for.', resolve: (page) => page.from }),
          to: c.field({ type: 'Date', nullable: true, description: 'The last measured week (Monday), when asked for.', resolve: (page) => page.to }),
          horizon: c.int({ nullable: true, description: 'ENGINE: weeks forecast from `from`; null otherwise.', resolve: (page) => page.horizon }),
          includeAdjustments: c.boolean({
            nullable: true,
            description: 'ENGINE: whether events and base planner overrides were applied (true) or the statistical forecast was measured alone (false); null otherwise.',
            resolve: (page) => page.includeAdjustments,
          }),
          runId: c.id({ nullable: true, description: 'STORED: the forecast run measured; null otherwise.', resolve: (page) => page.runId }),
        }),
      },
    ),
    forecastAccuracyPage: t.field({
      extensions: accuracyReplay,
      type: AccuracyPageRef,
      description: `REST adapter's shape (GET /api/forecast/accuracy): ${description}, by page number.`,
      deprecationReason: "The REST adapter's page shape (GET /api/forecast/accuracy); GraphQL clients use the connection `forecastAccuracy`.",
      authScopes: canReadForecasts,
      args: filters('pages'),
      resolve: (_parent, args, ctx) => forecastAccuracy(ctx, parseInput(forecastAccuracyQuery, args)),
    }),
  };
});
