import { builder } from '../../builder.js';
import { contractArgs, parseInput } from '../../contract-input.js';
import { instantsAsText } from '../instant-arguments.js';
import { ProductType } from '../../products/product.js';
import { LocationType } from '../../master-data/location.js';
import { productOf, locationOf, linked } from '../../record-loaders.js';
import type { ForecastChange } from '../../../generated/prisma/client.js';
import { forecastChangePage } from '../../../services/forecasting/scenarios/forecast-changes.js';
import { canReadForecasts } from '../forecast-scopes.js';
import { ForecastActorRef, ForecastScenarioType } from './forecast-scenario.js';
import { NodeRef } from '../../node/node-interface.js';
import { readScopesOf } from '../../link-scopes.js';
import { positionCursors, windowConnection } from '../../window-connection.js';
import { CHANGE_HISTORY_DEFAULT_LIMIT, CHANGE_HISTORY_MAX_LIMIT, forecastChangeQuery } from '../../../contracts/forecasting/scenarios/forecast-change-query.js';

const ForecastChangeKindEnum = builder.enumType('ForecastChangeKind', {
  description: 'What changed a forecast.',
  values: {
    GENERATE: { description: 'A forecast run was generated for the scenario.' },
    PUBLISH: { description: 'The scenario was published.' },
    OVERRIDE: { description: 'A planner overrode a forecast point.' },
    ARCHIVE: { description: 'The scenario was archived.' },
  } as const,
});

const ForecastChangeRef = builder.objectRef<ForecastChange>('ForecastChange').implement({
  interfaces: [NodeRef],
  description: 'One entry of the forecast change history: who changed which forecast when, and its total before and after where one is known.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Identifier.' }),
    kind: t.field({ type: ForecastChangeKindEnum, description: 'What the change was.', resolve: (c) => c.kind }),
    scenarioId: t.exposeID('scenarioId', { nullable: true, description: 'The scenario whose forecast changed; null for an override of the base forecast.' }),
    scenario: t.field({ type: ForecastScenarioType, nullable: true, authScopes: readScopesOf('ForecastScenario'), description: 'The scenario whose forecast changed (null for the base forecast, or when it was deleted since).', resolve: (row, _args, ctx) => linked(ctx, 'forecastScenario', row.scenarioId) }),
    productMasterId: t.exposeID('productMasterId', { nullable: true, description: 'The product, for a change of one series or point.' }),
    product: t.field({ type: ProductType, nullable: true, description: 'The product of productMasterId (null without one).', resolve: (row, _args, ctx) => productOf(ctx, row.productMasterId) }),
    locationId: t.exposeID('locationId', { nullable: true, description: 'The location, for a change of one series or point.' }),
    location: t.field({ type: LocationType, nullable: true, description: 'The location of locationId (null without one).', resolve: (row, _args, ctx) => locationOf(ctx, row.locationId) }),
    channel: t.exposeString('channel', { nullable: true, description: 'The channel label, for a change of one series or point.' }),
    periodStart: t.expose('periodStart', { type: 'Date', nullable: true, description: 'The week changed, for a change of one point.' }),
    totalBefore: t.exposeFloat('totalBefore', { nullable: true, description: 'Forecast total before the change, when a stored forecast was concerned.' }),
    totalAfter: t.exposeFloat('totalAfter', { nullable: true, description: 'Forecast total after the change, when a stored forecast was concerned.' }),
    actor: t.field({ type: ForecastActorRef, description: 'Who made the change.', resolve: (c) => ({ type: c.actorType, id: c.actorId }) }),
    note: t.exposeString('note', { nullable: true, description: 'What the change was about, in words.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the change was made.' }),
  }),
});

type Page = Awaited<ReturnType<typeof forecastChangePage>>;

const ForecastChangePageRef = builder.objectRef<Page>('ForecastChangePage').implement({
  description: 'One page of the forecast change history, newest first.',
  fields: (t) => ({
    entries: t.field({ type: [ForecastChangeRef], description: 'Changes on this page, newest first.', resolve: (page) => page.entries }),
    total: t.exposeInt('total', { description: 'Changes matching the filters in all pages.' }),
    limit: t.exposeInt('limit', { description: 'Page size.' }),
    offset: t.exposeInt('offset', { description: 'Changes skipped before this page.' }),
    hasMore: t.exposeBoolean('hasMore', { description: 'More changes follow this page.' }),
  }),
});

builder.queryFields((t) => {
  // The filters of GET /api/forecast/change-history, from its contract; the connection pages by position instead.
  const filters = (paging: 'pages' | 'window') =>
    contractArgs(t, forecastChangeQuery, { omit: paging === 'window' ? ['limit', 'offset'] : [], types: { kind: ForecastChangeKindEnum } });
  const query = (args: Record<string, unknown>) => parseInput(forecastChangeQuery, instantsAsText(args, ['from', 'to']));
  return {
    forecastChanges: t.connection(
      {
        extensions: positionCursors(CHANGE_HISTORY_MAX_LIMIT),
        type: ForecastChangeRef,
        description: 'The forecast change history, newest first, as a Relay connection.',
        authScopes: canReadForecasts,
        args: filters('window'),
        resolve: (_parent, args, ctx) =>
          windowConnection(args, CHANGE_HISTORY_DEFAULT_LIMIT, (window) => forecastChangePage(ctx, query(args), window).then((page) => ({ items: page.entries, total: page.total }))),
      },
      {
        name: 'ForecastChangeConnection',
        description: 'A page of the forecast change history with the cursors to fetch the next or previous page.',
        fields: (c) => ({ totalCount: c.int({ description: 'Changes matching the filters.', resolve: (page) => page.totalCount }) }),
      },
    ),
    forecastChangesPage: t.field({
      type: ForecastChangePageRef,
      description: "REST adapter's shape (GET /api/forecast/change-history): a page of the forecast change history by limit and offset, newest first.",
      deprecationReason: "The REST adapter's page shape (GET /api/forecast/change-history); GraphQL clients use the connection `forecastChanges`.",
      authScopes: canReadForecasts,
      args: filters('pages'),
      resolve: (_parent, args, ctx) => forecastChangePage(ctx, query(args)),
    }),
  };
});
