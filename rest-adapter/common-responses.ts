import { z } from 'zod';

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

export const errorBody = z
  .object({
    error: z.string().describe('What went wrong, in words.'),
    code: z.string().describe('Machine-readable error code, for example NOT_FOUND or INSUFFICIENT_SCOPE.').optional(),
  })
  .meta({ id: 'Error' });

// One schema per status: a oneOf of bodies that share their fields would match both and fail strict validators.
export const badRequestBody = z
  .intersection(
    errorBody,
    z.object({
      details: z.record(z.string(), z.array(z.string())).describe('Messages per field (VALIDATION_ERROR).').optional(),
    }),
  )
  .meta({ id: 'BadRequestError', description: 'The Error body of a 400: VALIDATION_ERROR carries details, messages per field named by its path (lines.3.quantity).' });

export const forbiddenBody = z
  .intersection(
    errorBody,
    z.object({
      permission: z.string().describe('The permission the API key or role does not grant (INSUFFICIENT_SCOPE, FORBIDDEN).').optional(),
      feature: z.string().describe('The missing plan capability (FEATURE_NOT_ENABLED).').optional(),
      planCapability: z.string().describe('The same as feature.').optional(),
      entitlement: z.string().describe('The same as feature (the other description names it so).').optional(),
    }),
  )
  .meta({ id: 'ForbiddenError', description: 'The Error body of a 403: the permission the caller lacks, or the plan capability the organization lacks (FEATURE_NOT_ENABLED).' });

export const payloadTooLargeBody = z
  .intersection(
    errorBody,
    z.object({
      code: z.enum(['PAYLOAD_TOO_LARGE']),
      maxBodyBytes: integer.describe('Largest accepted body for this path in bytes (sent when the body is over it).').optional(),
      maxRows: integer.describe('Most rows accepted in one import request (sent when the request has more rows).').optional(),
      rows: integer.describe('Rows the import request sent (with maxRows).').optional(),
    }),
  )
  .meta({ id: 'PayloadTooLargeError', description: 'The Error body of 413 PAYLOAD_TOO_LARGE, with the limit that was passed.' });

export const rateLimitedBody = z
  .intersection(
    errorBody,
    z.object({
      code: z.enum(['RATE_LIMITED', 'ENGINE_BUSY']),
      retryAfter: integer.describe('Seconds to wait before trying again (the same as the Retry-After header).'),
      limit: integer.describe('ENGINE_BUSY: the forecasting requests one organization may have running at once.').optional(),
    }),
  )
  .meta({ id: 'RateLimitedError', description: 'The Error body of 429 RATE_LIMITED, or of ENGINE_BUSY on forecasting paths.' });

export const internalErrorBody = z
  .object({ error: z.enum(['Internal Server Error']).optional(), code: z.string().optional(), message: z.string().optional() })
  .meta({ id: 'InternalError' });

/** Page-number pagination (products). */
export const pagination = z
  .object({ page: integer, limit: integer, total: integer, totalPages: integer })
  .meta({ id: 'Pagination' });

