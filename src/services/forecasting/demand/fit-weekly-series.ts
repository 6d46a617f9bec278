import type { RequestContext } from '../../../context.js';
import { checkFilterIds } from '../../filter-ids.js';
import { orgId } from '../../tenant.js';
import { forecastSeries } from '../engine/forecast-series.js';
import type { ForecastProfile, SeriesForecast, WeeklySeries } from '../engine/types.js';

/** 404 when a scenario, product or location filter is not one of the organization's, as a path id would be. */
export const checkForecastIds = (ctx: RequestContext, ids: { scenarioId?: string | null; productMasterId?: string | null; locationId?: string | null }) =>
  checkFilterIds(ctx, ids);

/**
 * Runs of at least this many series are fitted with the engine's GENERATION profile (about 100 times
 * cheaper, Walmart MASE 0.525 against 0.511); smaller runs with the default one, so that they store
 * exactly what GET /api/forecast answers for the same series.
 */
export const GENERATION_PROFILE_MIN_SERIES = 1000;

/** The engine profile of a stored run of this many series. */
export function runProfile(totalSeries: number): ForecastProfile {
  return totalSeries >= GENERATION_PROFILE_MIN_SERIES ? 'GENERATION' : 'DEFAULT';
}

/**
 * Fits every series on the worker pool (or on this thread when the app has none); one batch per engine
 * horizon. Results by series key. profile: the engine's (GENERATION for stored runs of many series).
 */
export async function fitWeeklySeries(ctx: RequestContext, batches: Map<number, WeeklySeries[]>, levels: number[], profile: ForecastProfile = 'DEFAULT') {
  const results = new Map<string, SeriesForecast>();
  await Promise.all(
    [...batches].map(async ([horizon, series]) => {
      const options = { horizon, levels, profile };
      const pool = ctx.app.forecastPool;
      // Organizations take turns on the pool's threads.
      const fitted = pool ? await pool.forecastBatch(series, options, orgId(ctx)) : series.map((s) => forecastSeries(s, options));
      for (const result of fitted) results.set(result.key!, result);
    }),
  );
  return results;
}
