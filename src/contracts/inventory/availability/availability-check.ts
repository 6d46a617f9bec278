import { z } from 'zod';
import { MAX_INT } from '../../../kernel/input-limits.js';
import { mustBe } from '../../parse.js';

export const MAX_CHECK_ITEMS = 1000;

const item = z.strictObject({
  sku: z.string({ error: mustBe('text') }).trim().min(1, 'Required').meta({ description: 'Exact SKU; an unknown one has 0 available.' }),
  locationId: z
    .string({ error: mustBe('text') })
    .min(1, 'Required')
    .meta({
      description:
        'The location: its id, its code (DC-EAST) or the normalized form <organizationId>-<locationId>, as in imports (an id wins, then a code). ' +
        'A location that is not the organization\'s refuses the batch: 400 VALIDATION_ERROR with details["items.N.locationId"].',
    }),
  quantity: z
    .number({ error: mustBe('a whole number') })
    .int('Must be a whole number')
    .positive('Must be greater than 0')
    .max(MAX_INT, `At most ${MAX_INT}`)
    .meta({ description: 'Units wanted, at least 1.' }),
});

/** Body of POST /api/inventory/availability/check and input of checkAvailability. */
export const availabilityCheck = z.strictObject({
  items: z
    .array(item, { error: mustBe('a list') })
    .min(1, 'Give at least one item')
    .max(MAX_CHECK_ITEMS, `At most ${MAX_CHECK_ITEMS} items`)
    .meta({ description: `The items, 1 to ${MAX_CHECK_ITEMS}.` }),
});
