import type { RequestContext } from '../../../context.js';
import type { ReasonCode } from '../../../generated/prisma/client.js';
import { validationError } from '../../../kernel/errors.js';
import { orgId } from '../../tenant.js';

/**
 * An active reason code of the organization, given by id or by code (for example DAMAGED, any case).
 * Without a value the `fallback` code is used; without either the field is required.
 */
export async function findReasonCode(ctx: RequestContext, value: string | null | undefined, field: string, fallback?: string): Promise<ReasonCode> {
  const wanted = value?.trim() || fallback;
  if (!wanted) throw validationError({ [field]: ['Required'] });
  const reason = await ctx.prisma.reasonCode.findFirst({
    where: { organizationId: orgId(ctx), active: true, OR: [{ id: wanted }, { code: { equals: wanted, mode: 'insensitive' } }] },
  });
  if (!reason) throw validationError({ [field]: [`Unknown or inactive reason code: ${wanted}`] });
  return reason;
}

/** A DECREASE-only reason cannot explain an increase, nor an INCREASE-only reason a decrease. */
export function reasonDirectionProblem(reason: ReasonCode, delta: number): string | null {
  if (reason.direction === 'DECREASE' && delta > 0) return `Reason ${reason.code} is for decreases only; this change adds ${delta}`;
  if (reason.direction === 'INCREASE' && delta < 0) return `Reason ${reason.code} is for increases only; this change removes ${-delta}`;
  return null;
}

export function checkReasonDirection(reason: ReasonCode, delta: number, field: string) {
  const problem = reasonDirectionProblem(reason, delta);
  if (problem) throw validationError({ [field]: [problem] });
}
