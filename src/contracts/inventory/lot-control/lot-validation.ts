import { z } from 'zod';
import { MAX_INT } from '../../../kernel/input-limits.js';
import { mustBe } from '../../parse.js';
import { text, wholeNumber } from '../../query-values.js';

const id = (description: string) => z.string({ error: mustBe('text') }).trim().min(1, 'Required').meta({ description });

const PRODUCT = 'The product to pick; unknown or of another organization: 400 naming the field.';
const LOCATION = 'The location to pick at; unknown or of another organization: 400 naming the field.';
const QUANTITY = 'Units to pick, 1 or more (default 1).';
const LOT_ID = 'Only this lot (a lot of the product; otherwise 400 naming the field).';
const LOT_CODE = 'Only the lot of the product with this code (400 naming the field when there is none); not with lotId.';
const BIN_ID = 'Only lines in this bin (400 naming the field when it is not a bin of the location).';

const oneLot = (input: { lotId?: string | null; lotCode?: string | null }, issue: z.RefinementCtx) => {
  if (input.lotId && input.lotCode) issue.addIssue({ code: 'custom', path: ['lotCode'], message: 'Give lotId or lotCode, not both' });
};

/** Body of POST /api/inventory/lot-control/validate and input of validateLots. */
export const lotValidation = z
  .strictObject({
    productMasterId: id(PRODUCT),
    locationId: id(LOCATION),
    quantity: z
      .number({ error: mustBe('a whole number') })
      .int('Must be a whole number')
      .min(1, 'Must be 1 or more')
      .max(MAX_INT, `At most ${MAX_INT}`)
      .default(1)
      .meta({ description: QUANTITY }),
    lotId: id(LOT_ID).nullish(),
    lotCode: id(LOT_CODE).nullish(),
    binId: id(BIN_ID).nullish(),
  })
  .superRefine(oneLot)
  .meta({ description: 'What to pick: a product at a location, how many units, optionally from one lot or bin.' });

/** Query of GET /api/inventory/lot-control/validate: the body's fields as query parameters. */
export const lotValidationQuery = z
  .object({
    productMasterId: id(PRODUCT),
    locationId: id(LOCATION),
    quantity: wholeNumber('Must be a whole number, 1 or more', { min: 1 }).meta({ description: QUANTITY }),
    lotId: text.meta({ description: LOT_ID }),
    lotCode: text.meta({ description: LOT_CODE }),
    binId: text.meta({ description: BIN_ID }),
  })
  .superRefine(oneLot);
