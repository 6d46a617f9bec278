import { z } from 'zod';
import { text, wholeNumberOr } from '../query-values.js';

export const PRODUCT_SEARCH_DEFAULT_LIMIT = 20;
export const PRODUCT_SEARCH_MAX_LIMIT = 100;
export const STOCKLIST_DEFAULT_LIMIT = 100;
export const STOCKLIST_MAX_LIMIT = 200;

const locationId = (description: string) => text.pipe(z.string({ error: 'Required' }).trim().min(1, 'Required').max(200, 'At most 200 characters')).meta({ description });
const optionalLocationId = (description: string) => text.pipe(z.string().trim().min(1).max(200, 'At most 200 characters').optional()).meta({ description });
const limit = (fallback: number, max: number, what: string) =>
  wholeNumberOr(fallback, `Must be a whole number from 1 to ${max}`, { min: 1, max }).meta({ description: `${what} per page (default ${fallback}, at most ${max}).` });
const offset = (what: string) => wholeNumberOr(0, 'Must be a whole number of at least 0', { min: 0 }).meta({ description: `${what} to skip (default 0).` });

/** Query of GET /api/stock-requests/products/search and arguments of stockRequestProductSearch. */
export const stockRequestProductSearchQuery = z.object({
  requestingLocationId: locationId("The location that would ask (404 when it is not one of the organization's): its stock is answered too."),
  supplyingLocationId: locationId("The location that would be asked (404 when it is not one of the organization's): its stock is answered."),
  search: text.pipe(z.string().trim().max(200, 'At most 200 characters').optional()).meta({
    description: 'Only products whose SKU or name contains this text (any case); up to 200 characters. Absent: every product, by SKU.',
  }),
  limit: limit(PRODUCT_SEARCH_DEFAULT_LIMIT, PRODUCT_SEARCH_MAX_LIMIT, 'Products'),
  offset: offset('Products'),
});

/** Query of GET /api/stock-requests/products/stocklist and arguments of stockRequestStocklist. */
export const stockRequestStocklistQuery = z.object({
  requestingLocationId: locationId("The location whose usual list it is: the products with an inventory level there (404 when it is not one of the organization's)."),
  supplyingLocationId: optionalLocationId("Also the stock at this location, the one to be asked (404 when it is not one of the organization's). Absent: those numbers are null."),
  limit: limit(STOCKLIST_DEFAULT_LIMIT, STOCKLIST_MAX_LIMIT, 'Products'),
  offset: offset('Products'),
});
