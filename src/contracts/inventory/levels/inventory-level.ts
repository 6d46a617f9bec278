import { z } from 'zod';
import { MAX_INT, MAX_PLANNING_DAYS } from '../../../kernel/input-limits.js';
import { MAX_TOTAL } from '../../../kernel/quantity-totals.js';
import { mustBe } from '../../parse.js';

export const INVARIANT = 'minQuantity <= reorderQuantity <= maxQuantity must hold (on the merged values when updating), else 400 "Invalid quantities: min <= reorder <= max required".';

const quantity = z.number({ error: mustBe('a whole number of units') }).int('Must be a whole number of units').min(0, 'Must be 0 or more').max(MAX_INT, `At most ${MAX_INT}`);
// Days add up into a planning horizon (lead time + replenishment period): bounded like every other horizon.
const days = z.number({ error: mustBe('a whole number of days') }).int('Must be a whole number of days').min(0, 'Must be 0 or more').max(MAX_PLANNING_DAYS, `At most ${MAX_PLANNING_DAYS}`);
const id = z.string({ error: mustBe('text') }).trim().min(1, 'Required');

// Fields both create and update accept. min, reorder, max and status have column defaults and
// cannot be cleared; the others may be set to null.
const settable = {
  minQuantity: quantity.optional().meta({ description: 'Minimum stock in whole units (default 0 on creation).' }),
  reorderQuantity: quantity.optional().meta({ description: 'Reorder point in whole units (default 0 on creation).' }),
  maxQuantity: quantity.optional().meta({ description: 'Maximum stock in whole units (default 0 on creation).' }),
  status: z.string({ error: mustBe('text') }).trim().min(1, 'Must not be empty').max(100, 'At most 100 characters').optional().meta({ description: 'Status of the level (default Supported on creation).' }),
  abcClass: z.enum(['A', 'B', 'C'], { error: (issue) => (issue.input === undefined ? 'Required' : 'One of A, B, C') }).nullish().meta({ description: 'ABC class; null clears it.' }),
  expectedLeadTimeDays: days.nullish().meta({ description: 'Days from ordering to receiving.' }),
  replenishmentPeriodDays: days.nullish().meta({ description: 'Days between replenishments.' }),
  forecastPeriodDays: days.nullish().meta({ description: 'Days the forecast quantity covers.' }),
  forecastQuantity: z.number({ error: mustBe('a number') }).min(0, 'Must be 0 or more').max(MAX_TOTAL, `At most ${MAX_TOTAL}`).nullish().meta({ description: `Expected demand over the forecast period, at most ${MAX_TOTAL} units.` }),
  preferredBinLocationId: id.nullish().meta({ description: 'A bin of the level’s location (400 otherwise).' }),
  replenishmentLocationId: id.nullish().meta({ description: 'A location of the organization that replenishes this one (400 otherwise).' }),
  comments: z.string({ error: mustBe('text') }).max(5000, 'At most 5000 characters').nullish().meta({ description: 'Free text, up to 5000 characters.' }),
};

/** Body of POST /api/inventory-levels and input of upsertInventoryLevel. */
export const inventoryLevelUpsert = z
  .strictObject({
    productMasterId: id.optional().meta({ description: 'The product; required unless the deprecated productId is given.' }),
    productId: id.optional().meta({ deprecated: true, description: 'Deprecated alias of productMasterId; when both are given they must be equal (400 otherwise).' }),
    locationId: id.meta({ description: 'The location (of the organization).' }),
    ...settable,
  })
  .superRefine((input, issue) => {
    if (!input.productMasterId && !input.productId) {
      issue.addIssue({ code: 'custom', path: ['productMasterId'], message: 'Required (or the deprecated productId)' });
    } else if (input.productMasterId && input.productId && input.productMasterId !== input.productId) {
      issue.addIssue({ code: 'custom', path: ['productId'], message: 'Must equal productMasterId when both are given' });
    }
  })
  .meta({ description: `Creates the level of a product at a location, or updates the existing one (absent fields stay as they are). ${INVARIANT}` });

/** Body of PATCH /api/inventory-levels/{id} and input of updateInventoryLevel. */
export const inventoryLevelUpdate = z.strictObject(settable).meta({ description: `Absent fields stay as they are; null clears an optional field. ${INVARIANT}` });
