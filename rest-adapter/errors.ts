import { Response } from '@whatwg-node/fetch';
import { currentLogger, requestIds } from '../src/kernel/log.js';
import { GraphQLError } from 'graphql';
import { DomainError, ERROR_STATUS, type ErrorCode, isErrorCode, newFieldErrors } from '../src/kernel/errors.js';
import { ClientAborted, clientAbortedResponse } from '../src/kernel/request-body.js';

interface Refusal {
  code: ErrorCode;
  message: string;
  extra: Record<string, unknown>;
}

/**
 * JSON.stringify(body) as UTF-8 bytes, except that a value several top-level keys hold (one list under two names,
 * `items` and `data` of the two documented variants) is written and encoded once and its bytes repeated: a page of
 * 200 channel rows is otherwise serialized twice. Bytes, not text: the response then neither measures a string's
 * UTF-8 length nor encodes it again when writing (a page of 360 KB spent a seventh of its CPU on those two).
 */
export function bodyBytes(body: unknown): Buffer<ArrayBuffer> | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body) || 'toJSON' in body) return utf8(JSON.stringify(body));
  const entries = Object.entries(body);
  const shared = entries.some(([, value], i) => value !== null && typeof value === 'object' && entries.findIndex(([, other]) => other === value) !== i);
  if (!shared) return utf8(JSON.stringify(body));
  const written = new Map<unknown, Buffer<ArrayBuffer> | undefined>();
  const parts: Buffer<ArrayBuffer>[] = [];
  let head = '{';
  for (const [key, value] of entries) {
    if (!written.has(value)) written.set(value, utf8(JSON.stringify(value)));
    const bytes = written.get(value);
    if (bytes === undefined) continue;
    parts.push(Buffer.from(`${head}${JSON.stringify(key)}:`), bytes);
    head = ',';
  }
  parts.push(Buffer.from(parts.length ? '}' : '{}'));
  return Buffer.concat(parts);
}

const utf8 = (text: string | undefined) => (text === undefined ? undefined : Buffer.from(text));

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(bodyBytes(body), {
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
 * A client that went away mid-body gets an empty 499 and no log entry: it is not a server failure.
 */
export function errorResponse(error: unknown, request?: Request): Response {
  if (error instanceof ClientAborted) return clientAbortedResponse();
  const domain = asDomainError(error);
  if (!domain) {
    currentLogger().error({ err: error, requestId: request ? requestIds.get(request) : undefined }, 'unexpected error');
    return json(500, { error: 'Internal Server Error', code: 'INTERNAL_SERVER_ERROR', message: 'The request failed; retry later.' });
  }
  const { code, message, extra } = domain;
  const retryAfter = typeof extra.retryAfter === 'number' ? { 'retry-after': String(extra.retryAfter) } : undefined;
  return json(ERROR_STATUS[code] ?? 400, { error: message, code, ...extra }, retryAfter);
}

/** A mutation's typed refusal (a MutationError), as typed-mutation-errors.ts selects it. */
export interface TypedError {
  code: string;
  message: string;
  fields: { field: string; messages: string[] }[];
}

/** The DomainError a typed refusal was made from, so that errorResponse answers it as it answers a thrown one. */
export function refusalOfTypedError({ code, message, fields }: TypedError): DomainError | Error {
  if (!isErrorCode(code)) return new Error(`A typed error has an unknown code: ${code}`);
  if (!fields.length) return new DomainError(code, message);
  const details = newFieldErrors();
  for (const { field, messages } of fields) details[field] = messages;
  return new DomainError(code, message, { details });
}

/** A DomainError (thrown here or by a resolver), or an error of the GraphQL limits that carries one of our codes. */
function asDomainError(error: unknown): Refusal | null {
  if (error instanceof DomainError) return error;
  if (error instanceof GraphQLError) {
    if (error.originalError instanceof DomainError) return error.originalError;
    if (!error.originalError && typeof error.extensions?.code === 'string' && isErrorCode(error.extensions.code)) {
      const { code, ...extra } = error.extensions;
      return { code: code as ErrorCode, message: error.message, extra };
    }
  }
  return null;
}
