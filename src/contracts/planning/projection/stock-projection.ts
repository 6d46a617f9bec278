import { z } from 'zod';
import { mustBe } from '../../parse.js';
import { wholeNumber } from '../../query-values.js';

/** The longest horizon a projection looks ahead. */
export const MAX_HORIZON_DAYS = 365;
/** Most products one projection request covers (each brings up to 54 points). */
export const MAX_PROJECTED_PRODUCTS = 100;

const id = z.string({ error: mustBe('text') }).trim().min(1, 'Required');

/** Arguments of stockProjection. */
export const stockProjectionArgs = z.object({
  locationId: id.meta({ description: "The location projected (NOT_FOUND when it is not one of the organization's)." }),
  productMasterIds: z
    .array(id, { error: mustBe('a list of ids') })
    .max(MAX_PROJECTED_PRODUCTS, `At most ${MAX_PROJECTED_PRODUCTS}`)
    .nullish()
    .meta({
      description: `These products (with or without an inventory level at the location; NOT_FOUND when one is not the organization's). Absent: the products with an inventory level there, the first ${MAX_PROJECTED_PRODUCTS} by SKU.`,
    }),
  horizonDays: wholeNumber(`Must be a whole number from 1 to ${MAX_HORIZON_DAYS}`, { min: 1, max: MAX_HORIZON_DAYS }).meta({
    description: `Days ahead, 1 to ${MAX_HORIZON_DAYS}. Absent: per product, its lead time + review period (at most ${MAX_HORIZON_DAYS}).`,
  }),
});
