import { z } from 'zod';
import { MAX_INT } from '../../../kernel/input-limits.js';
import { dateTime } from '../../date-times.js';
import { mustBe } from '../../parse.js';
import { optionalNote } from '../../text-fields.js';

export const HOLD_SCOPES = ['STOCK_LINE', 'LOT', 'PRODUCT_AT_LOCATION'] as const;
export const HOLD_STATUSES = ['ACTIVE', 'RELEASED', 'EXPIRED'] as const;

const id = z.string({ error: mustBe('text') }).trim().min(1, 'Required');
const quantity = z.number({ error: mustBe('a whole number') }).int('Must be a whole number').positive('Must be greater than 0').max(MAX_INT, `At most ${MAX_INT}`);

/** Which target fields each scope takes: required ones, and the optional ones; any other is refused. */
const SCOPE_FIELDS = {
  STOCK_LINE: { required: ['stockLineId'], optional: [] },
  LOT: { required: ['lotId'], optional: ['locationId'] },
  PRODUCT_AT_LOCATION: { required: ['productMasterId', 'locationId'], optional: [] },
} as const satisfies Record<(typeof HOLD_SCOPES)[number], { required: readonly string[]; optional: readonly string[] }>;
const TARGETS = ['stockLineId', 'lotId', 'productMasterId', 'locationId'] as const;

/** Body of POST /api/inventory/holds and input of placeInventoryHold. */
export const inventoryHoldPlace = z
  .strictObject({
    scope: z
      .enum(HOLD_SCOPES, { error: (issue) => (issue.input === undefined ? 'Required' : `One of ${HOLD_SCOPES.join(', ')}`) })
      .meta({ description: 'What is held: one STOCK_LINE (stockLineId); a LOT (lotId, at locationId or, without it, at every location); a PRODUCT_AT_LOCATION (productMasterId and locationId, every lot and bin).' }),
    stockLineId: id.nullish().meta({ description: 'The stock line (scope STOCK_LINE; 400 when it is not one of the organization).' }),
    lotId: id.nullish().meta({ description: 'The lot (scope LOT; 400 when it is not one of the organization).' }),
    productMasterId: id.nullish().meta({ description: 'The product (scope PRODUCT_AT_LOCATION; 400 when it is not one of the organization).' }),
    locationId: id.nullish().meta({ description: 'The location (scope PRODUCT_AT_LOCATION, required; scope LOT, optional: absent holds the lot everywhere; 400 when it is not one of the organization).' }),
    quantity: quantity.nullish().meta({
      description: 'Units to hold, taken from the covered lines first-expiring first. Absent: every available unit of the covered lines now. More than available: 400 INSUFFICIENT_STOCK, nothing written.',
    }),
    reasonCode: z
      .string({ error: mustBe('text') })
      .trim()
      .min(1, 'Required')
      .max(50, 'At most 50 characters')
      .regex(/^[A-Za-z0-9_-]+$/, 'Letters, digits, _ and - only')
      .transform((code) => code.toUpperCase())
      .meta({ description: 'Why the stock is held, as a code (for example QC_INSPECTION, DAMAGE, CUSTOMER_CLAIM; stored upper case); kept on the ledger rows.' }),
    note: optionalNote(2000).meta({ description: 'Free text, kept on the ledger rows.' }),
    expiresAt: dateTime.nullish().meta({ description: 'When the hold ends by itself: the first read after it releases what it still holds (status EXPIRED). Must be in the future.' }),
  })
  .superRefine((value, ctx) => {
    const fields = SCOPE_FIELDS[value.scope];
    if (!fields) return;
    for (const field of fields.required) if (!value[field]) ctx.addIssue({ code: 'custom', path: [field], message: `Required for scope ${value.scope}` });
    const allowed: readonly string[] = [...fields.required, ...fields.optional];
    for (const field of TARGETS) if (value[field] && !allowed.includes(field)) ctx.addIssue({ code: 'custom', path: [field], message: `Not taken by scope ${value.scope}` });
    if (value.expiresAt && value.expiresAt.getTime() <= Date.now()) ctx.addIssue({ code: 'custom', path: ['expiresAt'], message: 'Must be in the future' });
  });

/** Body of POST /api/inventory/holds/release and input of releaseInventoryHold. */
export const inventoryHoldRelease = z.strictObject({
  holdId: id.meta({ description: 'The hold (400 when it is not one of the organization).' }),
  quantity: quantity.nullish().meta({ description: 'Units to release, at most what the hold still holds (400 otherwise); absent: all of them. The hold is RELEASED once it holds nothing.' }),
  note: optionalNote(2000).meta({ description: 'Why it is released; kept on the hold and the ledger rows.' }),
});
