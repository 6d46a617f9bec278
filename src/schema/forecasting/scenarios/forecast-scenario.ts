import { queryFromInfo } from '@pothos/plugin-prisma';
import { builder } from '../../builder.js';
import { contractArgs, contractInput, parseInput } from '../../contract-input.js';
import { forecastScenarioCreate, forecastScenarioListQuery, forecastScenarioUpdate, scenarioAssumptionFields } from '../../../contracts/forecasting/scenarios/forecast-scenario.js';
import {
  archiveForecastScenario,
  createForecastScenario,
  type ForecastScenarioAssumptions,
  getForecastScenario,
  forecastScenarioWindow,
  listForecastScenarios,
  publishForecastScenario,
  scenarioActor,
  scenarioAssumptions,
  updateForecastScenario,
} from '../../../services/forecasting/scenarios/forecast-scenarios.js';
import { canReadForecasts, canWriteForecasts } from '../forecast-scopes.js';
import { NodeRef } from '../../node/node-interface.js';
import { CategoryType } from '../../master-data/category.js';
import { ChannelType } from '../../master-data/channel.js';
import { linked } from '../../record-loaders.js';
import { readScopesOf } from '../../link-scopes.js';
import { positionCursors, windowConnection } from '../../window-connection.js';
import { DEFAULT_PAGE_SIZE } from '../forecast-window.js';

export const ForecastScenarioTypeEnum = builder.enumType('ForecastScenarioType', {
  description: 'What a forecast scenario is for.',
  values: {
    BASELINE: { description: 'The statistical forecast as it is.' },
    PROMOTIONAL: { description: 'With planned promotions.' },
    CONSERVATIVE: { description: 'A cautious view of demand.' },
    OPTIMISTIC: { description: 'A hopeful view of demand.' },
    CHANNEL_LAUNCH: { description: 'A new sales channel starting.' },
    CUSTOM: { description: 'Anything else.' },
  } as const,
});

export const ForecastScenarioStatusEnum = builder.enumType('ForecastScenarioStatus', {
  description: 'Where a scenario is in its life: only a DRAFT can change; PUBLISHED and ARCHIVED are read-only.',
  values: {
    DRAFT: { description: 'Being worked on: may be changed, published or archived.' },
    PUBLISHED: { description: 'Published for planning: read-only, may still be archived.' },
    ARCHIVED: { description: 'Put away: read-only for good; left out of lists unless asked for.' },
  } as const,
});

interface ScenarioActor {
  type: string;
  id: string;
}

export const ForecastActorRef = builder.objectRef<ScenarioActor>('ForecastActor').implement({
  description: 'Who did something to a forecast: a signed-in user or an API key.',
  fields: (t) => ({
    type: t.exposeString('type', { description: 'USER or API_KEY.' }),
    actorId: t.exposeID('id', { description: "The user's or the API key's id (an API key's is also its ApiKey node id)." }),
  }),
});

const CategoryAdjustmentRef = builder.objectRef<{ categoryId: string; liftPct: number }>('ForecastCategoryAdjustment').implement({
  description: 'A demand change for the products of one category.',
  fields: (t) => ({
    categoryId: t.exposeID('categoryId', { description: 'The category.' }),
    category: t.field({ type: CategoryType, nullable: true, authScopes: readScopesOf('Category'), description: 'The category (null only when it was deleted since).', resolve: (row, _args, ctx) => linked(ctx, 'category', row.categoryId) }),
    liftPct: t.exposeFloat('liftPct', { description: 'Demand change as a fraction, from -0.99 to 5.' }),
  }),
});

const ChannelAdjustmentRef = builder.objectRef<{ channelId: string; liftPct: number }>('ForecastChannelAdjustment').implement({
  description: 'A demand change for one sales channel.',
  fields: (t) => ({
    channelId: t.exposeID('channelId', { description: 'The channel.' }),
    channel: t.field({ type: ChannelType, nullable: true, authScopes: readScopesOf('Channel'), description: 'The channel (null only when it was deleted since).', resolve: (row, _args, ctx) => linked(ctx, 'channel', row.channelId) }),
    liftPct: t.exposeFloat('liftPct', { description: 'Demand change as a fraction, from -0.99 to 5.' }),
  }),
});

const assumptionDescriptions = {
  narrative: 'Free text: what the scenario assumes and why.',
  globalLiftPct: 'Demand change applied last, to everything, as a fraction from -1 to 5 (0.1 = +10 %).',
  categoryAdjustments: 'Demand changes per category, applied after events.',
  channelAdjustments: 'Demand changes per channel, applied after the category adjustments.',
  includedEventIds: "The external events the scenario applies; null: every event in the forecast's window.",
};

const AssumptionsRef = builder.objectRef<ForecastScenarioAssumptions>('ForecastScenarioAssumptions').implement({
  description: 'What a scenario assumes, applied on top of the statistical forecast in this order: events, category, channel, global lift.',
  fields: (t) => ({
    narrative: t.exposeString('narrative', { nullable: true, description: assumptionDescriptions.narrative }),
    globalLiftPct: t.exposeFloat('globalLiftPct', { nullable: true, description: assumptionDescriptions.globalLiftPct }),
    categoryAdjustments: t.field({
      type: [CategoryAdjustmentRef],
      nullable: true,
      description: assumptionDescriptions.categoryAdjustments,
      resolve: (a) => a.categoryAdjustments,
    }),
    channelAdjustments: t.field({
      type: [ChannelAdjustmentRef],
      nullable: true,
      description: assumptionDescriptions.channelAdjustments,
      resolve: (a) => a.channelAdjustments,
    }),
    includedEventIds: t.exposeIDList('includedEventIds', { nullable: true, description: assumptionDescriptions.includedEventIds }),
  }),
});

export const ForecastScenarioType = builder.prismaObject('ForecastScenario', {
  interfaces: [NodeRef],
  description: 'A named set of assumptions a forecast is generated under.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Identifier.' }),
    name: t.exposeString('name', { description: 'Scenario name.' }),
    description: t.exposeString('description', { nullable: true, description: 'Free text about the scenario.' }),
    type: t.field({ type: ForecastScenarioTypeEnum, description: 'What the scenario is for.', resolve: (s) => s.type }),
    status: t.field({ type: ForecastScenarioStatusEnum, description: 'DRAFT, PUBLISHED or ARCHIVED.', resolve: (s) => s.status }),
    assumptions: t.field({
      type: AssumptionsRef,
      nullable: true,
      description: 'What the scenario assumes, or null when nothing was given.',
      select: { assumptions: true },
      resolve: (s) => scenarioAssumptions(s),
    }),
    createdBy: t.field({
      type: ForecastActorRef,
      description: 'Who created the scenario.',
      select: { createdByType: true, createdBy: true },
      resolve: (s) => scenarioActor(s.createdByType, s.createdBy)!,
    }),
    publishedBy: t.field({
      type: ForecastActorRef,
      nullable: true,
      description: 'Who published the scenario, if it was published.',
      select: { publishedByType: true, publishedBy: true },
      resolve: (s) => scenarioActor(s.publishedByType, s.publishedBy),
    }),
    publishedAt: t.expose('publishedAt', { type: 'DateTime', nullable: true, description: 'When the scenario was published.' }),
    archivedAt: t.expose('archivedAt', { type: 'DateTime', nullable: true, description: 'When the scenario was archived.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the scenario was created.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When the scenario last changed (its fields or its status).' }),
  }),
});

const AssumptionsInput = contractInput('ForecastScenarioAssumptionsInput', scenarioAssumptionFields, {
  description: 'What a scenario assumes; ids must be of the organization.',
  names: { categoryAdjustments: 'ForecastCategoryAdjustmentInput', channelAdjustments: 'ForecastChannelAdjustmentInput' },
  types: { includedEventIds: ['ID'] },
});

const ScenarioInput = contractInput('ForecastScenarioInput', forecastScenarioCreate, {
  description: 'A whole scenario: what createForecastScenario takes, and what replaceForecastScenario sets (absent optional fields are cleared).',
  types: { type: ForecastScenarioTypeEnum, assumptions: AssumptionsInput },
});

const ScenarioUpdateInput = contractInput('ForecastScenarioUpdateInput', forecastScenarioUpdate, {
  description: 'Changes to a DRAFT scenario; absent fields stay as they are; assumptions are replaced as a whole; null clears description or assumptions.',
  types: { type: ForecastScenarioTypeEnum, assumptions: AssumptionsInput },
});

const idArg = { required: true, description: 'Scenario id.' } as const;

builder.queryFields((t) => {
  // The filters of GET /api/forecast/scenarios, from its contract.
  const filters = () => contractArgs(t, forecastScenarioListQuery, { types: { status: ForecastScenarioStatusEnum, type: ForecastScenarioTypeEnum } });
  return {
    forecastScenarios: t.connection(
      {
        type: ForecastScenarioType,
        description: 'Forecast scenarios of the organization, newest first, as a Relay connection; archived ones only when asked for.',
        authScopes: canReadForecasts,
        extensions: positionCursors(),
        args: filters(),
        resolve: (_parent, args, ctx, info) =>
          windowConnection(args, DEFAULT_PAGE_SIZE, (window) =>
            forecastScenarioWindow(ctx, parseInput(forecastScenarioListQuery, args), window, queryFromInfo({ context: ctx, info, typeName: 'ForecastScenario', path: ['edges', 'node'] })),
          ),
      },
      {
        name: 'ForecastScenarioConnection',
        description: 'A page of forecast scenarios with the cursors to fetch the next or previous page.',
        fields: (c) => ({ totalCount: c.int({ description: 'Scenarios matching the filters.', resolve: (page) => page.totalCount }) }),
      },
    ),
    allForecastScenarios: t.prismaField({
      type: ['ForecastScenario'],
      description: "REST adapter's list (GET /api/forecast/scenarios): every forecast scenario of the organization in one list, newest first; archived ones only when asked for.",
      deprecationReason: "The REST adapter's unpaged list (GET /api/forecast/scenarios); GraphQL clients use the connection `forecastScenarios`.",
      authScopes: canReadForecasts,
      args: filters(),
      resolve: (query, _parent, args, ctx) => listForecastScenarios(ctx, parseInput(forecastScenarioListQuery, args), query),
    }),
  };
});

builder.queryFields((t) => ({
  forecastScenario: t.prismaField({
    type: 'ForecastScenario',
    description: "One forecast scenario by id; null when it is unknown or not the organization's.",
    orNullWhenAbsent: true,
    authScopes: canReadForecasts,
    args: { id: t.arg.id(idArg) },
    resolve: (query, _parent, args, ctx) => getForecastScenario(ctx, String(args.id), query),
  }),
}));

builder.mutationFields((t) => ({
  createForecastScenario: t.prismaField({
    refusals: ['ValidationError'],
    type: 'ForecastScenario',
    description: 'Creates a scenario in DRAFT.',
    authScopes: canWriteForecasts,
    args: { input: t.arg({ type: ScenarioInput, required: true, description: 'The scenario.' }) },
    resolve: (query, _parent, args, ctx) => createForecastScenario(ctx, parseInput(forecastScenarioCreate, args.input), query),
  }),
  replaceForecastScenario: t.prismaField({
    refusals: ['ValidationError', 'NotFoundError', 'ConflictError'],
    type: 'ForecastScenario',
    description: 'Sets every updatable field of a DRAFT scenario (absent description or assumptions are cleared); a PUBLISHED or ARCHIVED one is refused (INVALID_STATE).',
    authScopes: canWriteForecasts,
    args: { id: t.arg.id(idArg), input: t.arg({ type: ScenarioInput, required: true, description: 'The whole scenario.' }) },
    resolve: (query, _parent, args, ctx) => updateForecastScenario(ctx, String(args.id), parseInput(forecastScenarioCreate, args.input), { replace: true }, query),
  }),
  updateForecastScenario: t.prismaField({
    refusals: ['ValidationError', 'NotFoundError', 'ConflictError'],
    type: 'ForecastScenario',
    description: 'Changes the given fields of a DRAFT scenario; a PUBLISHED or ARCHIVED one is refused (INVALID_STATE).',
    authScopes: canWriteForecasts,
    args: { id: t.arg.id(idArg), input: t.arg({ type: ScenarioUpdateInput, required: true, description: 'The changes.' }) },
    resolve: (query, _parent, args, ctx) => updateForecastScenario(ctx, String(args.id), parseInput(forecastScenarioUpdate, args.input), {}, query),
  }),
  publishForecastScenario: t.prismaField({
    refusals: ['NotFoundError', 'ConflictError'],
    type: 'ForecastScenario',
    description: 'DRAFT → PUBLISHED, recorded in the change history; any other state is refused (INVALID_STATE).',
    authScopes: canWriteForecasts,
    args: { id: t.arg.id(idArg) },
    resolve: (query, _parent, args, ctx) => publishForecastScenario(ctx, String(args.id), query),
  }),
  archiveForecastScenario: t.prismaField({
    refusals: ['NotFoundError', 'ConflictError'],
    type: 'ForecastScenario',
    description: 'DRAFT or PUBLISHED → ARCHIVED (nothing is removed), recorded in the change history; an archived one is refused (INVALID_STATE).',
    authScopes: canWriteForecasts,
    args: { id: t.arg.id(idArg) },
    resolve: (query, _parent, args, ctx) => archiveForecastScenario(ctx, String(args.id), query),
  }),
}));
