import { builder } from '../../builder.js';
import { contractArgs, parseInput } from '../../contract-input.js';
import { forecastScenarioCompare, MAX_COMPARED_SERIES } from '../../../contracts/forecasting/scenarios/forecast-scenario-compare.js';
import {
  compareForecastScenarios,
  type ScenarioComparison,
  type ScenarioPeriodTotal,
} from '../../../services/forecasting/scenarios/scenario-comparison.js';
import { ForecastScenarioStatusEnum, ForecastScenarioTypeEnum, ForecastScenarioType } from './forecast-scenario.js';
import { canReadForecasts } from '../forecast-scopes.js';
import { seriesUpTo } from '../../engine-cost.js';
import { linked } from '../../record-loaders.js';
import { readScopesOf } from '../../link-scopes.js';

const PeriodTotalRef = builder.objectRef<ScenarioPeriodTotal>('ForecastScenarioPeriodTotal').implement({
  description: "One week's total forecast under a scenario and its difference from the first scenario's.",
  fields: (t) => ({
    periodStart: t.expose('periodStart', { type: 'Date', description: 'Monday of the ISO week (YYYY-MM-DD).' }),
    forecast: t.exposeFloat('forecast', { description: 'Total forecast units of the matching series that week.' }),
    delta: t.exposeFloat('delta', { description: "forecast minus the first scenario's (0 for the first)." }),
    deltaPct: t.exposeFloat('deltaPct', { nullable: true, description: "delta as a fraction of the first scenario's forecast (0.1 = +10 %); null when that is 0." }),
  }),
});

const ComparisonRef = builder.objectRef<ScenarioComparison>('ForecastScenarioComparison').implement({
  description: 'The totals of one compared scenario, over the whole horizon and per week.',
  fields: (t) => ({
    scenarioId: t.exposeID('scenarioId', { description: 'The scenario.' }),
    scenario: t.field({ type: ForecastScenarioType, nullable: true, authScopes: readScopesOf('ForecastScenario'), description: 'The scenario (null only when it was deleted since).', resolve: (row, _args, ctx) => linked(ctx, 'forecastScenario', row.scenarioId) }),
    name: t.exposeString('name', { description: 'Its name.' }),
    type: t.field({ type: ForecastScenarioTypeEnum, description: 'Its type.', resolve: (c) => c.type }),
    status: t.field({ type: ForecastScenarioStatusEnum, description: 'Its status (an ARCHIVED scenario can be compared).', resolve: (c) => c.status }),
    forecast: t.exposeFloat('forecast', { description: 'Total forecast units over every week and matching series.' }),
    delta: t.exposeFloat('delta', { description: "forecast minus the first scenario's (0 for the first)." }),
    deltaPct: t.exposeFloat('deltaPct', { nullable: true, description: "delta as a fraction of the first scenario's forecast; null when that is 0." }),
    periods: t.field({ type: [PeriodTotalRef], description: 'One total per week, every scenario listing the same weeks.', resolve: (c) => c.periods }),
  }),
});

type Compared = Awaited<ReturnType<typeof compareForecastScenarios>>;

const ComparisonResultRef = builder.objectRef<Compared>('ForecastScenarioComparisonResult').implement({
  description: 'Scenario totals, in the order asked, and what they were computed over.',
  fields: (t) => ({
    items: t.field({ type: [ComparisonRef], description: 'One entry per scenario, in the order asked.', resolve: (r) => r.data }),
    baseScenarioId: t.exposeID('baseScenarioId', { description: 'The first scenario: the deltas are against it.' }),
    baseScenario: t.field({ type: ForecastScenarioType, nullable: true, authScopes: readScopesOf('ForecastScenario'), description: 'The first scenario (null only when it was deleted since).', resolve: (row, _args, ctx) => linked(ctx, 'forecastScenario', row.baseScenarioId) }),
    series: t.exposeInt('series', { description: 'Series (product × location × channel) added up.' }),
    horizon: t.exposeInt('horizon', { description: 'Weeks forecast per series.' }),
    from: t.expose('from', { type: 'Date', nullable: true, description: "The first forecast week (Monday) when one was asked for; null: each series from the week after its history." }),
  }),
});

builder.queryFields((t) => ({
  compareForecastScenarios: t.field({
    extensions: seriesUpTo(MAX_COMPARED_SERIES),
    type: ComparisonResultRef,
    description:
      `Total forecast per scenario and week over the matching series (at most ${MAX_COMPARED_SERIES}), with deltas against the first scenario ` +
      '(what POST /api/forecast/scenarios/compare serves). Each series is fitted once; each scenario applies its assumptions on top.',
    authScopes: canReadForecasts,
    args: contractArgs(t, forecastScenarioCompare, { types: { scenarioIds: ['ID'] } }),
    resolve: (_parent, args, ctx) => compareForecastScenarios(ctx, parseInput(forecastScenarioCompare, args)),
  }),
}));
