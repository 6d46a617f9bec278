import { currentLogger, errorRequestIds } from '../kernel/log.js';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { maskError as maskUnexpected, type YogaLogger } from 'graphql-yoga';
import { DomainError, validationError } from '../kernel/errors.js';

/**
 * Yoga answers an error with this extension with that HTTP status (and leaves the extension out of the
 * body); `spec: false` keeps the 400 for a validation error, which Yoga otherwise answers 200 to
 * application/json clients.
 */
export const badRequest = { http: { status: 400, spec: false } };

/** The DomainError behind an error: itself, or what a resolver threw. */
export function domainErrorOf(error: unknown): DomainError | null {
  if (error instanceof DomainError) return error;
  if (error instanceof GraphQLError && error.originalError instanceof DomainError) return error.originalError;
  return null;
}

/**
 * The one GraphQL form of a DomainError: its message, and `extensions` with the code and its fields.
 * `located` keeps the path and locations of a resolver's error. Over HTTP, a caller who is not
 * authenticated (every 401 code: no credentials, a wrong password at sign-in) gets the status REST
 * answers, and so does a locked sign-in (RATE_LIMITED: 429 with Retry-After); Yoga reads it from
 * `extensions.http` and leaves it out of the body. Other codes leave the status to Yoga (200 with the
 * error beside what other fields returned).
 */
export function toGraphQLError(error: DomainError, located?: GraphQLError, extensions: Record<string, unknown> = {}): GraphQLError {
  const http = error.code === 'RATE_LIMITED' ? { http: { status: 429, headers: { 'retry-after': String(error.extra.retryAfter) } } }
    : error.status === 401 ? { http: { status: 401 } }
    : {};
  return new GraphQLError(error.message, {
    nodes: located?.nodes,
    source: located?.source,
    positions: located?.positions,
    path: located?.path,
    originalError: error,
    extensions: { code: error.code, ...error.extra, ...http, ...extensions },
  });
}

/**
 * GraphQL refuses variables it cannot coerce to their types in its own words, without a code: here they
 * get VALIDATION_ERROR naming the variable, or the field within it (`input.lines.0.sku`), as the input
 * check names fields. Any other error is returned as it is.
 */
export function withRequestErrorCode(error: GraphQLError): GraphQLError {
  if (error.path || error.extensions?.code !== undefined || domainErrorOf(error)) return error;
  const variable = /^Variable "\$([^"]+)"/.exec(error.message)?.[1];
  if (!variable) return error;
  const at = / at "([^"]+)"/.exec(error.message)?.[1];
  const field = (at ?? variable).replace(/\[(\d+)\]/g, '.$1');
  return toGraphQLError(validationError({ [field]: [error.message] }, error.message), error, badRequest);
}

/** Yoga's maskError: DomainErrors go out in their GraphQL form, every other error as Yoga masks it ('Unexpected error.'). */
export function maskError(error: unknown, message: string, isDev?: boolean): Error {
  const domain = domainErrorOf(error);
  if (!domain) return maskUnexpected(error, message, isDev);
  const located = error instanceof GraphQLError ? error : undefined;
  // The HTTP status the error was made with (badRequest) stays: Yoga reads it from the masked error.
  return toGraphQLError(domain, located, located?.extensions.http ? { http: located.extensions.http } : {});
}

/** What a graphql-ws client sees of an error: the same as over HTTP, except that only the code tells an unexpected one. */
export function maskedForSocket(raw: GraphQLError): GraphQLFormattedError {
  const error = withRequestErrorCode(raw);
  const domain = domainErrorOf(error);
  if (domain) {
    // A socket has no HTTP status to set.
    const formatted = toGraphQLError(domain, error).toJSON();
    const { http: _http, ...extensions } = formatted.extensions ?? {};
    return { ...formatted, extensions };
  }
  if (!error.originalError || error.originalError instanceof GraphQLError) return error.toJSON();
  return { message: 'Unexpected error.', locations: error.locations, path: error.path, extensions: { code: 'INTERNAL_SERVER_ERROR' } };
}

/** Yoga's logger, except that it does not log the DomainErrors maskError maps: they are answers, not failures. */
/** Yoga's log calls as lines of the process's logger. */
export function yogaLogger(): YogaLogger {
  const line = (level: 'debug' | 'info' | 'warn' | 'error') => (...args: unknown[]) => {
    const err = args.find((arg) => arg instanceof Error);
    const text = args.filter((arg) => typeof arg === 'string').join(' ');
    const requestId = err ? errorRequestIds.get(err) : undefined;
    currentLogger()[level](err ? { err, ...(requestId ? { requestId } : {}) } : {}, text || (err && level === 'error' ? 'unexpected error' : 'graphql'));
  };
  return { debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error') };
}

export function quietAboutDomainErrors(logger: YogaLogger = yogaLogger()): YogaLogger {
  return { ...logger, error: (...args) => (args.some((arg) => domainErrorOf(arg)) ? undefined : logger.error(...args)) };
}
