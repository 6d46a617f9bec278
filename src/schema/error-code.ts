import { ERROR_CODES } from '../kernel/errors.js';
import { builder } from './builder.js';

/** The service's error codes, from the one table in src/kernel/errors.ts. */
export const ErrorCodeEnum = builder.enumType('ErrorCode', {
  description:
    'Why the service refused or failed: the `code` of a MutationError, and `extensions.code` of an entry in the top-level `errors` (REST answers the same codes in `code`).',
  values: Object.fromEntries(Object.entries(ERROR_CODES).map(([code, { description }]) => [code, { value: code, description }])) as {
    [Code in keyof typeof ERROR_CODES]: { value: Code; description: string };
  },
});
