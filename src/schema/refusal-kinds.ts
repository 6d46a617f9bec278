import { DomainError, type ErrorCode } from '../kernel/errors.js';

/** The interface every refusal type implements (its object types are in src/schema/mutation-errors.ts). */
export const MUTATION_ERROR_INTERFACE = 'MutationError';

/**
 * The one mapping from DomainError codes to the GraphQL types a mutation answers a business refusal
 * with. Codes not listed here (credentials, permissions, limits, rate limits) are not refusals of the
 * input: they stay in the response's top-level `errors`, with `extensions.code`.
 */
export const REFUSAL_TYPE_OF_CODE = {
  VALIDATION_ERROR: 'ValidationError',
  BAD_REQUEST: 'ValidationError',
  NOT_FOUND: 'NotFoundError',
  INVALID_STATE: 'ConflictError',
  CONFLICT: 'ConflictError',
  INSUFFICIENT_STOCK: 'InsufficientStockError',
} as const satisfies Partial<Record<ErrorCode, string>>;

export type RefusalTypeName = (typeof REFUSAL_TYPE_OF_CODE)[keyof typeof REFUSAL_TYPE_OF_CODE];

/** What the errors plugin matches with: a class whose instances are the DomainErrors of one kind. */
export type RefusalKind = new (...args: any[]) => DomainError;

/**
 * @pothos/plugin-errors picks a field's typed error with `instanceof` on the classes the field lists.
 * Services throw one class, DomainError, with a code; so each kind is a class that DomainErrors of its
 * codes are instances of (Symbol.hasInstance), and the domain stays unaware of GraphQL.
 */
function refusalKind(typeName: RefusalTypeName): RefusalKind {
  const codes = new Set(Object.entries(REFUSAL_TYPE_OF_CODE).filter(([, name]) => name === typeName).map(([code]) => code));
  const kind = class {
    static [Symbol.hasInstance](value: unknown) {
      return value instanceof DomainError && codes.has(value.code);
    }
  };
  Object.defineProperty(kind, 'name', { value: typeName });
  return kind as unknown as RefusalKind;
}

const typeNames = [...new Set(Object.values(REFUSAL_TYPE_OF_CODE))];

/** Each refusal type's class, by GraphQL type name. */
export const REFUSAL_KINDS = Object.fromEntries(typeNames.map((name) => [name, refusalKind(name)])) as Record<RefusalTypeName, RefusalKind>;
