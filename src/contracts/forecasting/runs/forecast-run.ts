import { z } from 'zod';
import { calendarDateText } from '../../date-times.js';
import { pagingShape } from '../../paging.js';
import { text, wholeNumberOr } from '../../query-values.js';
import { DEFAULT_HORIZON, levels, MAX_HORIZON } from '../demand/forecast-query.js';

/** Runs per page of a scenario's run list. */
export const FORECAST_RUN_PAGING = { limit: 20, max: 100 };
/** Series per page of a run's stored series (read from the database, not fitted). */
export const FORECAST_RUN_SERIES_PAGING = { limit: 50, max: 500 };

/**
 * Input of generateForecast (POST /api/forecast/scenarios/{id}/generate): what GET /api/forecast takes,
 * for every matching series at once (no paging). Every field may be absent.
 */
export const forecastGenerateFields = z.strictObject({
  horizon: wholeNumberOr(DEFAULT_HORIZON, `Must be an integer from 1 to ${MAX_HORIZON}`, { min: 1, max: MAX_HORIZON }).meta({
    description: `Weeks to forecast per series (default ${DEFAULT_HORIZON}, at most ${MAX_HORIZON}).`,
  }),
  levels,
  from: text.pipe(calendarDateText.optional()).meta({
    format: 'date',
    description: "First forecast week: the ISO week (Monday) holding this day; the engine sees only the history before it. Default: the week after each series' history.",
  }),
  productMasterId: text.meta({ description: "Only this product's series (404 when it is not one of the organization's)." }),
  locationId: text.meta({ description: "Only this location's series (404 when it is not one of the organization's)." }),
  channel: text.meta({ description: 'Only this channel label.' }),
});

/** The body as REST takes it: absent (or null) means every default. */
export const forecastGenerateBody = forecastGenerateFields.nullish();

export type ForecastGenerateInput = z.input<typeof forecastGenerateFields>;
export type ForecastGenerateOptions = z.output<typeof forecastGenerateFields>;

/** Query of GET /api/forecast/scenarios/{id}/runs and arguments of forecastRuns. */
export const forecastRunListQuery = z.object({ ...pagingShape(FORECAST_RUN_PAGING) });
export type ForecastRunListQuery = z.output<typeof forecastRunListQuery>;

/** Query of GET /api/forecast/runs/{id}/series and arguments of forecastRunSeries. */
export const forecastRunSeriesQuery = z.object({
  productMasterId: text.meta({ description: "Only series of this product (404 when it is not one of the organization's)." }),
  locationId: text.meta({ description: "Only series at this location (404 when it is not one of the organization's)." }),
  channel: text.meta({ description: 'Only series of this channel label.' }),
  ...pagingShape(FORECAST_RUN_SERIES_PAGING),
});
export type ForecastRunSeriesQuery = z.output<typeof forecastRunSeriesQuery>;
