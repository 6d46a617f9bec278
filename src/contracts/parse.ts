import type { z } from 'zod';
import { type FieldErrors, newFieldErrors, validationError } from '../kernel/errors.js';

/** Our words for what zod would say in its own: a missing value and a field nobody declared. */
const REQUIRED = 'Required';
const UNKNOWN_FIELD = 'Unknown field';

/** A field's type error: 'Required' when it is missing, else what it must be ('Must be text'). */
export const mustBe = (what: string) => (issue: { input?: unknown }) => (issue.input === undefined ? REQUIRED : `Must be ${what}`);

const join = (prefix: string, path: PropertyKey[]) => [prefix, ...path.map(String)].filter(Boolean).join('.');

/** The issues of a failed parse as `details`, each field named by its path (`lines.3.quantity`), `_` for the whole. */
export function fieldErrors(error: z.ZodError, prefix = '', whole = '_'): FieldErrors {
  const details = newFieldErrors();
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) (details[join(prefix, [...issue.path, key])] ??= []).push(UNKNOWN_FIELD);
      continue;
    }
    (details[join(prefix, issue.path) || whole] ??= []).push(issue.message);
  }
  return details;
}

const ourWords = (issue: { code?: string; input?: unknown; expected?: string }) =>
  issue.input === undefined ? REQUIRED : issue.code === 'invalid_type' && issue.expected === 'object' ? 'Must be an object' : undefined;

/** The parsed value, or the problems as `details`; a problem of the whole value is named `whole`. */
export function checkContract<S extends z.ZodType>(schema: S, input: unknown, prefix = '', whole = '_'): { data: z.output<S> } | { details: FieldErrors } {
  const result = schema.safeParse(input, { error: ourWords });
  return result.success ? { data: result.data } : { details: fieldErrors(result.error, prefix, whole) };
}

/**
 * Parses input with its contract; a failure is 400 VALIDATION_ERROR with messages per field. Every door
 * (REST before it runs an operation, the services behind GraphQL) parses through here, so a value is
 * refused in the same words wherever it comes in.
 */
export function parseContract<S extends z.ZodType>(schema: S, input: unknown, prefix = ''): z.output<S> {
  const result = checkContract(schema, input, prefix);
  if ('details' in result) throw validationError(result.details);
  return result.data;
}
