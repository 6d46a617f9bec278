import { z } from 'zod';
import { pagingShape } from '../../paging.js';
import { flag, text } from '../../query-values.js';

/**
 * GET /api/inventory documents two limits: default 20 max 100 and default 50 max 200. The default
 * follows the first (page-based) variant and the maximum the second, so no documented request is refused.
 */
export const STOCK_LINE_PAGE = { limit: 20, max: 200 } as const;

const filters = {
  locationId: text.meta({ description: 'Only lines at this location (404 when it is not one of the organization\'s).' }),
  productMasterId: text.meta({ description: 'Only lines of this product (404 when it is not one of the organization\'s).' }),
  lotId: text.meta({ description: 'Only lines in this lot (404 when it is not one of the organization\'s).' }),
  binId: text.meta({ description: 'Only lines in this bin (404 when it is not one of the organization\'s).' }),
};

const includeFlags = {
  includeExpired: flag.meta({ description: 'Count lines of lots that expired before today, and expired units (default false).' }),
  includeRecalled: flag.meta({ description: 'Count lines of recalled lots, and recalled units (default false).' }),
  includeOnHold: flag.meta({ description: 'Count on-hold units as available (default false).' }),
};

/** Query of GET /api/inventory (the stock lines page). */
export const stockLineListQuery = z.object({
  ...filters,
  q: text.meta({ description: 'Case-insensitive match on the product SKU or name.' }),
  ...pagingShape(STOCK_LINE_PAGE),
});

/** Query of GET /api/inventory/availability. */
export const availabilityQuery = z.object({
  ...filters,
  productId: text.meta({ description: 'Deprecated alias of productMasterId.', deprecated: true }),
  ...includeFlags,
  summary: flag.meta({ description: 'Return the aggregate instead of the stock lines (default false).' }),
  includeStockLines: flag.meta({ description: 'With summary=true, include the lines (default false).' }),
});

/** Query of GET /api/inventory/availability/{id}. */
export const availabilityLineQuery = z.object(includeFlags);
