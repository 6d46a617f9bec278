import {
  type DocumentNode,
  type GraphQLField,
  type GraphQLSchema,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import type { RequestContext } from '../context.js';
import { DomainError } from '../kernel/errors.js';
import { scopesOf } from './builder.js';

type ScopeMap = Record<string, unknown>;
type Scopes = ReturnType<typeof scopesOf>;

/**
 * Does every way through this scope map need `session`? A map passes when any of its entries passes
 * (`$any`, the default), `$all` when every entry does.
 */
function needsSession(map: ScopeMap, all = false): boolean {
  const entries = Object.entries(map);
  const needs = ([name, value]: [string, unknown]) =>
    name === '$all' ? needsSession(value as ScopeMap, true) : name === '$any' ? needsSession(value as ScopeMap) : name === 'session' && value === true;
  return all ? entries.some(needs) : entries.length > 0 && entries.every(needs);
}

/** Evaluates a scope map with the request's scopes, which throw the documented refusal. */
function check(map: ScopeMap, scopes: Scopes, all = false) {
  let firstError: unknown;
  for (const [name, value] of Object.entries(map)) {
    try {
      const scope = scopes[name as keyof Scopes] as unknown;
      const holds =
        name === '$all' ? check(value as ScopeMap, scopes, true)
        : name === '$any' ? check(value as ScopeMap, scopes)
        : typeof scope === 'function' ? scope(value)
        : scope === true;
      if (holds && !all) return true;
      if (!holds && all) return false;
    } catch (error) {
      if (all) throw error;
      firstError ??= error;
    }
  }
  if (firstError) throw firstError;
  return all;
}

const sessionScopes = new WeakMap<GraphQLField<unknown, unknown>, ScopeMap | null>();

/** The field's authScopes when they need a signed-in user (a session), else null. */
function sessionScopesOf(field: GraphQLField<unknown, unknown>): ScopeMap | null {
  if (!sessionScopes.has(field)) {
    const scopes = (field.extensions as { pothosOptions?: { authScopes?: unknown } }).pothosOptions?.authScopes;
    sessionScopes.set(field, scopes && typeof scopes === 'object' && needsSession(scopes as ScopeMap) ? (scopes as ScopeMap) : null);
  }
  return sessionScopes.get(field)!;
}

/** Does the map name a plan capability anywhere? */
function mentionsCapability(map: ScopeMap): boolean {
  return Object.entries(map).some(([name, value]) =>
    name === '$all' || name === '$any' ? mentionsCapability(value as ScopeMap) : name === 'capability',
  );
}

const planScopes = new WeakMap<GraphQLField<unknown, unknown>, ScopeMap | null>();

/** The field's authScopes when they name a plan capability, else null. */
function planScopesOf(field: GraphQLField<unknown, unknown>): ScopeMap | null {
  if (!planScopes.has(field)) {
    const scopes = (field.extensions as { pothosOptions?: { authScopes?: unknown } }).pothosOptions?.authScopes;
    planScopes.set(field, scopes && typeof scopes === 'object' && mentionsCapability(scopes as ScopeMap) ? (scopes as ScopeMap) : null);
  }
  return planScopes.get(field)!;
}

function rootFieldNames(selectionSet: SelectionSetNode, document: DocumentNode | undefined, seen = new Set<string>()): string[] {
  return selectionSet.selections.flatMap((selection) => {
    if (selection.kind === Kind.FIELD) return [selection.name.value];
    if (selection.kind === Kind.INLINE_FRAGMENT) return rootFieldNames(selection.selectionSet, document, seen);
    const name = selection.name.value;
    const fragment = document?.definitions.find((d) => d.kind === Kind.FRAGMENT_DEFINITION && d.name.value === name);
    if (seen.has(name) || !fragment || fragment.kind !== Kind.FRAGMENT_DEFINITION) return [];
    seen.add(name);
    return rootFieldNames(fragment.selectionSet, document, seen);
  });
}

/**
 * The operation's root fields that only a signed-in user may call, with their scopes. Those scopes
 * depend on the caller alone, so they are checked before the input is: GraphQL coerces variables before
 * any resolver (and its authScopes) runs, which would tell an API key what is wrong with a body it may
 * not send at all.
 */
export function sessionOnlyFields(schema: GraphQLSchema, operation: OperationDefinitionNode, document?: DocumentNode): ScopeMap[] {
  return rootFieldScopes(schema, operation, document, sessionScopesOf);
}

/**
 * The operation's root fields gated by a plan capability (forecasting), with their whole scope maps:
 * capability, then permission. They too depend on the caller alone, so the REST adapter checks them before
 * the input, and an organization without the capability learns FEATURE_NOT_ENABLED whatever it sent.
 */
export function planGatedFields(schema: GraphQLSchema, operation: OperationDefinitionNode, document?: DocumentNode): ScopeMap[] {
  return rootFieldScopes(schema, operation, document, planScopesOf);
}

const credentialScopes = new WeakMap<GraphQLField<unknown, unknown>, ScopeMap | null>();

/** The field's authScopes unless it is open to anyone (`public`), else null. */
function credentialScopesOf(field: GraphQLField<unknown, unknown>): ScopeMap | null {
  if (!credentialScopes.has(field)) {
    const scopes = (field.extensions as { pothosOptions?: { authScopes?: unknown } }).pothosOptions?.authScopes;
    const map = scopes && typeof scopes === 'object' ? (scopes as ScopeMap) : {};
    credentialScopes.set(field, map.public === true ? null : map);
  }
  return credentialScopes.get(field)!;
}

/**
 * A request without credentials that selects a root field which needs them is refused as a whole
 * (MISSING_AUTHORIZATION), not field by field: it could read nothing but the public fields.
 */
export function assertCredentialsIfNeeded(ctx: RequestContext, schema: GraphQLSchema, operation: OperationDefinitionNode, document?: DocumentNode) {
  if (!ctx.auth && rootFieldScopes(schema, operation, document, credentialScopesOf).length) scopesOf(ctx).authenticated();
}

function rootFieldScopes(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  document: DocumentNode | undefined,
  scopesOfField: (field: GraphQLField<unknown, unknown>) => ScopeMap | null,
): ScopeMap[] {
  const root = operation.operation === 'mutation' ? schema.getMutationType() : operation.operation === 'subscription' ? schema.getSubscriptionType() : schema.getQueryType();
  if (!root) return [];
  const fields = root.getFields();
  return rootFieldNames(operation.selectionSet, document).flatMap((name) => {
    const field = fields[name];
    const scopes = field ? scopesOfField(field as GraphQLField<unknown, unknown>) : null;
    return scopes ? [scopes] : [];
  });
}

/** Throws the refusal (FORBIDDEN for an API key, …) when the caller may not call one of these fields. */
export function assertSessionScopes(ctx: RequestContext, fields: ScopeMap[]) {
  if (!fields.length) return;
  const scopes = scopesOf(ctx);
  for (const map of fields) if (!check(map, scopes)) throw new DomainError('FORBIDDEN', 'Not allowed');
}
