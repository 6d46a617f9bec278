import { contractArgs, parseInput } from '../../contract-input.js';
import { builder } from '../../builder.js';
import { ProductType } from '../../products/product.js';
import { LocationType } from '../../master-data/location.js';
import { productOf, locationOf, linked } from '../../record-loaders.js';
import { channelProjectionQuery } from '../../../contracts/forecasting/projections/channel-projection-query.js';
import { FORECAST_PAGING } from '../../../contracts/forecasting/demand/forecast-query.js';
import { type ChannelPart, type ChannelProjection, type ChannelShare, type ProjectionPoint, projectChannels } from '../../../services/forecasting/projections/channel-projection.js';
import { ForecastEventRef, ForecastMethodEnum, IntervalSourceEnum, PointLiftSourceEnum, SeriesAdjustmentRef } from '../demand/demand-forecast.js';
import { ForecastValuesRef } from '../demand/forecast-values.js';
import { canReadForecasts } from '../forecast-scopes.js';
import { pageOfSeries } from '../../engine-cost.js';
import { ForecastOverrideRef } from '../overrides/forecast-override.js';
import { ForecastScenarioType } from '../scenarios/forecast-scenario.js';
import { readScopesOf } from '../../link-scopes.js';
import { positionCursors, windowConnection } from '../../window-connection.js';
import { windowAnswer } from '../forecast-window.js';

const ShareBasisEnum = builder.enumType('ChannelShareBasis', {
  description: 'Where the channel shares of a product × location came from.',
  values: {
    RECENT: { description: 'The last shareWeeks weeks of its history.' },
    HISTORY: { description: 'Its whole history: the recent weeks had no demand.' },
    EQUAL: { description: 'Equal shares: its history has no demand at all.' },
  } as const,
});

const ChannelShareRef = builder.objectRef<ChannelShare>('ChannelShare').implement({
  description: "A channel's share of the demand of a product at a location.",
  fields: (t) => ({
    channel: t.exposeString('channel', { description: 'Channel label of the demand history.' }),
    share: t.exposeFloat('share', { description: 'Fraction of the demand (the shares of a product × location sum to 1), 6 decimals.' }),
    recentUnits: t.exposeFloat('recentUnits', { description: 'Units of the channel over the share window.' }),
  }),
});

const ProjectionPointRef = builder.objectRef<ProjectionPoint>('ChannelProjectionPoint').implement({
  interfaces: [ForecastValuesRef],
  description: 'The forecast of one week, of the total or of one channel.',
  fields: (t) => ({
    periodStart: t.expose('periodStart', { type: 'Date', description: 'Monday of the ISO week (YYYY-MM-DD).' }),
    liftFactor: t.exposeFloat('liftFactor', { description: "What the week's events multiplied the total's statistical forecast by (1: no event)." }),
    liftSource: t.field({ type: PointLiftSourceEnum, description: "Where those events' lifts came from.", resolve: (p) => p.liftSource }),
    adjustmentFactor: t.exposeFloat('adjustmentFactor', {
      description:
        "The scenario's adjustments: of a channel, category × its channel × global; of the total, category × global × Σ share × channel factor (what its channels add up to). 1 without a scenario.",
    }),
    overridden: t.exposeBoolean('overridden', { description: "A channel: a planner's override set it. The total: some channel's did, and the total is the sum of its channels." }),
    overrideId: t.exposeID('overrideId', { nullable: true, description: "A channel: the override that won (the scenario's own before the base one); the total: null." }),
    override: t.field({ type: ForecastOverrideRef, nullable: true, authScopes: readScopesOf('ForecastOverride'), description: 'The override that won (null without one).', resolve: (row, _args, ctx) => linked(ctx, 'forecastOverride', row.overrideId) }),
  }),
});

const ChannelForecastRef = builder.objectRef<ChannelPart>('ChannelForecast').implement({
  description: "One channel's part of a product × location forecast.",
  fields: (t) => ({
    channel: t.exposeString('channel', { description: 'Channel label.' }),
    share: t.exposeFloat('share', { description: 'The share the total was multiplied by.' }),
    adjustments: t.field({
      type: SeriesAdjustmentRef,
      nullable: true,
      description: "The scenario's category, channel and global adjustments of this channel's series; null without scenarioId.",
      resolve: (c) => c.adjustments,
    }),
    points: t.field({
      type: [ProjectionPointRef],
      description: "The total's statistical points × liftFactor × the category and global adjustments × the share × the channel's adjustment; its overrides win.",
      resolve: (c) => c.points,
    }),
  }),
});

const ChannelProjectionRef = builder.objectRef<ChannelProjection>('ChannelProjection').implement({
  description: 'The forecast of a product at a location (its channels summed), split by channel from their recent shares.',
  fields: (t) => ({
    productMasterId: t.exposeID('productMasterId', { description: 'The product.' }),
    product: t.field({ type: ProductType, nullable: true, description: 'The product (null only when it was deleted since).', resolve: (row, _args, ctx) => productOf(ctx, row.productMasterId) }),
    locationId: t.exposeID('locationId', { description: 'The location.' }),
    location: t.field({ type: LocationType, nullable: true, description: 'The location (null only when it was deleted since).', resolve: (row, _args, ctx) => locationOf(ctx, row.locationId) }),
    method: t.field({ type: ForecastMethodEnum, description: 'The method chosen by backtest for the total.', resolve: (p) => p.method }),
    backtestError: t.exposeFloat('backtestError', { nullable: true, description: 'Mean MASE of the method over the backtest; null when the total was too short.' }),
    intervalSource: t.field({ type: IntervalSourceEnum, description: 'How the intervals were made.', resolve: (p) => p.intervalSource }),
    historyWeeks: t.exposeInt('historyWeeks', { description: 'Weeks of history of the total.' }),
    lastHistoryWeek: t.expose('lastHistoryWeek', { type: 'Date', description: 'The last of them (YYYY-MM-DD).' }),
    shareBasis: t.field({ type: ShareBasisEnum, description: 'Where the shares came from.', resolve: (p) => p.shareBasis }),
    shareFrom: t.expose('shareFrom', { type: 'Date', description: 'First week of the share window (YYYY-MM-DD); the window ends with lastHistoryWeek.' }),
    shareWeeks: t.exposeInt('shareWeeks', { description: 'Weeks in the share window (shareWeeks asked, or the whole history when shorter).' }),
    shares: t.field({ type: [ChannelShareRef], description: 'The shares used, one per channel of the history, by channel label.', resolve: (p) => p.shares }),
    events: t.field({ type: [ForecastEventRef], description: 'Events that lifted at least one week of the total (stated or learned lifts).', resolve: (p) => p.events }),
    total: t.field({ type: [ProjectionPointRef], description: 'The weekly forecast of the total: what its channels add up to.', resolve: (p) => p.total }),
    channels: t.field({ type: [ChannelForecastRef], description: 'Per channel, the weekly points.', resolve: (p) => p.channels }),
  }),
});

type ProjectionPage = Awaited<ReturnType<typeof projectChannels>>;

const ChannelProjectionPageRef = builder.objectRef<ProjectionPage>('ChannelProjectionPage').implement({
  description: 'One page of product × location channel projections with paging totals and the options used.',
  fields: (t) => ({
    items: t.field({ type: [ChannelProjectionRef], description: 'Product × location pairs on this page, by product and location id.', resolve: (p) => p.data }),
    page: t.exposeInt('page', { description: 'Page number, from 1.' }),
    limit: t.exposeInt('limit', { description: 'Pairs per page.' }),
    total: t.exposeInt('total', { description: 'Pairs matching the filters in all pages.' }),
    totalPages: t.exposeInt('totalPages', { description: 'Number of pages.' }),
    horizon: t.exposeInt('horizon', { description: 'Weeks forecast per pair.' }),
    shareWeeks: t.exposeInt('shareWeeks', { description: 'Share window asked for, in weeks.' }),
    levels: t.exposeFloatList('levels', { description: 'Interval levels, in the order asked.' }),
    scenarioId: t.exposeID('scenarioId', { nullable: true, description: 'The scenario applied; null: none.' }),
    scenario: t.field({ type: ForecastScenarioType, nullable: true, authScopes: readScopesOf('ForecastScenario'), description: 'The scenario applied (null: none).', resolve: (row, _args, ctx) => linked(ctx, 'forecastScenario', row.scenarioId) }),
  }),
});


builder.queryFields((t) => {
  // The filters of GET /api/forecast/channel-projection, from its contract; the connection pages by position instead.
  const filters = (paging: 'pages' | 'window') =>
    contractArgs(t, channelProjectionQuery, { omit: paging === 'window' ? ['page', 'limit'] : [], types: { levels: ['Float'] } });
  const description =
    'The weekly forecast of each product × location total, split by channel from the recent channel shares, with events, a scenario and overrides applied as demandForecast does';
  return {
    channelProjection: t.connection(
      {
        extensions: { ...pageOfSeries, ...positionCursors(FORECAST_PAGING.max) },
        type: ChannelProjectionRef,
        description: `${description}, by product and location id, as a Relay connection (NOT_FOUND for a foreign product, location or scenario filter).`,
        authScopes: canReadForecasts,
        args: filters('window'),
        resolve: (_parent, args, ctx) =>
          windowConnection(args, FORECAST_PAGING.limit, (window) => projectChannels(ctx, parseInput(channelProjectionQuery, args), window).then(windowAnswer)),
      },
      {
        name: 'ChannelProjectionConnection',
        description: 'A page of product × location channel projections with the cursors to fetch the next or previous page, and the options used.',
        fields: (c) => ({
          totalCount: c.int({ description: 'Product × location pairs matching the filters.', resolve: (page) => page.totalCount }),
          horizon: c.int({ description: 'Weeks forecast per pair.', resolve: (page) => page.horizon }),
          shareWeeks: c.int({ description: 'Share window asked for, in weeks.', resolve: (page) => page.shareWeeks }),
          levels: c.floatList({ description: 'Interval levels, in the order asked.', resolve: (page) => page.levels }),
          scenarioId: c.id({ nullable: true, description: 'The scenario applied; null: none.', resolve: (page) => page.scenarioId }),
        }),
      },
    ),
    channelProjectionPage: t.field({
      extensions: pageOfSeries,
      type: ChannelProjectionPageRef,
      description: `REST adapter's shape (GET /api/forecast/channel-projection): ${description[0]!.toLowerCase()}${description.slice(1)}, by page number.`,
      deprecationReason: "The REST adapter's page shape (GET /api/forecast/channel-projection); GraphQL clients use the connection `channelProjection`.",
      authScopes: canReadForecasts,
      args: filters('pages'),
      resolve: (_parent, args, ctx) => projectChannels(ctx, parseInput(channelProjectionQuery, args)),
    }),
  };
});
