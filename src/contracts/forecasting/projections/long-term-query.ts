import { z } from 'zod';
import { pagingShape } from '../../paging.js';
import { text, wholeNumberOr } from '../../query-values.js';
import { FORECAST_PAGING, levels } from '../demand/forecast-query.js';

export const MIN_MONTHS = 12;
export const MAX_MONTHS = 24;

/** Query of GET /api/forecast/long-term and arguments of longTermForecast. */
export const longTermQuery = z.object({
  productMasterId: text.meta({ description: "Only this product (404 when it is not one of the organization's)." }),
  locationId: text.meta({ description: "Only this location (404 when it is not one of the organization's)." }),
  channel: text.meta({ description: 'Only this channel label (exact match; ALL when the import gave none).' }),
  scenarioId: text.meta({
    description:
      "Apply this scenario's included events (each month by the share of its days an event covers) and its category, channel and global adjustments, as GET /api/forecast does (404 when it is not one of the organization's; an ARCHIVED one still applies). Without it, every event applies.",
  }),
  months: wholeNumberOr(MIN_MONTHS, `Must be an integer from ${MIN_MONTHS} to ${MAX_MONTHS}`, { min: MIN_MONTHS, max: MAX_MONTHS }).meta({
    description: `Calendar months to forecast after the last history month (default ${MIN_MONTHS}, ${MIN_MONTHS} to ${MAX_MONTHS}).`,
  }),
  levels,
  ...pagingShape(FORECAST_PAGING),
});

export type LongTermQueryInput = z.input<typeof longTermQuery>;
export type LongTermQuery = z.output<typeof longTermQuery>;
