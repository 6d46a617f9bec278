import { z } from 'zod';
import { mustBe } from '../../parse.js';
import { text } from '../../query-values.js';

export const REPLENISHMENT_METHODS = ['MIN_MAX', 'FORECAST_COVER'] as const;
export const MAX_REVIEW_PERIOD_DAYS = 365;
export const MAX_SAFETY_STOCK_DAYS = 365;

/** An id in a replenishment body. */
export const id = z.string({ error: mustBe('text') }).trim().min(1, 'Required').max(200, 'At most 200 characters');
/** A whole number of days within bounds, in a replenishment body. */
export const days = (min: number, max: number) =>
  z
    .number({ error: mustBe('a whole number') })
    .int('Must be a whole number')
    .min(min, `Must be from ${min} to ${max}`)
    .max(max, `Must be from ${min} to ${max}`);

/** Query of GET /api/inventory/replenishment/config and argument of replenishmentConfig. */
export const replenishmentConfigQuery = z.object({
  locationId: text
    .pipe(z.string({ error: 'Required' }).trim().min(1, 'Required').max(200, 'At most 200 characters'))
    .meta({ description: 'The location whose configuration to read (required; 404 when it is not one of the organization).' }),
});

/**
 * Body of POST /api/inventory/replenishment/config and input of updateReplenishmentConfig: the fields to set
 * (absent ones keep their value, or the default when nothing was stored); at most one default source.
 */
export const replenishmentConfigUpdate = z
  .strictObject({
    locationId: id.meta({ description: 'The location configured (404 when it is not one of the organization).' }),
    method: z
      .enum(REPLENISHMENT_METHODS, { error: `One of ${REPLENISHMENT_METHODS.join(', ')}` })
      .optional()
      .meta({ description: 'MIN_MAX (order up to the level maximum when below the reorder point) or FORECAST_COVER (cover forecast demand over the review period).' }),
    reviewPeriodDays: days(1, MAX_REVIEW_PERIOD_DAYS).optional().meta({ description: `Days between reviews, 1 to ${MAX_REVIEW_PERIOD_DAYS}.` }),
    safetyStockDays: days(0, MAX_SAFETY_STOCK_DAYS).optional().meta({ description: `Days of demand kept as safety stock, 0 to ${MAX_SAFETY_STOCK_DAYS}.` }),
    defaultSourceLocationId: id
      .nullish()
      .meta({ description: 'The location this one is replenished from by default (404 when not one of the organization; not the location itself); setting it clears defaultSupplierId; null clears it.' }),
    defaultSupplierId: id
      .nullish()
      .meta({ description: 'The supplier this location orders from by default (404 when not one of the organization); setting it clears defaultSourceLocationId; null clears it.' }),
  })
  .superRefine((value, ctx) => {
    if (value.defaultSourceLocationId && value.defaultSupplierId) {
      ctx.addIssue({ code: 'custom', path: ['defaultSupplierId'], message: 'Give defaultSourceLocationId or defaultSupplierId, not both' });
    }
    if (value.defaultSourceLocationId && value.defaultSourceLocationId === value.locationId) {
      ctx.addIssue({ code: 'custom', path: ['defaultSourceLocationId'], message: 'Must differ from locationId' });
    }
  });
