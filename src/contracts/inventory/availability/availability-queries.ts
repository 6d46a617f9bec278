import { z } from 'zod';
import { flag, text } from '../../query-values.js';
import { stockLineFilters } from '../stock-lines/stock-line-queries.js';

const includeFlags = {
  includeExpired: flag.meta({ description: 'Count lines of lots that expired before today, and expired units (default false).' }),
  includeRecalled: flag.meta({ description: 'Count lines of recalled lots, and recalled units (default false).' }),
  includeOnHold: flag.meta({ description: 'Count on-hold units as available (default false).' }),
};

/** Query of GET /api/inventory/availability. */
export const availabilityQuery = z.object({
  ...stockLineFilters,
  productId: text.meta({ description: 'Deprecated alias of productMasterId.', deprecated: true }),
  ...includeFlags,
  summary: flag.meta({ description: 'Return the aggregate instead of the stock lines (default false).' }),
  includeStockLines: flag.meta({ description: 'With summary=true, include the lines (default false).' }),
});

/** Query of GET /api/inventory/availability/{id}. */
export const availabilityLineQuery = z.object(includeFlags);
