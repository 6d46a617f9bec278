import { contractArgs, parseInput } from '../../contract-input.js';
import { builder } from '../../builder.js';
import { ProductType } from '../../products/product.js';
import { LocationType } from '../../master-data/location.js';
import { productOf, locationOf, linked } from '../../record-loaders.js';
import { FORECAST_PAGING } from '../../../contracts/forecasting/demand/forecast-query.js';
import { longTermQuery } from '../../../contracts/forecasting/projections/long-term-query.js';
import { forecastLongTerm, type LongTermSeriesForecast, type MonthlyPoint } from '../../../services/forecasting/projections/long-term-forecast.js';
import { ForecastEventRef, IntervalSourceEnum, PointLiftSourceEnum, SeriesAdjustmentRef } from '../demand/demand-forecast.js';
import { ForecastValuesRef } from '../demand/forecast-values.js';
import { canReadForecasts } from '../forecast-scopes.js';
import { pageOfSeries } from '../../engine-cost.js';
import { ForecastScenarioType } from '../scenarios/forecast-scenario.js';
import { readScopesOf } from '../../link-scopes.js';
import { positionCursors, windowConnection } from '../../window-connection.js';
import { windowAnswer } from '../forecast-window.js';

const LongTermMethodEnum = builder.enumType('LongTermForecastMethod', {
  description: 'The monthly method of a long-term forecast.',
  values: {
    DAMPED_TREND: { description: 'Damped-trend (additive) Holt; less than two years of months.' },
    DAMPED_TREND_SEASONAL: { description: 'Damped-trend Holt on the seasonally adjusted months, the 12-month seasonal indices added back.' },
  } as const,
});

const MonthlyPointRef = builder.objectRef<MonthlyPoint>('MonthlyForecastPoint').implement({
  interfaces: [ForecastValuesRef],
  description: 'The forecast of one calendar month.',
  fields: (t) => ({
    month: t.exposeString('month', { description: 'The month (YYYY-MM).' }),
    periodStart: t.expose('periodStart', { type: 'Date', description: 'Its first day (YYYY-MM-DD).' }),
    periodEnd: t.expose('periodEnd', { type: 'Date', description: 'Its last day (YYYY-MM-DD).' }),
    liftFactor: t.exposeFloat('liftFactor', {
      description: "The events' lift: the mean over the month's days of the stacked factor of the events covering each day (an event over 10 of 30 days moves it by a third of its lift); 1 without.",
    }),
    liftSource: t.field({ type: PointLiftSourceEnum, description: "Where those events' lifts came from.", resolve: (p) => p.liftSource }),
    adjustmentFactor: t.exposeFloat('adjustmentFactor', {
      description: "The scenario's category × channel × global adjustment (1 without). forecast = damped trend × liftFactor × adjustmentFactor.",
    }),
  }),
});

const LongTermSeriesRef = builder.objectRef<LongTermSeriesForecast>('LongTermSeriesForecast').implement({
  description: 'The monthly forecast of one product at one location in one channel.',
  fields: (t) => ({
    productMasterId: t.exposeID('productMasterId', { description: 'The product.' }),
    product: t.field({ type: ProductType, nullable: true, description: 'The product (null only when it was deleted since).', resolve: (row, _args, ctx) => productOf(ctx, row.productMasterId) }),
    locationId: t.exposeID('locationId', { description: 'The location.' }),
    location: t.field({ type: LocationType, nullable: true, description: 'The location (null only when it was deleted since).', resolve: (row, _args, ctx) => locationOf(ctx, row.locationId) }),
    channel: t.exposeString('channel', { description: 'Channel label of the demand history.' }),
    method: t.field({ type: LongTermMethodEnum, description: 'The monthly method.', resolve: (s) => s.method }),
    alpha: t.exposeFloat('alpha', { description: 'Level smoothing chosen by least in-sample one-step squared error.' }),
    beta: t.exposeFloat('beta', { description: 'Trend smoothing.' }),
    phi: t.exposeFloat('phi', { description: 'Trend damping (below 1: the trend flattens).' }),
    intervalSource: t.field({ type: IntervalSourceEnum, description: 'How the intervals were made.', resolve: (s) => s.intervalSource }),
    historyMonths: t.exposeInt('historyMonths', { description: 'Calendar months the weekly history touches.' }),
    firstHistoryMonth: t.exposeString('firstHistoryMonth', { description: 'The first of them (YYYY-MM).' }),
    lastHistoryMonth: t.exposeString('lastHistoryMonth', { description: 'The last of them (YYYY-MM); the forecast starts the month after.' }),
    lastMonthPartial: t.exposeBoolean('lastMonthPartial', { description: 'Whether the history covers the last month only in part (its units were scaled to the whole month).' }),
    events: t.field({ type: [ForecastEventRef], description: 'Events that lifted at least one of the months (stated or learned lifts).', resolve: (s) => s.events }),
    adjustments: t.field({
      type: SeriesAdjustmentRef,
      nullable: true,
      description: "The scenario's category, channel and global adjustments of this series; null without scenarioId.",
      resolve: (s) => s.adjustments,
    }),
    points: t.field({ type: [MonthlyPointRef], description: 'One point per month.', resolve: (s) => s.points }),
  }),
});

type LongTermPage = Awaited<ReturnType<typeof forecastLongTerm>>;

const LongTermPageRef = builder.objectRef<LongTermPage>('LongTermForecastPage').implement({
  description: 'One page of monthly series forecasts with paging totals and the options used.',
  fields: (t) => ({
    items: t.field({ type: [LongTermSeriesRef], description: 'Series on this page, by product, location and channel.', resolve: (p) => p.data }),
    page: t.exposeInt('page', { description: 'Page number, from 1.' }),
    limit: t.exposeInt('limit', { description: 'Series per page.' }),
    total: t.exposeInt('total', { description: 'Series matching the filters in all pages.' }),
    totalPages: t.exposeInt('totalPages', { description: 'Number of pages.' }),
    months: t.exposeInt('months', { description: 'Months forecast per series.' }),
    levels: t.exposeFloatList('levels', { description: 'Interval levels, in the order asked.' }),
    scenarioId: t.exposeID('scenarioId', { nullable: true, description: 'The scenario applied; null: none.' }),
    scenario: t.field({ type: ForecastScenarioType, nullable: true, authScopes: readScopesOf('ForecastScenario'), description: 'The scenario applied (null: none).', resolve: (row, _args, ctx) => linked(ctx, 'forecastScenario', row.scenarioId) }),
  }),
});


builder.queryFields((t) => {
  // The filters of GET /api/forecast/long-term, from its contract; the connection pages by position instead.
  const filters = (paging: 'pages' | 'window') =>
    contractArgs(t, longTermQuery, { omit: paging === 'window' ? ['page', 'limit'] : [], types: { levels: ['Float'] } });
  const description =
    'Monthly demand forecasts 12 to 24 months ahead by a damped trend, with intervals, events (weighted by the days they cover) and a scenario\'s adjustments';
  return {
    longTermForecast: t.connection(
      {
        extensions: { ...pageOfSeries, ...positionCursors(FORECAST_PAGING.max) },
        type: LongTermSeriesRef,
        description: `${description}, by product, location and channel, as a Relay connection (NOT_FOUND for a foreign product, location or scenario filter).`,
        authScopes: canReadForecasts,
        args: filters('window'),
        resolve: (_parent, args, ctx) =>
          windowConnection(args, FORECAST_PAGING.limit, (window) => forecastLongTerm(ctx, parseInput(longTermQuery, args), window).then(windowAnswer)),
      },
      {
        name: 'LongTermForecastConnection',
        description: 'A page of monthly series forecasts with the cursors to fetch the next or previous page, and the options used.',
        fields: (c) => ({
          totalCount: c.int({ description: 'Series matching the filters.', resolve: (page) => page.totalCount }),
          months: c.int({ description: 'Months forecast per series.', resolve: (page) => page.months }),
          levels: c.floatList({ description: 'Interval levels, in the order asked.', resolve: (page) => page.levels }),
          scenarioId: c.id({ nullable: true, description: 'The scenario applied; null: none.', resolve: (page) => page.scenarioId }),
        }),
      },
    ),
    longTermForecastPage: t.field({
      extensions: pageOfSeries,
      type: LongTermPageRef,
      description: `REST adapter's shape (GET /api/forecast/long-term): ${description[0]!.toLowerCase()}${description.slice(1)}, by page number.`,
      deprecationReason: "The REST adapter's page shape (GET /api/forecast/long-term); GraphQL clients use the connection `longTermForecast`.",
      authScopes: canReadForecasts,
      args: filters('pages'),
      resolve: (_parent, args, ctx) => forecastLongTerm(ctx, parseInput(longTermQuery, args)),
    }),
  };
});
