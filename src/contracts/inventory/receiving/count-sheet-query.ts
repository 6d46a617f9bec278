import { z } from 'zod';
import { text, wholeNumber } from '../../query-values.js';

/** Query of GET /api/inventory/adjustments/record-stock and arguments of countSheet. */
export const countSheetQuery = z.object({
  locationId: text.meta({ description: 'The location to count (required: without it, 400 "locationId is required").' }),
  productMasterId: text.meta({ description: 'Only lines of this product.' }),
  limit: wholeNumber('Must be a whole number from 1 to 1000', { min: 1, max: 1000 }).meta({ description: 'Page size (default 500).' }),
  offset: wholeNumber('Must be a whole number, 0 or more', { min: 0 }).meta({ description: 'Lines to skip (default 0).' }),
});
