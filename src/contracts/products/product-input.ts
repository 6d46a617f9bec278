import { z } from 'zod';
import { DECIMAL_RANGE_MESSAGE, MAX_DECIMAL } from '../../kernel/input-limits.js';
import { mustBe } from '../parse.js';
import { MAX_SKU_LENGTH, normalizeSku, SKU_INVISIBLE_MESSAGE, skuHasInvisible } from './sku-rules.js';

const SKU_RULE = `Stock keeping unit: 1 to ${MAX_SKU_LENGTH} characters once trimmed. Unique within the organization whatever its case; stored trimmed in Unicode NFC; control and invisible characters (zero-width space, BOM, soft hyphen) are refused.`;

export const sku = z
  .string({ error: mustBe('text') })
  .transform(normalizeSku)
  .pipe(z.string().min(1, 'Required').max(MAX_SKU_LENGTH, `At most ${MAX_SKU_LENGTH} characters`).refine((text) => !skuHasInvisible(text), SKU_INVISIBLE_MESSAGE))
  .meta({ description: SKU_RULE });
const name = z.string({ error: mustBe('text') }).trim().min(1, 'Required').max(300, 'At most 300 characters').meta({ description: 'Product name, up to 300 characters.' });
const description = z.string({ error: mustBe('text') }).max(5000, 'At most 5000 characters').nullish().meta({ description: 'Free text description, up to 5000 characters.' });
const unitCost = z
  .number({ error: mustBe('a number') })
  .min(0, 'Must be 0 or more')
  .max(MAX_DECIMAL, DECIMAL_RANGE_MESSAGE)
  .nullish()
  .meta({ description: 'Cost of one unit, used to value stock (stored with 4 decimals).' });
const minShelfLifeDays = z
  .number({ error: mustBe('a whole number') })
  .int('Must be a whole number')
  .min(0, 'Must be 0 or more')
  .max(36_500, 'At most 36500')
  .nullish()
  .meta({ description: "Lot control: a lot with fewer days of shelf life left is not picked (refused as SHORT_DATED). Null takes the organization's minimum." });
const categoryId = z.string({ error: mustBe('text') }).min(1, 'Required').nullish().meta({ description: 'A category of the organization (400 otherwise).' });

/** Body of POST /api/products and input of createProduct. */
export const productCreate = z.strictObject({ sku, name, description, unitCost, categoryId, minShelfLifeDays }).meta({ description: 'A new product.' });

/** Body of PATCH /api/products/{id} and input of updateProduct. */
export const productUpdate = z
  .strictObject({ sku: sku.optional(), name: name.optional(), description, unitCost, categoryId, minShelfLifeDays })
  .meta({ description: 'Absent fields stay as they are; null clears description, unitCost, categoryId or minShelfLifeDays.' });
