import { z } from 'zod';

/** A channel's allocation policy at a location: a share of what is available there, or a fixed quantity. */
export const allocationPolicyInput = z
  .object({
    channelId: z.string().trim().min(1, 'Required'),
    locationId: z.string().trim().min(1, 'Required'),
    mode: z.enum(['SHARE', 'FIXED'], 'Must be SHARE or FIXED'),
    sharePct: z.number().min(0, 'Must be from 0 to 1').max(1, 'Must be from 0 to 1').nullish(),
    fixedQuantity: z.number().int('Must be a whole number').min(0, 'Must be 0 or more').nullish(),
    lowAtpThreshold: z.number().int('Must be a whole number').min(0, 'Must be 0 or more').nullish(),
  })
  .superRefine((input, issues) => {
    if (input.mode === 'SHARE' && input.sharePct == null) {
      issues.addIssue({ code: 'custom', path: ['sharePct'], message: 'Required when mode is SHARE' });
    }
    if (input.mode === 'FIXED' && input.fixedQuantity == null) {
      issues.addIssue({ code: 'custom', path: ['fixedQuantity'], message: 'Required when mode is FIXED' });
    }
  });
