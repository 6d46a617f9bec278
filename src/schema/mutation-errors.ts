import type { DomainError } from '../kernel/errors.js';
import { builder } from './builder.js';
import { ErrorCodeEnum } from './error-code.js';
import { MUTATION_ERROR_INTERFACE, REFUSAL_KINDS, type RefusalTypeName } from './refusal-kinds.js';

interface FieldMessages {
  field: string;
  messages: string[];
}

const FieldError = builder.objectRef<FieldMessages>('FieldError').implement({
  description: 'One field at fault in a refused input, and what is wrong with it.',
  fields: (t) => ({
    field: t.exposeString('field', { description: 'Path of the field in the input, for example `quantity` or `items.0.locationId`.' }),
    messages: t.exposeStringList('messages', { description: 'What is wrong with it.' }),
  }),
});

export const MutationError = builder.interfaceRef<DomainError>(MUTATION_ERROR_INTERFACE).implement({
  description:
    'A mutation refused its input for a business reason (invalid, unknown, conflicting with the current state, not enough stock), ' +
    'answered as the mutation\'s result: nothing was written. Credential and permission failures are not refusals: they come in the ' +
    'top-level `errors`, with `extensions.code`.',
  fields: (t) => ({
    code: t.field({ type: ErrorCodeEnum, description: 'The error code (the same as REST answers).', resolve: (error) => error.code }),
    message: t.exposeString('message', { description: 'What was refused, in words.' }),
    fields: t.field({
      type: [FieldError],
      description: 'The fields at fault, each with its messages (REST\'s `details`); empty when the refusal is not about a field.',
      resolve: (error) => Object.entries(error.details ?? {}).map(([field, messages]) => ({ field, messages })),
    }),
  }),
});

const DESCRIPTIONS: Record<RefusalTypeName, string> = {
  ValidationError: 'The input is not acceptable (VALIDATION_ERROR, BAD_REQUEST): `fields` names each field at fault.',
  NotFoundError: "A record the input names does not exist or is not the organization's (NOT_FOUND).",
  ConflictError:
    'The record is in a state that does not allow this (INVALID_STATE), or it kept changing while the change was applied (CONFLICT; retrying may succeed).',
  InsufficientStockError:
    'The change would take a quantity below zero or below what is reserved, held, picked, recalled or expired (INSUFFICIENT_STOCK): `fields` names the quantity at fault.',
};

for (const [name, kind] of Object.entries(REFUSAL_KINDS) as [RefusalTypeName, (typeof REFUSAL_KINDS)[RefusalTypeName]][]) {
  builder.objectType(kind, { name, description: DESCRIPTIONS[name], interfaces: [MutationError] });
}
