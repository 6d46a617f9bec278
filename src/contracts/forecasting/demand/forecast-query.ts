import { z } from 'zod';
import { calendarDateText } from '../../date-times.js';
import { pagingShape } from '../../paging.js';
import { text, wholeNumberOr } from '../../query-values.js';

export const DEFAULT_HORIZON = 13;
export const MAX_HORIZON = 104;
export const DEFAULT_LEVELS = [80, 95];
export const MAX_LEVELS = 4;
/** Series per page: each one is fitted by the engine, so pages are smaller than a plain list's. */
export const FORECAST_PAGING = { limit: 20, max: 100 };

const LEVEL_MESSAGE = 'Must be a comma-separated list of percentages above 0 and below 100, for example 80,95';

/** `80,95` from a query string, or [80, 95] from GraphQL; absent or empty gives the defaults. */
export const levels = z
  .preprocess(
    (raw) => {
      const value = Array.isArray(raw) && raw.length === 1 && typeof raw[0] === 'string' ? raw[0] : raw;
      if (value === undefined || value === null || value === '') return undefined;
      if (typeof value !== 'string') return value;
      return value.split(',').map((part) => (/^\s*\d+(\.\d+)?\s*$/.test(part) ? Number(part) : part));
    },
    // One message for the list, not one per element: the caller sent one value.
    z
      .array(z.unknown(), { error: LEVEL_MESSAGE })
      .min(1, LEVEL_MESSAGE)
      .max(MAX_LEVELS, `At most ${MAX_LEVELS} levels`)
      .refine((list) => list.every((l) => typeof l === 'number' && l > 0 && l < 100), { message: LEVEL_MESSAGE, abort: true })
      .refine((list) => new Set(list).size === list.length, 'Each level at most once')
      .transform((list) => list as number[])
      .default(DEFAULT_LEVELS),
  )
  .meta({ type: 'string', default: DEFAULT_LEVELS.join(','), examples: ['80,95'], description: `Interval levels in percent, above 0 and below 100 (default ${DEFAULT_LEVELS.join(',')}; at most ${MAX_LEVELS}), comma-separated in a query string. lower/upper are the first one.` });

/** Query of GET /api/forecast and arguments of demandForecast. */
export const forecastQuery = z.object({
  productMasterId: text.meta({ description: 'Only this product (404 when it is not one of the organization\'s).' }),
  locationId: text.meta({ description: 'Only this location (404 when it is not one of the organization\'s).' }),
  channel: text.meta({ description: 'Only this channel label (exact match; ALL when the import gave none).' }),
  scenarioId: text.meta({
    description:
      "Apply this scenario's assumptions (404 when it is not one of the organization's; an ARCHIVED one still applies): only its included events, then its category, channel and global adjustments.",
  }),
  horizon: wholeNumberOr(DEFAULT_HORIZON, `Must be an integer from 1 to ${MAX_HORIZON}`, { min: 1, max: MAX_HORIZON }).meta({
    description: `Weeks to forecast (default ${DEFAULT_HORIZON}, at most ${MAX_HORIZON}).`,
  }),
  levels,
  from: text.pipe(calendarDateText.optional()).meta({
    format: 'date',
    description:
      'First forecast week: the ISO week (Monday) holding this day. Default: the week after the last history week of each series. ' +
      'Inside the history, the engine sees only the weeks before it.',
  }),
  ...pagingShape(FORECAST_PAGING),
});

export type ForecastQuery = z.output<typeof forecastQuery>;
export type ForecastQueryInput = z.input<typeof forecastQuery>;
