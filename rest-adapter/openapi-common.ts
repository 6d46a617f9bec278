import type { z } from 'zod';
import { badRequestBody, conflictBody, forbiddenBody, internalErrorBody, notFoundBody, payloadTooLargeBody, rateLimitedBody, unauthorizedBody, unprocessableBody } from './common-responses.js';

/** Shared OpenAPI helpers: the error responses and the pieces every area's route docs use. */
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** A JSON body: a zod schema (responses; generated when the document is built) or JSON Schema written out (import rows). */
export const jsonContent = (schema: z.ZodType | Record<string, unknown>) => ({ content: { 'application/json': { schema } } });

export const errorResponses = {
  400: { description: 'Invalid request (VALIDATION_ERROR with details per field, BAD_REQUEST, INSUFFICIENT_STOCK)', ...jsonContent(badRequestBody) },
  401: { description: 'Missing or invalid credentials (MISSING_AUTHORIZATION, INVALID_API_KEY, REVOKED_API_KEY, EXPIRED_API_KEY, INVALID_TOKEN)', ...jsonContent(unauthorizedBody) },
  403: { description: 'Not allowed (INSUFFICIENT_SCOPE, FORBIDDEN, INACTIVE_ORGANIZATION, IP_RESTRICTION)', ...jsonContent(forbiddenBody) },
  404: { description: 'Does not exist or belongs to another organization', ...jsonContent(notFoundBody) },
  409: { description: 'Conflicts with the current state', ...jsonContent(conflictBody) },
  422: { description: 'The Idempotency-Key was already sent with another request: method, path, caller or body (IDEMPOTENCY_KEY_MISMATCH)', ...jsonContent(unprocessableBody) },
  413: { description: 'Request body too large (PAYLOAD_TOO_LARGE, with maxBodyBytes)', ...jsonContent(payloadTooLargeBody) },
  429: {
    description:
      'Too many requests from this API key, user or address in the window, or too many sign-in attempts for the account ' +
      'or from the address (RATE_LIMITED). Every limited answer also carries RateLimit-Limit, RateLimit-Remaining, ' +
      'RateLimit-Reset and RateLimit-Policy. On forecasting paths: ENGINE_BUSY when the organization already has ' +
      'FORECAST_REQUESTS_PER_ORGANIZATION forecasting requests running.',
    headers: { 'Retry-After': { description: 'Seconds until the limit or the lock ends.', schema: { type: 'integer' } } },
    ...jsonContent(rateLimitedBody),
  },
  500: { description: 'Server failure; retry later', ...jsonContent(internalErrorBody) },
} as const;

/** The Idempotency-Key header every authenticated POST takes (docs/idempotency.md). */
export const idempotencyKeyParameter = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes a retry of this request safe: the same key with the same request (method, path, caller, body) answers what the first answer was, ' +
    'status and body, with the header Idempotent-Replayed: true, without doing the work again; while the first still runs, 409 IDEMPOTENCY_KEY_IN_USE ' +
    '(Retry-After); the same key with another request, 422 IDEMPOTENCY_KEY_MISMATCH. Keys are the organization\'s and kept 24 hours ' +
    '(IDEMPOTENCY_KEY_TTL_HOURS). A failure of the server (5xx) keeps nothing: the retry runs afresh. Send a new random UUID per request.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[!-~]+$' },
};

/** A 200/201 response plus the named error responses. */
export function responses(success: Record<string, unknown>, errors: (keyof typeof errorResponses)[]) {
  return { ...success, ...Object.fromEntries(errors.map((status) => [status, errorResponses[status]])) };
}

export const schemaRef = ref;

export const pathParam = (name: string, description: string) => ({
  name, in: 'path', required: true, description, schema: { type: 'string' },
});
