import type { DbContext } from '../../../context.js';

/** Every new organization starts with these adjustment reasons. */
export const DEFAULT_REASON_CODES = [
  { code: 'DAMAGED', name: 'Damaged', direction: 'DECREASE' },
  { code: 'LOST', name: 'Lost or stolen', direction: 'DECREASE' },
  { code: 'FOUND', name: 'Found', direction: 'INCREASE' },
  { code: 'COUNT_CORRECTION', name: 'Count correction', direction: 'ANY' },
  { code: 'EXPIRED', name: 'Expired', direction: 'DECREASE' },
  { code: 'RECEIVED', name: 'Received', direction: 'INCREASE' },
  { code: 'RETURNED', name: 'Customer return', direction: 'INCREASE' },
  { code: 'SAMPLE', name: 'Used as sample', direction: 'DECREASE' },
  { code: 'LOT_CORRECTION', name: 'Lot correction', direction: 'ANY' },
  { code: 'OTHER', name: 'Other', direction: 'ANY' },
] as const;

/** Seeds the organization's reason codes (a new organization's, in its creating transaction). */
export async function seedReasonCodes(ctx: DbContext, organizationId: string) {
  await ctx.prisma.reasonCode.createMany({
    data: DEFAULT_REASON_CODES.map((r) => ({ ...r, organizationId })),
    skipDuplicates: true,
  });
}
