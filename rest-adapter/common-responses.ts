import { z } from 'zod';
import { ERROR_CODES, type ErrorCode } from '../src/kernel/errors.js';

/**
 * Response pieces every area uses: value shapes (integers, date-times, nullable text), the error bodies and
 * the page-number pagination. A schema with an `id` in its meta becomes a component of the OpenAPI document
 * under that name and is referred to by $ref wherever it appears.
 */
export const integer = z.int();
/**
 * A sum of units over stock lines, lots, transfer lines or locations. Each single quantity is at most
 * 2147483647; a sum may be more (up to 2^53 − 1, still an exact JSON number), so clients must not read it
 * into a 32-bit integer.
 */
export const unitTotal = (description = 'Units, summed.') =>
  z.int().describe(`${description} A sum: it may exceed 2147483647 (at most 2^53 − 1).`);
export const dateTime = z.iso.datetime();
/** A calendar day (YYYY-MM-DD), for example a lot's expiry date. */
export const calendarDate = z.iso.date();
export const nullableString = z.string().nullable();

/** The codes of one HTTP status, from the one code table (src/kernel/errors.ts), so a typed client can narrow on them. */
function codesOf(...statuses: number[]) {
  const codes = Object.entries(ERROR_CODES).filter(([, { status }]) => statuses.includes(status)).map(([code]) => code);
  return z.enum(codes as [string, ...string[]]).describe(`Machine-readable error code: ${codes.map((code) => `${code} (${ERROR_CODES[code as ErrorCode].description})`).join('; ')}`);
}

const message = z.string().describe('What went wrong, in words.');
/** Every REST error answer carries it (src/server/request-log.ts): the id of the request, also in X-Request-Id. */
const requestId = z.string().describe("The request's id (the caller's X-Request-Id, or one the server made): quote it to an operator; the server's log line of the request carries it.").optional();

/** The error body of a status without extra fields: `error` and its `code`. */
const codedError = (status: number, id: string, description: string) => z.object({ error: message, code: codesOf(status), requestId }).meta({ id, description });

export const unauthorizedBody = codedError(401, 'UnauthorizedError', 'The Error body of a 401: missing, unknown, revoked or expired credentials.');
export const unprocessableBody = codedError(422, 'UnprocessableError', 'The Error body of a 422: the Idempotency-Key was sent before with another request.');
export const notFoundBody = codedError(404, 'NotFoundError', "The Error body of a 404: the record does not exist or is not the organization's.");
export const conflictBody = z
  .object({
    error: message,
    code: codesOf(409),
    requestId,
    details: z.record(z.string(), z.array(z.string())).describe('Messages per field, where the state at fault is named by the input that reached it (a cycle count batch over lines another batch counts).').optional(),
    retryAfter: integer.describe('IDEMPOTENCY_KEY_IN_USE: seconds to wait before sending the request again (the same as the Retry-After header).').optional(),
  })
  .meta({ id: 'ConflictError', description: 'The Error body of a 409: the record is in a state that does not allow this, or kept changing.' });

// One schema per status: a oneOf of bodies that share their fields would match both and fail strict validators.
export const badRequestBody = z
  .object({
    error: message,
    code: codesOf(400),
    requestId,
    details: z.record(z.string(), z.array(z.string())).describe('Messages per field (VALIDATION_ERROR).').optional(),
  })
  .meta({ id: 'BadRequestError', description: 'The Error body of a 400: VALIDATION_ERROR carries details, messages per field named by its path (lines.3.quantity).' });

export const forbiddenBody = z
  .object({
    error: message,
    code: codesOf(403),
    requestId,
    permission: z.string().describe('The permission the API key or role does not grant (INSUFFICIENT_SCOPE, FORBIDDEN).').optional(),
    feature: z.string().describe('The missing plan capability (FEATURE_NOT_ENABLED).').optional(),
    planCapability: z.string().describe('The same as feature.').optional(),
    entitlement: z.string().describe('The same as feature (the other description names it so).').optional(),
  })
  .meta({ id: 'ForbiddenError', description: 'The Error body of a 403: the permission the caller lacks, or the plan capability the organization lacks (FEATURE_NOT_ENABLED).' });

export const payloadTooLargeBody = z
  .object({
    error: message,
    code: codesOf(413),
    requestId,
    maxBodyBytes: integer.describe('Largest accepted body for this path in bytes (sent when the body is over it).').optional(),
    maxRows: integer.describe('Most rows accepted in one import request (sent when the request has more rows).').optional(),
    rows: integer.describe('Rows the import request sent (with maxRows).').optional(),
  })
  .meta({ id: 'PayloadTooLargeError', description: 'The Error body of 413 PAYLOAD_TOO_LARGE, with the limit that was passed.' });

export const rateLimitedBody = z
  .object({
    error: message,
    code: codesOf(429),
    requestId,
    retryAfter: integer.describe('Seconds to wait before trying again (the same as the Retry-After header).'),
    limit: integer.describe('ENGINE_BUSY: the forecasting requests one organization may have running at once.').optional(),
  })
  .meta({ id: 'RateLimitedError', description: 'The Error body of 429 RATE_LIMITED, or of ENGINE_BUSY on forecasting paths.' });

export const internalErrorBody = z
  .object({ error: z.string().optional(), code: codesOf(500).optional(), message: z.string().optional(), requestId })
  .meta({ id: 'InternalError' });

/** The fields of a document's units held on one stock line (a lot in a bin): shipments and bookings answer them alike. */
export const stockAllocationFields = {
  id: z.string(),
  stockLineId: z.string(),
  lotId: nullableString,
  lotCode: nullableString,
  binId: nullableString,
  quantity: integer,
};

/** Page-number pagination (products). */
export const pagination = z
  .object({ page: integer, limit: integer, total: integer, totalPages: integer })
  .meta({ id: 'Pagination' });

