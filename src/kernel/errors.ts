/**
 * Every error code the service answers with: its HTTP status (REST answers it, and GraphQL over HTTP for
 * the credential codes) and what it means. The one source of the codes: the GraphQL enum ErrorCode is
 * built from this table (src/schema/error-code.ts).
 */
export const ERROR_CODES = {
  VALIDATION_ERROR: { status: 400, description: 'The input is not acceptable; `details` names each field at fault.' },
  BAD_REQUEST: { status: 400, description: 'The request cannot be understood or asks for something not available (for example a malformed path).' },
  MAX_TOKENS_EXCEEDED: { status: 400, description: 'The GraphQL document has more lexical tokens than GRAPHQL_MAX_TOKENS.' },
  MAX_DEPTH_EXCEEDED: { status: 400, description: 'The GraphQL selections nest deeper than GRAPHQL_MAX_DEPTH.' },
  MAX_ALIASES_EXCEEDED: { status: 400, description: 'The GraphQL operation has more aliases than GRAPHQL_MAX_ALIASES.' },
  MAX_DIRECTIVES_EXCEEDED: { status: 400, description: 'The GraphQL operation has more directives than GRAPHQL_MAX_DIRECTIVES.' },
  MAX_COST_EXCEEDED: { status: 400, description: 'The estimated result size of the GraphQL operation is above GRAPHQL_MAX_COST.' },
  INTROSPECTION_DISABLED: { status: 400, description: 'Introspection needs credentials (unless GRAPHQL_PUBLIC_INTROSPECTION is true).' },
  PERSISTED_QUERY_NOT_FOUND: { status: 400, description: 'No trusted document has this hash.' },
  PERSISTED_QUERY_ONLY: { status: 400, description: 'This caller may run only trusted documents (GRAPHQL_TRUSTED_DOCUMENTS).' },
  OPERATION_NOT_ALLOWED: { status: 400, description: 'Only subscriptions are served over graphql-ws; send queries and mutations to POST /graphql.' },
  INSUFFICIENT_STOCK: { status: 400, description: 'The change would take a quantity below zero or below what is reserved, held, picked, recalled or expired.' },
  INVALID_STATE: { status: 409, description: 'The record is in a state that does not allow this (for example a revoked API key, or a location still in use).' },
  CONFLICT: { status: 409, description: 'The data kept changing while the request was applied; retrying may succeed.' },
  IDEMPOTENCY_KEY_IN_USE: { status: 409, description: 'Another request with this Idempotency-Key is still running; retry after `retryAfter` seconds to get its answer.' },
  IDEMPOTENCY_KEY_MISMATCH: { status: 422, description: 'This Idempotency-Key was sent before with another request (method, path, caller or body); use a new key for a new request.' },
  MISSING_AUTHORIZATION: { status: 401, description: 'No credentials, or an Authorization header that is not `Bearer …`.' },
  INVALID_API_KEY: { status: 401, description: 'The API key is unknown.' },
  REVOKED_API_KEY: { status: 401, description: 'The API key has been revoked.' },
  EXPIRED_API_KEY: { status: 401, description: 'The API key is past its expiresAt.' },
  INVALID_TOKEN: { status: 401, description: 'The session token is forged, expired or signed out.' },
  INVALID_CREDENTIALS: { status: 401, description: 'Wrong email or password at sign-in.' },
  INACTIVE_ORGANIZATION: { status: 403, description: 'The organization is not active.' },
  IP_RESTRICTION: { status: 403, description: "The API key is not allowed from the caller's address." },
  INSUFFICIENT_SCOPE: { status: 403, description: "The API key's scopes do not grant the operation's permission." },
  FORBIDDEN: { status: 403, description: "The user's role does not grant the operation, it needs a signed-in user, or the wrong organization was named." },
  FEATURE_NOT_ENABLED: { status: 403, description: "The organization's plan lacks the capability the operation needs." },
  CSRF_REJECTED: { status: 403, description: 'A cross-site request carrying the session cookie was refused.' },
  NOT_FOUND: { status: 404, description: "The record does not exist or is not the organization's." },
  METHOD_NOT_ALLOWED: { status: 405, description: 'The path exists with other HTTP methods (see the Allow header).' },
  PAYLOAD_TOO_LARGE: { status: 413, description: 'The request body, or the rows of an import, exceed the limit.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, description: 'The request body is not sent as application/json.' },
  TOO_MANY_SUBSCRIPTIONS: { status: 429, description: 'Too many operations running at once on one graphql-ws socket.' },
  TOO_MANY_CONNECTIONS: { status: 429, description: 'Too many graphql-ws sockets open at once for one caller.' },
  ENGINE_BUSY: {
    status: 429,
    description: 'The organization already has FORECAST_REQUESTS_PER_ORGANIZATION forecasting requests running; retry after `retryAfter` seconds.',
  },
  RATE_LIMITED: { status: 429, description: 'Too many requests or sign-in attempts; retry after `retryAfter` seconds.' },
  INTERNAL_SERVER_ERROR: { status: 500, description: 'An unexpected failure; the message says no more. Retry later.' },
} as const satisfies Record<string, { status: number; description: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The HTTP status of each code. */
export const ERROR_STATUS = Object.fromEntries(Object.entries(ERROR_CODES).map(([code, { status }]) => [code, status])) as {
  [Code in ErrorCode]: (typeof ERROR_CODES)[Code]['status'];
};

export const isErrorCode = (value: unknown): value is ErrorCode => typeof value === 'string' && Object.hasOwn(ERROR_CODES, value);

export type FieldErrors = Record<string, string[]>;

/** What goes out with the code: `details` for validation failures, or fields such as feature, permission, retryAfter. */
export type DomainErrorExtra = { details?: FieldErrors; [key: string]: unknown };

/**
 * A failure the caller can act on: a plain error with a code, its HTTP status and the fields that go out
 * with it. Each door maps it once: GraphQL in src/server/graphql-errors.ts (every other error is
 * masked), REST in rest-adapter/errors.ts.
 */
export class DomainError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly extra: DomainErrorExtra;

  constructor(code: ErrorCode, message: string, extra: DomainErrorExtra = {}) {
    super(message);
    this.name = 'DomainError';
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.extra = extra;
  }

  get details(): FieldErrors | undefined {
    return this.extra.details;
  }
}

/**
 * An empty details map. It has no prototype, so that a field named `__proto__` or `constructor` (an
 * unknown field a caller sent) is a key like any other instead of reaching Object.prototype.
 */
export const newFieldErrors = (): FieldErrors => Object.create(null) as FieldErrors;

export const notFound = (what: string) => new DomainError('NOT_FOUND', `${what} not found`);

export const validationError = (details: FieldErrors, message = 'Validation failed') =>
  new DomainError('VALIDATION_ERROR', message, { details });
