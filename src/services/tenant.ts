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

/** The paging contract of each default size and maximum, built once: building a zod schema costs far more than parsing with it. */
const pagingContracts = new Map<string, ReturnType<typeof pagingArgs>>();

/** Page/limit paging with the documented defaults and maximum. */
export function pageArgs(page: number | null | undefined, limit: number | null | undefined, defaults: { limit: number; max: number }) {
  const key = `${defaults.limit}/${defaults.max}`;
  let contract = pagingContracts.get(key);
  if (!contract) pagingContracts.set(key, (contract = pagingArgs(defaults)));
  const paging = parseContract(contract, { page, limit });
  return { ...paging, skip: (paging.page - 1) * paging.limit };
}

/** Which items of a list to answer when a GraphQL connection asks by position instead of by page. */
export interface ListWindow {
  skip: number;
  take: number;
}

/**
 * The items to read of a paged list: a connection's window as given (its size was checked against the
 * list's maximum with the paging arguments), otherwise the page and limit with their defaults and maximum.
 */
export function pageWindow(page: number | null | undefined, limit: number | null | undefined, defaults: { limit: number; max: number }, window?: ListWindow) {
  if (window) return { page: 1, limit: window.take, skip: window.skip, take: window.take };
  const paging = pageArgs(page, limit, defaults);
  return { ...paging, take: paging.limit };
}
