import { z } from 'zod';
import { MAX_INT } from '../../../kernel/input-limits.js';
import { calendarDateText } from '../../date-times.js';
import { mustBe } from '../../parse.js';
import { optionalNote } from '../../text-fields.js';

/** Body of POST /api/inventory/adjustments/lot-correction and input of correctLot. */
export const lotCorrection = z
  .strictObject({
    inventoryItemId: z.string({ error: mustBe('text') }).min(1, 'Required').meta({ description: 'The source stock line; unknown or of another organization: 400 with details.inventoryItemId.' }),
    toLotId: z.string({ error: mustBe('text') }).min(1, 'Required').nullish().meta({ description: 'A lot of the same product (unknown, foreign or of another product: 400 with details.toLotId).' }),
    toLotCode: z.string({ error: mustBe('text') }).trim().min(1, 'Must not be blank').max(100, 'At most 100 characters').nullish().meta({ description: 'The target lot code; created for the product when missing.' }),
    toExpiryDate: calendarDateText.nullish().meta({ description: "Expiry of a new lot (with toLotCode); must equal an existing lot's." }),
    quantity: z
      .number({ error: mustBe('a whole number') })
      .int('Must be a whole number')
      .min(1, 'Must be at least 1')
      .max(MAX_INT, `At most ${MAX_INT}`)
      .meta({ description: 'Units to move; more than the source line has available (none in a recalled or expired lot): 400 INSUFFICIENT_STOCK.' }),
    reasonCodeId: z
      .string({ error: mustBe('text') })
      .trim()
      .min(1, 'Required')
      .nullish()
      .meta({ description: 'An active reason code of the organization (its id or code); must allow both directions (ANY); default LOT_CORRECTION.' }),
    comment: optionalNote(2000),
  })
  .superRefine((input, issue) => {
    if (!input.toLotId && !input.toLotCode) issue.addIssue({ code: 'custom', path: ['toLotCode'], message: 'Give toLotCode or toLotId' });
    if (input.toLotId && input.toLotCode) issue.addIssue({ code: 'custom', path: ['toLotId'], message: 'Give either toLotCode or toLotId, not both' });
    if (input.toExpiryDate && !input.toLotCode) issue.addIssue({ code: 'custom', path: ['toExpiryDate'], message: 'Only with toLotCode' });
  })
  .meta({ description: 'Give exactly one of toLotCode and toLotId.' });
