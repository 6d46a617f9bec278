import { MAX_DECIMAL } from '../../kernel/input-limits.js';
import { MAX_SKU_LENGTH, normalizeSku, SKU_INVISIBLE_MESSAGE, skuHasInvisible } from '../products/sku-rules.js';
import { optionalNumber, optionalText, requiredText, rowObject } from './row-values.js';

/**
 * A CATALOG row: upserts a product by SKU (= externalId). A new product's name defaults to externalId; on
 * an existing product, absent fields keep their values.
 */
export const catalogRow = rowObject({
  externalId: requiredText(MAX_SKU_LENGTH, (text) => text.transform(normalizeSku).refine((sku) => !skuHasInvisible(sku), SKU_INVISIBLE_MESSAGE)).meta({
    maxLength: MAX_SKU_LENGTH,
    description:
      "The product's unique identifier within the organization; stored as its SKU (trimmed, Unicode NFC, no control or invisible characters). A row spelling an existing SKU in another case is rejected; rows differing only by case are one SKU, the last wins.",
  }),
  name: optionalText(300).meta({ description: 'Product name; a new product without one is named after its externalId.' }),
  description: optionalText(5000).meta({ description: 'Free text description.' }),
  // The column holds 14 digits, 4 after the point: a larger cost would fail the whole chunk.
  unitCost: optionalNumber({ min: 0, max: MAX_DECIMAL }).meta({ description: 'Cost of one unit (0 or more), used to value stock.' }),
  category: optionalText(200).meta({ description: 'Category name; created when the organization has no category of that name.' }),
});
