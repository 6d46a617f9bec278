import type { RequestContext } from '../../../context.js';
import {
  ACCURACY_PAGING,
  type AccuracyGroup,
  ENGINE_MAX_SERIES,
  type ForecastAccuracyQuery,
} from '../../../contracts/forecasting/accuracy/forecast-accuracy-query.js';
import { validationError } from '../../../kernel/errors.js';
import { weekAfter } from '../engine/forecast-series.js';
import { forecastDemand } from '../demand/demand-forecast.js';
import { mondayOf, readDemandSeries } from '../demand/demand-series.js';
import { type ListWindow, orgId, pageWindow } from '../../tenant.js';
import { DEFAULT_LEVELS } from '../../../contracts/forecasting/demand/forecast-query.js';
import { aggregatePoints, type MeasuredPoint } from './accuracy-metrics.js';
import { type AccuracyFilter, importedAccuracy, seriesKey, seriesScales } from './accuracy-sql.js';
import { checkForecastIds } from '../demand/fit-weekly-series.js';
import { storedAccuracy } from './stored-accuracy.js';
import { asForecastRequest } from '../engine/engine-admission.js';

/**
 * Forecast accuracy against the actuals of the demand history, one row per group: MASE, WAPE, bias and
 * MAPE (docs/forecasting.md, "Forecast accuracy", has the formulas). IMPORTED measures the history's own forecastUnits,
 * aggregated in SQL; ENGINE replays GET /api/forecast from `from` (at most ENGINE_MAX_SERIES series) and
 * measures its forecasts against the weeks recorded after it: with events and base overrides
 * (includeAdjustments, default) or the statistical forecast alone; STORED measures a stored run's points, in SQL.
 * `input` is the query as its contract outputs it (parsed once, where it comes in).
 */
export async function forecastAccuracy(ctx: RequestContext, input: ForecastAccuracyQuery, window?: ListWindow) {
  const source = input.source ?? 'IMPORTED';
  const groupBy: AccuracyGroup = input.groupBy ?? 'product';
  const includeAdjustments = input.includeAdjustments ?? true;
  await checkForecastIds(ctx, input);
  const { page, limit, skip, take } = pageWindow(input.page, input.limit, ACCURACY_PAGING, window);
  const from = input.from ? mondayOf(input.from) : null;
  const to = input.to ? mondayOf(input.to) : null;
  const filter: AccuracyFilter = { productMasterId: input.productMasterId, locationId: input.locationId, channel: input.channel };

  const { data, total, runId } =
    source === 'IMPORTED'
      ? await importedAccuracy(ctx, { ...filter, from, to, groupBy: groupBy as Exclude<AccuracyGroup, 'method'> }, { skip, take })
      : source === 'STORED'
        ? await storedAccuracy(ctx, { ...filter, runId: input.runId, scenarioId: input.scenarioId, from, to, groupBy }, { skip, take })
        : await engineAccuracy(ctx, filter, { from: from!, to, horizon: input.horizon, groupBy, includeAdjustments }, { skip, take });
  const engine = source === 'ENGINE';
  return {
    data,
    page,
    limit,
    total,
    totalPages: Math.ceil(total / limit),
    source,
    groupBy,
    from,
    to,
    horizon: engine ? input.horizon : null,
    includeAdjustments: engine ? includeAdjustments : null,
    runId: runId ?? null,
  };
}

async function engineAccuracy(
  ctx: RequestContext,
  filter: AccuracyFilter,
  query: { from: string; to: string | null; horizon: number; groupBy: AccuracyGroup; includeAdjustments: boolean },
  page: { skip: number; take: number },
) {
  return asForecastRequest(ctx, async () => {
    // Counted before anything is fitted: the keys only, no history.
    const { total: seriesCount } = await readDemandSeries(ctx, { ...filter, before: query.from }, { skip: 0, take: 0 });
    if (seriesCount > ENGINE_MAX_SERIES) {
      throw validationError({
        source: [`ENGINE replays at most ${ENGINE_MAX_SERIES} series per request and ${seriesCount} match: narrow with productMasterId, locationId or channel`],
      });
    }
    const lastForecastWeek = weekAfter(query.from, query.horizon - 1);
    const last = query.to && query.to < lastForecastWeek ? query.to : lastForecastWeek;
    const [forecast, actuals, scales] = await Promise.all([
      seriesCount
        ? forecastDemand(ctx, { ...filter, from: query.from, horizon: query.horizon, levels: [...DEFAULT_LEVELS], page: 1, limit: ENGINE_MAX_SERIES }, { adjustments: query.includeAdjustments })
        : Promise.resolve({ data: [] }),
      ctx.prisma.demandHistory.findMany({
        where: {
          organizationId: orgId(ctx),
          ...filter,
          weekStart: { gte: new Date(`${query.from}T00:00:00Z`), lte: new Date(`${last}T00:00:00Z`) },
        },
        select: { productMasterId: true, locationId: true, channel: true, weekStart: true, actualUnits: true },
      }),
      seriesScales(ctx, filter, query.from),
    ]);
    const actualOf = new Map(actuals.map((r) => [`${seriesKey(r.productMasterId, r.locationId, r.channel)}\u0000${r.weekStart.toISOString().slice(0, 10)}`, r.actualUnits]));
    // Only the weeks with a record are measured, as for IMPORTED.
    const points = forecast.data.flatMap((series) => {
      const key = seriesKey(series.productMasterId, series.locationId, series.channel);
      return series.points.flatMap((point): MeasuredPoint[] => {
        const actual = actualOf.get(`${key}\u0000${point.periodStart}`);
        if (actual === undefined) return [];
        const { productMasterId, locationId, channel, method } = series;
        return [{ productMasterId, locationId, channel, method, actual, forecast: point.forecast, scale: scales.get(key) ?? null }];
      });
    });
    const rows = aggregatePoints(points, query.groupBy);
    return { data: rows.slice(page.skip, page.skip + page.take), total: rows.length, runId: undefined };
  });
}
