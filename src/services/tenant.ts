import type { AuthInfo, RequestContext } from '../context.js';
import { DomainError, newFieldErrors, validationError } from '../kernel/errors.js';
import type { z } from 'zod';

/** The caller's organization id; every tenant read and write filters by it. */
export function orgId(ctx: RequestContext): string {
  return authOf(ctx).organization.id;
}

export function authOf(ctx: RequestContext): AuthInfo {
  if (!ctx.auth) throw new DomainError('MISSING_AUTHORIZATION', 'Authentication required');
  return ctx.auth;
}

/** Parses input with a zod schema; failures become VALIDATION_ERROR with per-field messages. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const details = newFieldErrors();
  for (const issue of result.error.issues) {
    const field = issue.path.join('.') || '_';
    (details[field] ??= []).push(issue.message);
  }
  throw validationError(details);
}

/** Page/limit paging with the documented defaults and maximum. */
export function pageArgs(page: number | null | undefined, limit: number | null | undefined, defaults: { limit: number; max: number }) {
  const details: Record<string, string[]> = {};
  const p = page ?? 1;
  const l = limit ?? defaults.limit;
  if (!Number.isInteger(p) || p < 1) details.page = ['Must be an integer of at least 1'];
  if (!Number.isInteger(l) || l < 1 || l > defaults.max) details.limit = [`Must be an integer from 1 to ${defaults.max}`];
  if (Object.keys(details).length) throw validationError(details);
  return { page: p, limit: l, skip: (p - 1) * l };
}
