import { builder } from '../../builder.js';
import { ProductType } from '../../products/product.js';
import { LocationType } from '../../master-data/location.js';
import { ownProduct, ownLocation, linked } from '../../record-loaders.js';
import type { ForecastOverride } from '../../../generated/prisma/client.js';
import {
  forecastOverridePage,
  overrideActor,
  removeForecastOverride,
  setForecastOverride,
} from '../../../services/forecasting/overrides/forecast-overrides.js';
import { canReadForecasts, canWriteForecasts } from '../forecast-scopes.js';
import { ForecastActorRef, ForecastScenarioType } from '../scenarios/forecast-scenario.js';
import { NodeRef } from '../../node/node-interface.js';
import { readScopesOf } from '../../link-scopes.js';
import { positionCursors, windowConnection } from '../../window-connection.js';
import { forecastOverrideListQuery, forecastOverrideSet, OVERRIDES_DEFAULT_LIMIT, OVERRIDES_MAX_LIMIT } from '../../../contracts/forecasting/overrides/forecast-override.js';
import { contractArgs, contractInput, parseInput } from '../../contract-input.js';

export const ForecastOverrideRef = builder.objectRef<ForecastOverride>('ForecastOverride').implement({
  interfaces: [NodeRef],
  description: "A planner's quantity for one week of one series, winning over the model's forecast.",
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Identifier.' }),
    scenarioId: t.exposeID('scenarioId', {
      nullable: true,
      description: 'The scenario it is for; null: the base forecast and every scenario without its own override of the point.',
    }),
    scenario: t.field({ type: ForecastScenarioType, nullable: true, authScopes: readScopesOf('ForecastScenario'), description: 'The scenario of the override (null for the base forecast).', resolve: (row, _args, ctx) => linked(ctx, 'forecastScenario', row.scenarioId) }),
    productMasterId: t.exposeID('productMasterId', { description: 'The product of the series.' }),
    product: t.field({ type: ProductType, description: 'The product of the series.', resolve: (row, _args, ctx) => ownProduct(ctx, row.productMasterId) }),
    locationId: t.exposeID('locationId', { description: 'The location of the series.' }),
    location: t.field({ type: LocationType, description: 'The location of the series.', resolve: (row, _args, ctx) => ownLocation(ctx, row.locationId) }),
    channel: t.exposeString('channel', { description: 'The channel label of the series.' }),
    periodStart: t.expose('periodStart', { type: 'Date', description: 'The week overridden: its Monday.' }),
    quantity: t.exposeFloat('quantity', { description: 'The forecast of that week, in units.' }),
    note: t.exposeString('note', { nullable: true, description: 'Why, in words.' }),
    setBy: t.field({ type: ForecastActorRef, description: 'Who set it last.', resolve: overrideActor }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was first set.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When it was last set.' }),
  }),
});

type Page = Awaited<ReturnType<typeof forecastOverridePage>>;

const ForecastOverridePageRef = builder.objectRef<Page>('ForecastOverridePage').implement({
  description: 'One page of forecast overrides, by week, then product, location and channel.',
  fields: (t) => ({
    entries: t.field({ type: [ForecastOverrideRef], description: 'Overrides on this page.', resolve: (page) => page.entries }),
    total: t.exposeInt('total', { description: 'Overrides matching the filters in all pages.' }),
    limit: t.exposeInt('limit', { description: 'Page size.' }),
    offset: t.exposeInt('offset', { description: 'Overrides skipped before this page.' }),
    hasMore: t.exposeBoolean('hasMore', { description: 'More overrides follow this page.' }),
  }),
});

const OverrideInput = contractInput('ForecastOverrideInput', forecastOverrideSet, {
  description: 'The override of one week of one series: what setForecastOverride creates, or replaces when the point (and scenario) already has one.',
});

builder.queryFields((t) => {
  // The filters of GET /api/forecast/overrides, from its contract; the connection pages by position instead.
  const filters = (paging: 'pages' | 'window') =>
    contractArgs(t, forecastOverrideListQuery, { omit: paging === 'window' ? ['limit', 'offset'] : [], types: { from: 'String', to: 'String' } });
  return {
    forecastOverrides: t.connection(
      {
        extensions: positionCursors(OVERRIDES_MAX_LIMIT),
        type: ForecastOverrideRef,
        description: 'Planner overrides of forecast points, by week, then product, location and channel, as a Relay connection.',
        authScopes: canReadForecasts,
        args: filters('window'),
        resolve: (_parent, args, ctx) =>
          windowConnection(args, OVERRIDES_DEFAULT_LIMIT, (window) =>
            forecastOverridePage(ctx, parseInput(forecastOverrideListQuery, args), window).then((page) => ({ items: page.entries, total: page.total })),
          ),
      },
      {
        name: 'ForecastOverrideConnection',
        description: 'A page of forecast overrides with the cursors to fetch the next or previous page.',
        fields: (c) => ({ totalCount: c.int({ description: 'Overrides matching the filters.', resolve: (page) => page.totalCount }) }),
      },
    ),
    forecastOverridesPage: t.field({
      type: ForecastOverridePageRef,
      description: "REST adapter's shape (GET /api/forecast/overrides): a page of planner overrides of forecast points by limit and offset.",
      deprecationReason: "The REST adapter's page shape (GET /api/forecast/overrides); GraphQL clients use the connection `forecastOverrides`.",
      authScopes: canReadForecasts,
      args: filters('pages'),
      resolve: (_parent, args, ctx) => forecastOverridePage(ctx, parseInput(forecastOverrideListQuery, args)),
    }),
  };
});

builder.mutationFields((t) => ({
  setForecastOverride: t.field({
    refusals: ['ValidationError', 'ConflictError'],
    type: ForecastOverrideRef,
    description:
      "Sets the forecast of one week of one series, winning over the model; replaces the point's override of the same scenario (or base). " +
      'Writes an OVERRIDE row to the change history. A PUBLISHED or ARCHIVED scenario is refused (INVALID_STATE).',
    authScopes: canWriteForecasts,
    args: { input: t.arg({ type: OverrideInput, required: true, description: 'The override.' }) },
    resolve: (_parent, args, ctx) => setForecastOverride(ctx, parseInput(forecastOverrideSet, args.input)),
  }),
  removeForecastOverride: t.field({
    refusals: ['NotFoundError', 'ConflictError'],
    type: ForecastOverrideRef,
    description: 'Removes an override (the point answers the model again, or a scenario the base override) and answers it as it was; writes an OVERRIDE row to the change history.',
    authScopes: canWriteForecasts,
    args: { id: t.arg.id({ required: true, description: 'The override.' }) },
    resolve: (_parent, args, ctx) => removeForecastOverride(ctx, String(args.id)),
  }),
}));
