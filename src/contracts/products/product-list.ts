import { z } from 'zod';
import { pagingShape } from '../paging.js';
import { text } from '../query-values.js';

/** Query of GET /api/products and arguments of productsPage. */
export const productListQuery = z.object({
  ...pagingShape({ limit: 50, max: 100 }),
  search: text.meta({ description: 'Case-insensitive match on SKU or name.' }),
  sku: text.meta({ description: 'Only the product with exactly this SKU, without regard to case (at most one; a lookup by index, however large the catalog). With search, both apply.' }),
});
