import { z } from 'zod';
import { pagingShape } from '../../paging.js';
import { text, wholeNumberOr } from '../../query-values.js';
import { DEFAULT_HORIZON, FORECAST_PAGING, levels, MAX_HORIZON } from '../demand/forecast-query.js';

export const DEFAULT_SHARE_WEEKS = 13;
export const MAX_SHARE_WEEKS = 104;

/** Query of GET /api/forecast/channel-projection and arguments of channelProjection. */
export const channelProjectionQuery = z.object({
  productMasterId: text.meta({ description: "Only this product (404 when it is not one of the organization's)." }),
  locationId: text.meta({ description: "Only this location (404 when it is not one of the organization's)." }),
  scenarioId: text.meta({
    description:
      "Apply this scenario's assumptions as GET /api/forecast does (404 when it is not one of the organization's; an ARCHIVED one still applies): its included events and category and global adjustments to the total, its channel adjustments to each channel's part, its overrides to the channels they name.",
  }),
  horizon: wholeNumberOr(DEFAULT_HORIZON, `Must be an integer from 1 to ${MAX_HORIZON}`, { min: 1, max: MAX_HORIZON }).meta({
    description: `Weeks to forecast (default ${DEFAULT_HORIZON}, at most ${MAX_HORIZON}).`,
  }),
  shareWeeks: wholeNumberOr(DEFAULT_SHARE_WEEKS, `Must be an integer from 1 to ${MAX_SHARE_WEEKS}`, { min: 1, max: MAX_SHARE_WEEKS }).meta({
    description:
      `How many of the last history weeks of each product × location define the channel shares (default ${DEFAULT_SHARE_WEEKS}, at most ${MAX_SHARE_WEEKS}).`,
  }),
  levels,
  ...pagingShape(FORECAST_PAGING),
});

export type ChannelProjectionQueryInput = z.input<typeof channelProjectionQuery>;
export type ChannelProjectionQuery = z.output<typeof channelProjectionQuery>;
