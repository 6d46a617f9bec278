import { contractArgs, parseInput } from '../../contract-input.js';
import { builder } from '../../builder.js';
import { ProductType } from '../../products/product.js';
import { LocationType } from '../../master-data/location.js';
import { productOf, locationOf, linked } from '../../record-loaders.js';
import { FORECAST_PAGING, forecastQuery } from '../../../contracts/forecasting/demand/forecast-query.js';
import {
  type DemandForecastPoint,
  forecastDemand,
  type SeriesDemandForecast,
} from '../../../services/forecasting/demand/demand-forecast.js';
import type { ForecastEvent } from '../../../services/forecasting/events/forecast-events.js';
import type { SeriesAdjustment } from '../../../services/forecasting/scenarios/scenario-adjustments.js';
import { ExternalEventTypeEnum, StackingModeEnum } from '../events/external-event.js';
import { canReadForecasts } from '../forecast-scopes.js';
import { ForecastValuesRef } from './forecast-values.js';
import { pageOfSeries } from '../../engine-cost.js';
import { CategoryType } from '../../master-data/category.js';
import { ChannelType } from '../../master-data/channel.js';
import { ForecastOverrideRef } from '../overrides/forecast-override.js';
import { ForecastScenarioType } from '../scenarios/forecast-scenario.js';
import { readScopesOf } from '../../link-scopes.js';
import { positionCursors, windowConnection } from '../../window-connection.js';
import { windowAnswer } from '../forecast-window.js';

export const ForecastMethodEnum = builder.enumType('ForecastMethod', {
  description: "The method the engine chose for a series by rolling-origin backtest on the series' own history.",
  values: {
    SIMPLE_LEVEL: { description: 'The mean of the last 4 weeks, flat; the fallback for series too short to backtest.' },
    NAIVE: { description: 'The last week repeated.' },
    SEASONAL_NAIVE: { description: 'The same week one year (52 weeks) earlier.' },
    ETS: { description: 'Exponential smoothing with trend and seasonality (AutoETS).' },
    MSTL: { description: 'STL decomposition by the 52-week season; trend and remainder forecast by AutoETS, the season repeated.' },
    CROSTON: { description: "Croston's method for intermittent demand." },
    SBA: { description: 'Syntetos–Boylan approximation (bias-corrected Croston).' },
    TSB: { description: 'Teunter–Syntetos–Babai: demand probability and size smoothed apart.' },
    ENSEMBLE: { description: 'The best methods (at most 5) combined by inverse squared backtest error.' },
  } as const,
});

export const DemandClassEnum = builder.enumType('DemandClass', {
  description: 'Syntetos–Boylan demand class from the mean interval between demands (ADI) and the squared variation of their sizes (CV²).',
  values: {
    SMOOTH: { description: 'Frequent demand of steady size.' },
    ERRATIC: { description: 'Frequent demand of varying size.' },
    INTERMITTENT: { description: 'Infrequent demand of steady size.' },
    LUMPY: { description: 'Infrequent demand of varying size.' },
  } as const,
});

export const ErrorScaleEnum = builder.enumType('ForecastErrorScale', {
  description: 'What the backtest error (MASE) is scaled by.',
  values: {
    SEASONAL_NAIVE_MAE: { description: 'The in-sample mean absolute error of the seasonal naive method.' },
    NAIVE_MAE: { description: 'The in-sample mean absolute error of the naive method (a year of history or less, or no seasonal error).' },
    NONE: { description: 'Not scaled: no backtest, or a constant series (errors in units).' },
  } as const,
});

export const IntervalSourceEnum = builder.enumType('ForecastIntervalSource', {
  description: 'How the prediction intervals were made.',
  values: {
    CONFORMAL_BY_STEP: { description: "Quantiles of the backtest's absolute errors, per weeks ahead." },
    CONFORMAL_POOLED: { description: "Quantiles of the backtest's absolute errors, pooled over the weeks ahead." },
    MODEL: { description: 'Normal intervals from the spread of the history (too short to backtest).' },
  } as const,
});

export const PointLiftSourceEnum = builder.enumType('ForecastLiftSource', {
  description: "Where a forecast week's event lifts came from.",
  values: {
    NONE: { description: 'No event overlaps the week.' },
    STATED: { description: "Every event's own value.liftPct." },
    LEARNED: { description: 'Every event had no stated lift and got the one learned from past events (learnedEventLifts).' },
    MIXED: { description: 'Some of each.' },
  } as const,
});

const EventLiftSourceEnum = builder.enumType('EventLiftSource', {
  description: "Where an applied event's lift came from.",
  values: {
    STATED: { description: 'Its own value.liftPct.' },
    LEARNED: { description: 'It states none: learned from past events of its type (learnedEventLifts).' },
  } as const,
});

export const LiftPoolEnum = builder.enumType('LearnedLiftPool', {
  description: 'Which past events a learned lift pools.',
  values: {
    TYPE: { description: 'Every past event of the type.' },
    LINK: { description: 'The past events of the type linked as the event is (the same product and location, or the same lack of one).' },
  } as const,
});

export const DemandForecastPointRef = builder.objectRef<DemandForecastPoint>('DemandForecastPoint').implement({
  interfaces: [ForecastValuesRef],
  description: 'The forecast of one week, after event lifts.',
  fields: (t) => ({
    periodStart: t.expose('periodStart', { type: 'Date', description: 'Monday of the ISO week (YYYY-MM-DD).' }),
    liftFactor: t.exposeFloat('liftFactor', { description: "What the week's events multiplied the statistical forecast and bounds by (1: no event)." }),
    liftSource: t.field({
      type: PointLiftSourceEnum,
      description: "Where the lifts of the week's events came from: NONE (no event), STATED, LEARNED (learned from past events of their type) or MIXED.",
      resolve: (p) => p.liftSource,
    }),
    eventIds: t.exposeIDList('eventIds', { description: "The events overlapping the week (listed in the series' events)." }),
    adjustmentFactor: t.exposeFloat('adjustmentFactor', {
      description: "What the scenario's category, channel and global adjustments multiplied it by next (1: no scenario, or none reaching the series). forecast = statistical × liftFactor × adjustmentFactor.",
    }),
    bookedQuantity: t.exposeInt('bookedQuantity', {
      description: "Units confirmed wholesale bookings of the series' product and location add to the week (their BOOKING events), after liftFactor and adjustmentFactor; 0 without one. A fulfilled or cancelled booking adds nothing.",
    }),
    overridden: t.exposeBoolean('overridden', { description: "A planner's override set forecast; the bounds moved by the same difference, never below zero." }),
    modelForecast: t.exposeFloat('modelForecast', { description: 'The forecast the model answered (after lifts and adjustments), before any override.' }),
    overrideId: t.exposeID('overrideId', { nullable: true, description: "The override that won (a scenario's own before the base one), or null." }),
    override: t.field({ type: ForecastOverrideRef, nullable: true, authScopes: readScopesOf('ForecastOverride'), description: 'The override that won (null without one).', resolve: (row, _args, ctx) => linked(ctx, 'forecastOverride', row.overrideId) }),
  }),
});

export const ForecastEventRef = builder.objectRef<ForecastEvent>('ForecastAppliedEvent').implement({
  description: 'An external event that lifted at least one week of a forecast.',
  fields: (t) => ({
    eventId: t.exposeID('id', { description: 'The id of the external event.' }),
    event: t.prismaField({
      type: 'ExternalEvent',
      nullable: true,
      description: 'The external event itself (null when it was deleted since the forecast was computed).',
      resolve: (query, e, _args, ctx) => ctx.prisma.externalEvent.findUnique({ ...query, where: { id: e.id } }),
    }),
    name: t.exposeString('name', { description: 'Event name.' }),
    startsAt: t.expose('startsAt', { type: 'DateTime', description: 'When the event starts.' }),
    endsAt: t.expose('endsAt', { type: 'DateTime', description: 'When the event ends.' }),
    type: t.field({ type: ExternalEventTypeEnum, description: 'Kind of event.', resolve: (e) => e.type }),
    liftPct: t.exposeFloat('liftPct', { description: 'Demand change as a fraction (0.2 = +20 %): the stated one, or the learned one (held to -0.99 … 5).' }),
    stackingMode: t.field({ type: StackingModeEnum, description: 'How the lift combines with the other events of a week (MULTIPLICATIVE for a learned lift).', resolve: (e) => e.stackingMode }),
    liftSource: t.field({ type: EventLiftSourceEnum, description: 'STATED (its value) or LEARNED (it states none).', resolve: (e) => e.liftSource }),
    learnedPool: t.field({ type: LiftPoolEnum, nullable: true, description: 'For a LEARNED lift, the pool it came from; null otherwise.', resolve: (e) => e.learned?.pool ?? null }),
    learnedOccurrences: t.int({ nullable: true, description: 'For a LEARNED lift, the past occurrences pooled; null otherwise.', resolve: (e) => e.learned?.occurrences ?? null }),
  }),
});

export const SeriesAdjustmentRef = builder.objectRef<SeriesAdjustment>('ForecastSeriesAdjustment').implement({
  description: "What a scenario's adjustments did to one series, applied in this order after its events.",
  fields: (t) => ({
    scenarioId: t.exposeID('scenarioId', { description: 'The scenario applied.' }),
    scenario: t.field({ type: ForecastScenarioType, nullable: true, authScopes: readScopesOf('ForecastScenario'), description: 'The scenario applied (null only when it was deleted since).', resolve: (row, _args, ctx) => linked(ctx, 'forecastScenario', row.scenarioId) }),
    categoryId: t.exposeID('categoryId', { nullable: true, description: "The product's category when the scenario adjusts it; null otherwise." }),
    category: t.field({ type: CategoryType, nullable: true, authScopes: readScopesOf('Category'), description: 'The category adjusted (null when the scenario adjusts none of this series).', resolve: (row, _args, ctx) => linked(ctx, 'category', row.categoryId) }),
    categoryLiftPct: t.exposeFloat('categoryLiftPct', { nullable: true, description: 'Its lift as a fraction (0.1 = +10 %); null: none.' }),
    channelId: t.exposeID('channelId', {
      nullable: true,
      description: "The adjusted channel matching the series' channel label (by name, else by type, case-insensitive); null: none.",
    }),
    channel: t.field({ type: ChannelType, nullable: true, authScopes: readScopesOf('Channel'), description: 'The channel adjusted (null when none applies).', resolve: (row, _args, ctx) => linked(ctx, 'channel', row.channelId) }),
    channelLiftPct: t.exposeFloat('channelLiftPct', { nullable: true, description: 'Its lift as a fraction; null: none.' }),
    globalLiftPct: t.exposeFloat('globalLiftPct', { nullable: true, description: "The scenario's global lift as a fraction; null: none." }),
    factor: t.exposeFloat('factor', { description: '(1 + category lift) × (1 + channel lift) × (1 + global lift), each never below zero: every point\'s adjustmentFactor.' }),
  }),
});

const SeriesForecastRef = builder.objectRef<SeriesDemandForecast>('SeriesDemandForecast').implement({
  description: 'The forecast of one product at one location in one channel.',
  fields: (t) => ({
    productMasterId: t.exposeID('productMasterId', { description: 'The product.' }),
    product: t.field({ type: ProductType, nullable: true, description: 'The product (null only when it was deleted since).', resolve: (row, _args, ctx) => productOf(ctx, row.productMasterId) }),
    locationId: t.exposeID('locationId', { description: 'The location.' }),
    location: t.field({ type: LocationType, nullable: true, description: 'The location (null only when it was deleted since).', resolve: (row, _args, ctx) => locationOf(ctx, row.locationId) }),
    channel: t.exposeString('channel', { description: 'Channel label of the demand history.' }),
    method: t.field({ type: ForecastMethodEnum, description: 'The method chosen by backtest.', resolve: (s) => s.method }),
    backtestError: t.exposeFloat('backtestError', { nullable: true, description: 'Mean MASE of the method over the rolling-origin backtest; null when the series was too short.' }),
    errorScale: t.field({ type: ErrorScaleEnum, description: 'What backtestError is scaled by.', resolve: (s) => s.errorScale }),
    demandClass: t.field({ type: DemandClassEnum, nullable: true, description: 'Demand class; null when the series has no demand at all.', resolve: (s) => s.demandClass }),
    intervalSource: t.field({ type: IntervalSourceEnum, description: 'How the intervals were made.', resolve: (s) => s.intervalSource }),
    historyWeeks: t.exposeInt('historyWeeks', { description: 'Weeks of history the engine saw (a week without a record counts as 0).' }),
    lastHistoryWeek: t.expose('lastHistoryWeek', { type: 'Date', description: 'The last of them (YYYY-MM-DD).' }),
    events: t.field({ type: [ForecastEventRef], description: 'Events that lifted at least one of the points.', resolve: (s) => s.events }),
    adjustments: t.field({
      type: SeriesAdjustmentRef,
      nullable: true,
      description: "The scenario's category, channel and global adjustments of this series; null without scenarioId.",
      resolve: (s) => s.adjustments,
    }),
    points: t.field({ type: [DemandForecastPointRef], description: 'One point per week, horizon points from the first forecast week.', resolve: (s) => s.points }),
  }),
});

type ForecastPage = Awaited<ReturnType<typeof forecastDemand>>;

const DemandForecastPageRef = builder.objectRef<ForecastPage>('DemandForecastPage').implement({
  description: 'One page of series forecasts with paging totals and the options used.',
  fields: (t) => ({
    items: t.field({ type: [SeriesForecastRef], description: 'Series on this page, by product, location and channel id.', resolve: (p) => p.data }),
    page: t.exposeInt('page', { description: 'Page number, from 1.' }),
    limit: t.exposeInt('limit', { description: 'Series per page.' }),
    total: t.exposeInt('total', { description: 'Series matching the filters in all pages.' }),
    totalPages: t.exposeInt('totalPages', { description: 'Number of pages.' }),
    horizon: t.exposeInt('horizon', { description: 'Weeks forecast per series.' }),
    levels: t.exposeFloatList('levels', { description: 'Interval levels, in the order asked.' }),
    from: t.expose('from', { type: 'Date', nullable: true, description: 'The first forecast week (Monday) when one was asked for; null: each series from the week after its history.' }),
    scenarioId: t.exposeID('scenarioId', { nullable: true, description: 'The scenario applied; null: none.' }),
    scenario: t.field({ type: ForecastScenarioType, nullable: true, authScopes: readScopesOf('ForecastScenario'), description: 'The scenario applied (null: none).', resolve: (row, _args, ctx) => linked(ctx, 'forecastScenario', row.scenarioId) }),
  }),
});


builder.queryFields((t) => {
  // The filters of GET /api/forecast, from its contract; the connection pages by position instead.
  const filters = (paging: 'pages' | 'window') =>
    contractArgs(t, forecastQuery, { omit: paging === 'window' ? ['page', 'limit'] : [], types: { levels: ['Float'] } });
  return {
    demandForecast: t.connection(
      {
        extensions: { ...pageOfSeries, ...positionCursors(FORECAST_PAGING.max) },
        type: SeriesForecastRef,
        description:
          'Weekly demand forecasts of the demand history series (product × location × channel, by product, location and channel id), with prediction intervals and event lifts, as a Relay connection (NOT_FOUND for a foreign product, location or scenario filter).',
        authScopes: canReadForecasts,
        args: filters('window'),
        resolve: (_parent, args, ctx) =>
          windowConnection(args, FORECAST_PAGING.limit, (window) => forecastDemand(ctx, parseInput(forecastQuery, args), { window }).then(windowAnswer)),
      },
      {
        name: 'DemandForecastConnection',
        description: 'A page of series forecasts with the cursors to fetch the next or previous page, and the options used.',
        fields: (c) => ({
          totalCount: c.int({ description: 'Series matching the filters.', resolve: (page) => page.totalCount }),
          horizon: c.int({ description: 'Weeks forecast per series.', resolve: (page) => page.horizon }),
          levels: c.floatList({ description: 'Interval levels, in the order asked.', resolve: (page) => page.levels }),
          from: c.field({
            type: 'Date',
            nullable: true,
            description: 'The first forecast week (Monday) when one was asked for; null: each series from the week after its history.',
            resolve: (page) => page.from,
          }),
          scenarioId: c.id({ nullable: true, description: 'The scenario applied; null: none.', resolve: (page) => page.scenarioId }),
        }),
      },
    ),
    demandForecastPage: t.field({
      extensions: pageOfSeries,
      type: DemandForecastPageRef,
      description: "REST adapter's shape (GET /api/forecast): a page of weekly demand forecasts by page number, with prediction intervals and event lifts.",
      deprecationReason: "The REST adapter's page shape (GET /api/forecast); GraphQL clients use the connection `demandForecast`.",
      authScopes: canReadForecasts,
      args: filters('pages'),
      resolve: (_parent, args, ctx) => forecastDemand(ctx, parseInput(forecastQuery, args)),
    }),
  };
});
