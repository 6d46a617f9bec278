import { z } from 'zod';
import { pagingShape } from '../../paging.js';
import { text } from '../../query-values.js';

/**
 * GET /api/inventory documents two limits: default 20 max 100 and default 50 max 200. The default
 * follows the first (page-based) variant and the maximum the second, so no documented request is refused.
 */
export const STOCK_LINE_PAGE = { limit: 20, max: 200 } as const;

/** The filters the stock line list and availability share. */
export const stockLineFilters = {
  locationId: text.meta({ description: 'Only lines at this location (404 when it is not one of the organization\'s).' }),
  productMasterId: text.meta({ description: 'Only lines of this product (404 when it is not one of the organization\'s).' }),
  lotId: text.meta({ description: 'Only lines in this lot (404 when it is not one of the organization\'s).' }),
  binId: text.meta({ description: 'Only lines in this bin (404 when it is not one of the organization\'s).' }),
};

/** Query of GET /api/inventory (the stock lines page). */
export const stockLineListQuery = z.object({
  ...stockLineFilters,
  q: text.meta({ description: 'Case-insensitive match on the product SKU or name.' }),
  ...pagingShape(STOCK_LINE_PAGE),
});
