import { z } from 'zod';
import { MAX_INT } from '../../../kernel/input-limits.js';

/** A channel's allocation policy at a location: a share of what is available there, or a fixed quantity. */
export const allocationPolicyInput = z
  .strictObject({
    channelId: z.string().trim().min(1, 'Required').max(200, 'At most 200 characters').meta({ description: 'A channel of the organization (404 otherwise).' }),
    locationId: z.string().trim().min(1, 'Required').max(200, 'At most 200 characters').meta({ description: 'A location of the organization (404 otherwise).' }),
    mode: z.enum(['SHARE', 'FIXED'], 'Must be SHARE or FIXED').meta({ description: 'SHARE (a fraction of available stock) or FIXED (a quantity).' }),
    sharePct: z.number().min(0, 'Must be from 0 to 1').max(1, 'Must be from 0 to 1').nullish().meta({ description: 'Required with SHARE: fraction of available stock, 0 to 1.' }),
    fixedQuantity: z.number().int('Must be a whole number').min(0, 'Must be 0 or more').max(MAX_INT, `At most ${MAX_INT}`).nullish().meta({ description: 'Required with FIXED: quantity, 0 or more.' }),
    lowAtpThreshold: z
      .number()
      .int('Must be a whole number')
      .min(0, 'Must be 0 or more')
      .max(MAX_INT, `At most ${MAX_INT}`)
      .nullish()
      .meta({ description: 'ATP below this is LOW (0 or more); absent keeps the current value, 0 for a new policy.' }),
  })
  .superRefine((input, issues) => {
    if (input.mode === 'SHARE' && input.sharePct == null) {
      issues.addIssue({ code: 'custom', path: ['sharePct'], message: 'Required when mode is SHARE' });
    }
    if (input.mode === 'FIXED' && input.fixedQuantity == null) {
      issues.addIssue({ code: 'custom', path: ['fixedQuantity'], message: 'Required when mode is FIXED' });
    }
  });
