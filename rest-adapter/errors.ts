import { GraphQLError } from 'graphql';
import { DomainError, ERROR_STATUS, type ErrorCode } from '../src/errors.js';

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  });
}

/** 405 for a path that exists with other methods; `Allow` lists them. */
export function methodNotAllowed(method: string, pathname: string, allowed: readonly string[]): Response {
  const allow = allowed.join(', ');
  return json(405, { error: `${method} is not allowed on ${pathname} (allowed: ${allow})`, code: 'METHOD_NOT_ALLOWED' }, { allow });
}

/**
 * The one mapping from domain error codes to HTTP status and the documented error bodies:
 * `{error, code}` plus `details` for validation failures and the capability fields for FEATURE_NOT_ENABLED.
 */
export function errorResponse(error: unknown): Response {
  const domain = asDomainError(error);
  if (!domain) {
    console.error('unexpected error', error);
    return json(500, { error: 'Internal Server Error', code: 'INTERNAL_SERVER_ERROR', message: 'The request failed; retry later.' });
  }
  const { code, ...extensions } = domain.extensions as { code: ErrorCode; [key: string]: unknown };
  const retryAfter = typeof extensions.retryAfter === 'number' ? { 'retry-after': String(extensions.retryAfter) } : undefined;
  return json(ERROR_STATUS[code] ?? 400, { error: domain.message, code, ...extensions }, retryAfter);
}

function asDomainError(error: unknown): GraphQLError | null {
  if (error instanceof DomainError) return error;
  if (error instanceof GraphQLError) {
    if (error.originalError instanceof DomainError) return error.originalError;
    if (!error.originalError && typeof error.extensions?.code === 'string' && error.extensions.code in ERROR_STATUS) return error;
  }
  return null;
}
