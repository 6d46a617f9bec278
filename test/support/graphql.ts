import { graphql, type GraphQLError } from 'graphql';
import { type App, type AuthInfo, systemContext } from '../../src/context.js';
import { schema } from '../../src/schema/index.js';
import { maskError } from '../../src/server/graphql-errors.js';
import type { Permission } from '../../src/auth/permissions.js';

/**
 * Runs a GraphQL operation in-process as an API key of the organization holding exactly these
 * permissions: for rules no scope or role can isolate (one permission of a pair without the other).
 */
export async function runWithPermissions(app: App, organization: AuthInfo['organization'], permissions: Permission[], source: string, variableValues?: Record<string, unknown>) {
  const ctx = systemContext(app, { organization, actor: { type: 'apiKey', id: 'test', scopes: [] }, origin: '127.0.0.1', permissions });
  const result = await graphql({ schema, source, contextValue: ctx, variableValues });
  // As /graphql answers: DomainErrors in their GraphQL form (code in extensions), the rest masked.
  return result.errors ? { ...result, errors: result.errors.map((error) => maskError(error, 'Unexpected error.') as GraphQLError) } : result;
}

/**
 * Selects a mutation's typed refusal; put it beside the `... on <Result> { … }` of a mutation field. The
 * code is aliased because some results have a `code` of their own (a location's), of another type.
 */
export const REFUSAL = '... on MutationError { __typename errorCode: code message fields { field messages } }';

/** A typed refusal as `{type, code, message, details}`, details keyed by field as REST has them (absent when no field is named). */
export function refusalOf(value: { __typename: string; errorCode: string; message: string; fields: { field: string; messages: string[] }[] }) {
  const details = value.fields.length ? Object.fromEntries(value.fields.map(({ field, messages }) => [field, messages])) : undefined;
  return { type: value.__typename, code: value.errorCode, message: value.message, ...(details ? { details } : {}) };
}
