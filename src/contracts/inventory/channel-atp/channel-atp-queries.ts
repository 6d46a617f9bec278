import { z } from 'zod';
import { pagingShape } from '../../paging.js';
import { text } from '../../query-values.js';

export const CHANNEL_ATP_PAGE = { limit: 50, max: 200 } as const;

const REQUIRED_LOCATION = 'The location (required: without it, 400 {"error": "locationId is required"}).';

/** `channels=a,b` or `channels=a&channels=b` (or a GraphQL list): the ids, none empty. */
const idList = z.preprocess((raw) => {
  if (raw === undefined || raw === null) return undefined;
  const ids = (Array.isArray(raw) ? raw : [raw]).flatMap((value) => (typeof value === 'string' ? value.split(',') : [value])).map((id) => (typeof id === 'string' ? id.trim() : id));
  const kept = ids.filter((id) => id !== '');
  return kept.length ? kept : undefined;
}, z.array(z.string({ error: 'Must be an id' })).optional());

/** Query of GET /api/inventory/channel-location and arguments of channelLocationAtp. */
export const channelLocationQuery = z.object({
  locationId: text.meta({ description: REQUIRED_LOCATION }),
  search: text.meta({ description: 'Case-insensitive match on product name or SKU.' }),
  channels: idList.meta({ description: 'Comma-separated channel ids to show (default all; an unknown id is 404).' }),
  channelId: text.meta({ description: 'One channel to show (variant parameter; adds to channels).' }),
  sku: text.meta({ description: 'Only the product with this SKU, case-insensitive (variant parameter).' }),
  ...pagingShape(CHANNEL_ATP_PAGE),
});

/** Query of GET /api/inventory/channel-location/drilldown. */
export const channelDrilldownQuery = z.object({
  locationId: text.meta({ description: REQUIRED_LOCATION }),
  productMasterId: text.meta({ description: 'The product (required).' }),
  channelId: text.meta({ description: 'Only this channel.' }),
});

/** Query of GET /api/inventory/channel/summary. */
export const channelSummaryQuery = z.object({ locationId: text.meta({ description: 'Only this location (unknown id: 404).' }) });
