import { z } from 'zod';
import { days, id, MAX_REVIEW_PERIOD_DAYS, MAX_SAFETY_STOCK_DAYS, REPLENISHMENT_METHODS } from './replenishment-config.js';

/** Products one suggestions request may name (without a list: every product with a level at the location). */
export const MAX_SUGGESTION_PRODUCTS = 1000;

/**
 * Body of POST /api/inventory/replenishment/suggestions and input of replenishmentSuggestions: the location, and
 * optionally the products and settings that override the location's replenishment configuration for this run.
 */
export const replenishmentSuggestionsInput = z
  .strictObject({
    locationId: id.meta({ description: 'The location to replenish (404 when it is not one of the organization).' }),
    productMasterIds: z
      .array(id)
      .min(1, 'At least one product')
      .max(MAX_SUGGESTION_PRODUCTS, `At most ${MAX_SUGGESTION_PRODUCTS} products`)
      .nullish()
      .meta({ description: `Only these products (1 to ${MAX_SUGGESTION_PRODUCTS}; 404 when one is not the organization's). Absent: every product with an inventory level at the location.` }),
    method: z
      .enum(REPLENISHMENT_METHODS, { error: `One of ${REPLENISHMENT_METHODS.join(', ')}` })
      .nullish()
      .meta({ description: "Overrides the configuration's method for this run: MIN_MAX (below the reorder point, up to the maximum) or FORECAST_COVER (below the safety stock, up to the review period's demand + safety stock)." }),
    reviewPeriodDays: days(1, MAX_REVIEW_PERIOD_DAYS)
      .nullish()
      .meta({ description: `Overrides the review period for this run, 1 to ${MAX_REVIEW_PERIOD_DAYS} days (else the stored configuration's, else each level's replenishment period).` }),
    safetyStockDays: days(0, MAX_SAFETY_STOCK_DAYS).nullish().meta({ description: `Overrides the safety stock for this run, 0 to ${MAX_SAFETY_STOCK_DAYS} days of demand.` }),
    supplierId: id.nullish().meta({ description: "Order from this supplier for this run (404 when it is not the organization's); not together with sourceLocationId." }),
    sourceLocationId: id.nullish().meta({ description: "Move from this location for this run (404 when it is not the organization's; not the location itself); not together with supplierId." }),
  })
  .superRefine((input, issue) => {
    if (input.supplierId && input.sourceLocationId) issue.addIssue({ code: 'custom', path: ['sourceLocationId'], message: 'Give supplierId or sourceLocationId, not both' });
    if (input.sourceLocationId && input.sourceLocationId === input.locationId) issue.addIssue({ code: 'custom', path: ['sourceLocationId'], message: 'Must not be the location replenished' });
  });
