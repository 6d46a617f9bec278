import type { RequestContext } from '../../../context.js';
import { DEFAULT_LEVELS } from '../../../contracts/forecasting/demand/forecast-query.js';
import {
  type ForecastScenarioCompare,
  MAX_COMPARED_SERIES,
} from '../../../contracts/forecasting/scenarios/forecast-scenario-compare.js';
import { notFound, validationError } from '../../../kernel/errors.js';
import { applyOverrides, fitSeriesSet } from '../demand/demand-forecast.js';
import { checkForecastIds } from '../demand/fit-weekly-series.js';
import { mondayOf, readDemandSeries } from '../demand/demand-series.js';
import { readScenarioApplication, type ScenarioApplication } from './scenario-adjustments.js';
import { asForecastRequest } from '../engine/engine-admission.js';

const round = (value: number) => Math.round(value * 10_000) / 10_000;

export interface ScenarioDelta {
  forecast: number;
  /** forecast minus the first scenario's. */
  delta: number;
  /** delta as a fraction of the first scenario's forecast (0.1 = +10 %); null when that is 0. */
  deltaPct: number | null;
}

export interface ScenarioPeriodTotal extends ScenarioDelta {
  periodStart: string;
}

export interface ScenarioComparison extends ScenarioDelta {
  scenarioId: string;
  name: string;
  type: ScenarioApplication['type'];
  status: ScenarioApplication['status'];
  periods: ScenarioPeriodTotal[];
}

const deltaOf = (forecast: number, base: number): ScenarioDelta => ({
  forecast: round(forecast),
  delta: round(forecast - base),
  deltaPct: base === 0 ? null : round((forecast - base) / base),
});

/**
 * Per scenario and per week, the total forecast of every series matching the filters under that scenario's
 * assumptions, and its difference from the first scenario's. Each series is fitted once; the scenarios
 * only choose events, multiply on top and take their overrides. At most MAX_COMPARED_SERIES series.
 */
export async function compareForecastScenarios(ctx: RequestContext, input: ForecastScenarioCompare) {
  return asForecastRequest(ctx, async () => {
    await checkForecastIds(ctx, input);
    const scenarios: ScenarioApplication[] = [];
    // One at a time, in the order given, so the first unknown one is the one named.
    for (const id of input.scenarioIds) {
      scenarios.push(await readScenarioApplication(ctx, id).catch((error) => {
        throw error?.code === 'NOT_FOUND' ? notFound(`Scenario ${id}`) : error;
      }));
    }
    const fromWeek = input.from ? mondayOf(input.from) : undefined;
    const { total, series } = await readDemandSeries(
      ctx,
      { productMasterId: input.productMasterId, locationId: input.locationId, channel: input.channel, before: fromWeek },
      { skip: 0, take: MAX_COMPARED_SERIES, noHistoryAbove: MAX_COMPARED_SERIES },
    );
    if (total > MAX_COMPARED_SERIES) {
      throw validationError(
        { series: [`${total} series match; at most ${MAX_COMPARED_SERIES} can be compared at once: narrow with productMasterId, locationId or channel`] },
        'Too many series to compare',
      );
    }
    const { answerAll } = await fitSeriesSet(ctx, series, { fromWeek, horizon: input.horizon, levels: DEFAULT_LEVELS });

    // Each scenario as GET /api/forecast?scenarioId= answers it: its events and adjustments, then the planners' overrides (its own before the base ones).
    const totals = await Promise.all(
      scenarios.map(async (scenario) => {
        const forecasts = await answerAll(scenario);
        await applyOverrides(ctx, forecasts, scenario.id);
        const byWeek = new Map<string, number>();
        for (const forecast of forecasts) {
          for (const point of forecast.points) byWeek.set(point.periodStart, (byWeek.get(point.periodStart) ?? 0) + point.forecast);
        }
        return byWeek;
      }),
    );
    const weeks = [...new Set(totals.flatMap((byWeek) => [...byWeek.keys()]))].sort();
    const sum = (byWeek: Map<string, number>) => [...byWeek.values()].reduce((a, b) => a + b, 0);
    const base = totals[0]!;
    const data: ScenarioComparison[] = scenarios.map((scenario, i) => ({
      scenarioId: scenario.id,
      name: scenario.name,
      type: scenario.type,
      status: scenario.status,
      ...deltaOf(sum(totals[i]!), sum(base)),
      periods: weeks.map((week) => ({ periodStart: week, ...deltaOf(totals[i]!.get(week) ?? 0, base.get(week) ?? 0) })),
    }));
    return { data, baseScenarioId: scenarios[0]!.id, series: series.length, horizon: input.horizon, from: fromWeek ?? null };
  });
}
