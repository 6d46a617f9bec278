import { z } from 'zod';
import { mustBe } from '../../parse.js';

/** Longest period a reclassification reads the ledger over (two years). */
export const MAX_RECLASSIFY_DAYS = 730;

const percent = (cls: string) =>
  z
    .number({ error: mustBe('a whole number') })
    .int('Must be a whole number')
    .min(0, 'Must be from 0 to 100')
    .max(100, 'Must be from 0 to 100')
    .optional()
    .meta({ description: `Share of the movement value class ${cls} takes, in percent (whole number); the three percents must add up to 100 after the change.` });

const frequency = (cls: string) =>
  z
    .number({ error: mustBe('a whole number') })
    .int('Must be a whole number')
    .min(1, 'Must be a positive whole number of days')
    .max(3650, 'At most 3650 days')
    .optional()
    .meta({ description: `Days between two counts of a class ${cls} product.` });

/** Body of POST /api/inventory/cycle-count/abc and input of updateCycleCountAbc. */
export const cycleCountAbcUpdate = z.strictObject({
  aPercent: percent('A'),
  bPercent: percent('B'),
  cPercent: percent('C'),
  aFrequencyDays: frequency('A'),
  bFrequencyDays: frequency('B'),
  cFrequencyDays: frequency('C'),
  tolerance: z
    .strictObject({
      units: z.number({ error: mustBe('a whole number') }).int('Must be a whole number').min(0, 'Must be 0 or more').max(1_000_000, 'At most 1000000').optional()
        .meta({ description: 'A variance of at most this many units (either way) is within tolerance.' }),
      percent: z.number({ error: mustBe('a number') }).min(0, 'Must be from 0 to 100').max(100, 'Must be from 0 to 100').optional()
        .meta({ description: 'A variance of at most this percent of the expected quantity is within tolerance.' }),
      value: z.number({ error: mustBe('a number') }).min(0, 'Must be 0 or more').max(1e9, 'At most 1000000000').optional()
        .meta({ description: 'A variance worth at most this much (units × unit cost; products with a cost only) is within tolerance; stored with 4 decimals, as unit costs are.' }),
    })
    .optional()
    .meta({ description: 'The fields of the tolerance to change: variances within any of them are accepted by themselves when a batch completes (all 0 until set: only exact counts).' }),
  reclassify: z
    .strictObject({
      locationId: z
        .string({ error: mustBe('text') })
        .trim()
        .min(1, 'Required')
        .meta({ description: "The location whose products are ranked (400 details.reclassify.locationId when it is not one of the organization's)." }),
      periodDays: z
        .number({ error: mustBe('a whole number') })
        .int('Must be a whole number')
        .min(1, `Must be from 1 to ${MAX_RECLASSIFY_DAYS}`)
        .max(MAX_RECLASSIFY_DAYS, `Must be from 1 to ${MAX_RECLASSIFY_DAYS}`)
        .optional()
        .meta({ description: 'The period of movement read, in days up to now (default 90).' }),
    })
    .optional()
    .meta({
      description:
        "Also rank the location's products by the value of their outflows over the period (with the configuration after this change) and set each level's abcClass.",
    }),
});
