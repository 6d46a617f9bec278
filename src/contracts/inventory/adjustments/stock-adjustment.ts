import { z } from 'zod';
import { MAX_INT } from '../../../kernel/input-limits.js';
import { mustBe } from '../../parse.js';
import { optionalNote } from '../../text-fields.js';

const REASON_CODE = 'An active reason code of the organization: its id, or its code (for example DAMAGED, any case).';
const ROOT_CAUSE =
  "Why the stock was lost. Required (400 details.rootCause) when the organization's industry is HEALTHCARE and on hand drops by " +
  "the organization's largeAdjustmentThreshold (default 100) units or more.";

const common = {
  inventoryItemId: z
    .string({ error: mustBe('text') })
    .min(1, 'Required')
    .meta({ description: 'The stock line; unknown or of another organization: 400 with details.inventoryItemId.' }),
  reasonCodeId: z.string({ error: mustBe('text') }).trim().min(1, 'Required').meta({ description: REASON_CODE }),
  comment: optionalNote(2000),
  rootCause: optionalNote(2000).meta({ description: ROOT_CAUSE }),
};

/** Body of POST /api/inventory/adjustments and input of adjustStock. */
export const stockAdjustment = z.strictObject({
  ...common,
  newQtyOnHand: z
    .number({ error: mustBe('a whole number') })
    .int('Must be a whole number')
    .min(0, 'Must be 0 or more')
    .max(MAX_INT, `At most ${MAX_INT}`)
    .meta({
      description:
        'The new on hand. The change is computed from the current on hand under a row lock. Equal to the current on hand: 400 ' +
        '(details.newQtyOnHand, nothing written). Below reserved + on hold + picked + recalled + expired: 400 INSUFFICIENT_STOCK. ' +
        'A DECREASE reason for an increase (or INCREASE for a decrease) is a 400.',
    }),
});

/** Body of POST /api/inventory/adjust and input of adjustStockBy. */
export const stockDeltaAdjustment = z.strictObject({
  ...common,
  delta: z
    .number({ error: mustBe('a whole number') })
    .int('Must be a whole number')
    .min(-MAX_INT, `Must be from -${MAX_INT} to ${MAX_INT}`)
    .max(MAX_INT, `Must be from -${MAX_INT} to ${MAX_INT}`)
    .refine((d) => d !== 0, 'Must not be 0')
    .meta({ description: 'Signed change of on hand (not 0). Below zero or below the parts: 400 INSUFFICIENT_STOCK.' }),
});
