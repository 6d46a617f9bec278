/** Every error the domain raises has one of these codes, each with the HTTP status REST answers it with. */
export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  BAD_REQUEST: 400,
  MAX_TOKENS_EXCEEDED: 400,
  MAX_DEPTH_EXCEEDED: 400,
  MAX_ALIASES_EXCEEDED: 400,
  MAX_DIRECTIVES_EXCEEDED: 400,
  MAX_COST_EXCEEDED: 400,
  INTROSPECTION_DISABLED: 400,
  PERSISTED_QUERY_NOT_FOUND: 400,
  PERSISTED_QUERY_ONLY: 400,
  OPERATION_NOT_ALLOWED: 400,
  INSUFFICIENT_STOCK: 400,
  INVALID_STATE: 409,
  CONFLICT: 409,
  MISSING_AUTHORIZATION: 401,
  INVALID_API_KEY: 401,
  REVOKED_API_KEY: 401,
  EXPIRED_API_KEY: 401,
  INVALID_TOKEN: 401,
  INVALID_CREDENTIALS: 401,
  INACTIVE_ORGANIZATION: 403,
  IP_RESTRICTION: 403,
  INSUFFICIENT_SCOPE: 403,
  FORBIDDEN: 403,
  FEATURE_NOT_ENABLED: 403,
  CSRF_REJECTED: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  TOO_MANY_SUBSCRIPTIONS: 429,
  TOO_MANY_CONNECTIONS: 429,
  RATE_LIMITED: 429,
  INTERNAL_SERVER_ERROR: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
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
