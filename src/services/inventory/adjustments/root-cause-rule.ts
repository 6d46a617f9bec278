import type { RequestContext } from '../../../context.js';
import { authOf, orgId } from '../../tenant.js';

export const isHealthcare = (ctx: RequestContext) => authOf(ctx).organization.industry?.toUpperCase() === 'HEALTHCARE';

/**
 * Healthcare organizations must say why on hand dropped by at least their largeAdjustmentThreshold
 * units. Returns that threshold (null when the rule does not apply to the organization).
 */
export async function rootCauseThreshold(ctx: RequestContext): Promise<number | null> {
  if (!isHealthcare(ctx)) return null;
  const org = await ctx.prisma.organization.findUniqueOrThrow({ where: { id: orgId(ctx) }, select: { largeAdjustmentThreshold: true } });
  return org.largeAdjustmentThreshold;
}

export function rootCauseProblem(threshold: number | null, delta: number, rootCause: string | null | undefined): string | null {
  if (threshold === null || delta >= 0 || -delta < threshold || rootCause?.trim()) return null;
  return `Required in healthcare organizations when on hand drops by ${threshold} units or more (this change removes ${-delta})`;
}
