/** Shared OpenAPI pieces: error bodies and response helpers used by every area's routes. */
export const commonSchemas = {
  Error: {
    type: 'object',
    required: ['error'],
    properties: {
      error: { type: 'string', description: 'What went wrong, in words.' },
      code: { type: 'string', description: 'Machine-readable error code, for example NOT_FOUND or INSUFFICIENT_SCOPE.' },
    },
  },
  // One schema per status: a oneOf of bodies that share their fields would match both and fail strict validators.
  BadRequestError: {
    description: 'The Error body of a 400: VALIDATION_ERROR carries details, messages per field named by its path (lines.3.quantity).',
    allOf: [
      { $ref: '#/components/schemas/Error' },
      {
        type: 'object',
        properties: {
          details: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } }, description: 'Messages per field (VALIDATION_ERROR).' },
        },
      },
    ],
  },
  ForbiddenError: {
    description: 'The Error body of a 403: the permission the caller lacks, or the plan capability the organization lacks (FEATURE_NOT_ENABLED).',
    allOf: [
      { $ref: '#/components/schemas/Error' },
      {
        type: 'object',
        properties: {
          permission: { type: 'string', description: 'The permission the API key or role does not grant (INSUFFICIENT_SCOPE, FORBIDDEN).' },
          feature: { type: 'string', description: 'The missing plan capability (FEATURE_NOT_ENABLED).' },
          planCapability: { type: 'string', description: 'The same as feature.' },
          entitlement: { type: 'string', description: 'The same as feature (the other description names it so).' },
        },
      },
    ],
  },
  PayloadTooLargeError: {
    description: 'The Error body of 413 PAYLOAD_TOO_LARGE, with the limit that was passed.',
    allOf: [
      { $ref: '#/components/schemas/Error' },
      {
        type: 'object',
        required: ['code'],
        properties: {
          code: { type: 'string', enum: ['PAYLOAD_TOO_LARGE'] },
          maxBodyBytes: { type: 'integer', description: 'Largest accepted body for this path in bytes (sent when the body is over it).' },
          maxRows: { type: 'integer', description: 'Most rows accepted in one import request (sent when the request has more rows).' },
          rows: { type: 'integer', description: 'Rows the import request sent (with maxRows).' },
        },
      },
    ],
  },
  RateLimitedError: {
    description: 'The Error body of 429 RATE_LIMITED.',
    allOf: [
      { $ref: '#/components/schemas/Error' },
      {
        type: 'object',
        required: ['code', 'retryAfter'],
        properties: {
          code: { type: 'string', enum: ['RATE_LIMITED'] },
          retryAfter: { type: 'integer', description: 'Seconds to wait before trying again (the same as the Retry-After header).' },
        },
      },
    ],
  },
  InternalError: {
    type: 'object',
    properties: { error: { type: 'string', enum: ['Internal Server Error'] }, code: { type: 'string' }, message: { type: 'string' } },
  },
  Pagination: {
    type: 'object',
    properties: {
      page: { type: 'integer' },
      limit: { type: 'integer' },
      total: { type: 'integer' },
      totalPages: { type: 'integer' },
    },
  },
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

export const jsonContent = (schema: unknown) => ({ content: { 'application/json': { schema } } });

export const errorResponses = {
  400: { description: 'Invalid request (VALIDATION_ERROR with details per field, BAD_REQUEST, INSUFFICIENT_STOCK)', ...jsonContent(ref('BadRequestError')) },
  401: { description: 'Missing or invalid credentials (MISSING_AUTHORIZATION, INVALID_API_KEY, REVOKED_API_KEY, EXPIRED_API_KEY, INVALID_TOKEN)', ...jsonContent(ref('Error')) },
  403: { description: 'Not allowed (INSUFFICIENT_SCOPE, FORBIDDEN, INACTIVE_ORGANIZATION, IP_RESTRICTION)', ...jsonContent(ref('ForbiddenError')) },
  404: { description: 'Does not exist or belongs to another organization', ...jsonContent(ref('Error')) },
  409: { description: 'Conflicts with the current state', ...jsonContent(ref('Error')) },
  413: { description: 'Request body too large (PAYLOAD_TOO_LARGE, with maxBodyBytes)', ...jsonContent(ref('PayloadTooLargeError')) },
  429: {
    description:
      'Too many requests from this API key, user or address in the window, or too many sign-in attempts for the account ' +
      'or from the address (RATE_LIMITED). Every limited answer also carries RateLimit-Limit, RateLimit-Remaining, ' +
      'RateLimit-Reset and RateLimit-Policy.',
    headers: { 'Retry-After': { description: 'Seconds until the limit or the lock ends.', schema: { type: 'integer' } } },
    ...jsonContent(ref('RateLimitedError')),
  },
  500: { description: 'Server failure; retry later', ...jsonContent(ref('InternalError')) },
} as const;

/** A 200/201 response plus the named error responses. */
export function responses(success: Record<string, unknown>, errors: (keyof typeof errorResponses)[]) {
  return { ...success, ...Object.fromEntries(errors.map((status) => [status, errorResponses[status]])) };
}

export const schemaRef = ref;

export const nullableString = { type: ['string', 'null'] } as const;

export const pathParam = (name: string, description: string) => ({
  name, in: 'path', required: true, description, schema: { type: 'string' },
});

export const queryParam = (name: string, description: string, schema: Record<string, unknown> = { type: 'string' }, required = false) => ({
  name, in: 'query', required, description, schema,
});
