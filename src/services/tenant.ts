import type { AuthInfo, RequestContext } from '../context.js';
import { DomainError } from '../kernel/errors.js';
import { parseContract } from '../contracts/parse.js';
import { pagingArgs } from '../contracts/paging.js';

/** The caller's organization id; every tenant read and write filters by it. */
export function orgId(ctx: RequestContext): string {
  return authOf(ctx).organization.id;
}

export function authOf(ctx: RequestContext): AuthInfo {
  if (!ctx.auth) throw new DomainError('MISSING_AUTHORIZATION', 'Authentication required');
  return ctx.auth;
}

/** Parses input with its contract (src/contracts); failures become VALIDATION_ERROR with per-field messages. */
export const parseInput = parseContract;

/** Page/limit paging with the documented defaults and maximum. */
export function pageArgs(page: number | null | undefined, limit: number | null | undefined, defaults: { limit: number; max: number }) {
  const paging = parseContract(pagingArgs(defaults), { page, limit });
  return { ...paging, skip: (paging.page - 1) * paging.limit };
}
