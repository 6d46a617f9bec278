import type { GraphQLField } from 'graphql';
import { ENGINE_MAX_SERIES } from '../contracts/forecasting/accuracy/forecast-accuracy-query.js';
import { FORECAST_PAGING } from '../contracts/forecasting/demand/forecast-query.js';

/**
 * GraphQL's cost limit (server/graphql-limits.ts) counts a field's result size; a field that fits forecasts
 * also costs the engine work it may start, SERIES_FIT_COST per series, so that aliased copies of it add up
 * to what they cost the server, plus FIELD_COST for the reads every such field makes. A page of 100 series
 * costs 7,000 of the 20,000 default budget: two pages of the largest size fit in one operation, ten fields of
 * any size do not.
 */
export const SERIES_FIT_COST = 50;
/**
 * What every forecasting field costs besides its series: it reads the series' history, the events of its
 * window and what learning needs, a handful of statements whatever its page (on PGlite they run on the
 * request thread, so thirty of them in one request held it for 2 s).
 */
export const FIELD_COST = 2_000;
/** Learning event lifts (bounded by learned-lifts/event-occurrences.ts MAX_LEARNING_EVENTS): as much as fitting this many series. */
export const LEARNING_COST = 50 * SERIES_FIT_COST;

type Args = Record<string, unknown>;

/** The field extension graphql-limits.ts reads: the engine cost of one call with these arguments. */
export const engineCost = (cost: (args: Args) => number) => ({ engineCost: (args: Args) => FIELD_COST + cost(args) });

/** The engine cost of a field called with these arguments (0 for a field that starts no engine work). */
export function engineCostOf(field: GraphQLField<unknown, unknown>, args: Args): number {
  const cost = (field.extensions as { engineCost?: (args: Args) => number } | undefined)?.engineCost;
  return cost ? cost(args) : 0;
}

/** A paged forecasting field fits its page: `first`, `last` or `limit` series (default and cap of FORECAST_PAGING). */
export const pageOfSeries = engineCost((args) => {
  const size = [args.first, args.last, args.limit].find((value): value is number => typeof value === 'number') ?? FORECAST_PAGING.limit;
  return SERIES_FIT_COST * Math.min(FORECAST_PAGING.max, Math.max(1, size));
});

/**
 * The ENGINE accuracy replays up to ENGINE_MAX_SERIES series whatever its page; IMPORTED and STORED are SQL.
 * `last` without `before` counts the rows first (window-connection.ts), which replays them twice.
 */
export const accuracyReplay = {
  engineCost: (args: Args) => (args.source === 'ENGINE' ? (FIELD_COST + SERIES_FIT_COST * ENGINE_MAX_SERIES) * (args.last != null && args.before == null ? 2 : 1) : 0),
};

/** A fixed number of series at most (the scenario comparison's MAX_COMPARED_SERIES). */
export const seriesUpTo = (series: number) => engineCost(() => SERIES_FIT_COST * series);

export const learning = engineCost(() => LEARNING_COST);
