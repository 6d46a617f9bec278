import { type GraphQLSchema, Kind, parse, TypeInfo, visit, visitWithTypeInfo } from 'graphql';
import { SCOPE_PERMISSIONS } from '../src/auth/permissions.js';

/** What an operation demands of its caller, read from the authScopes of every field it selects. */
export interface OperationScopes {
  /** Permissions every caller needs (`x-permissions`). */
  permissions: string[];
  /** Plan capabilities the organization needs (`x-plan-capability`). */
  capabilities: string[];
  /** Only a signed-in user may call it (no API key). */
  session: boolean;
  /** The narrowest API-key scopes that grant all the permissions (`x-scopes`); empty when no key may. */
  apiKeyScopes: string[];
}

type ScopeMap = Record<string, unknown>;

/** Walks a Pothos scope map; `$all` and `$any` nest maps, other keys are scopes with their argument. */
function collect(map: ScopeMap, found: { permissions: Set<string>; capabilities: Set<string>; session: boolean }) {
  for (const [name, value] of Object.entries(map)) {
    if (name === '$all' || name === '$any') collect(value as ScopeMap, found);
    else if (name === 'permission') found.permissions.add(String(value));
    else if (name === 'capability') found.capabilities.add(String(value));
    else if (name === 'session' && value === true) found.session = true;
  }
}

function narrowestScopes(permissions: string[], session: boolean): string[] {
  if (session || !permissions.length) return [];
  const granting = Object.entries(SCOPE_PERMISSIONS).filter(
    ([scope, granted]) => scope !== '*' && permissions.every((p) => (granted as readonly string[]).includes(p)),
  );
  const fewest = Math.min(...granting.map(([, granted]) => granted.length));
  return granting.filter(([, granted]) => granted.length === fewest).map(([scope]) => scope);
}

/**
 * The scopes a GraphQL operation demands: Pothos keeps each field's options (authScopes among them) in
 * the field's extensions, so the REST description states what the schema enforces and cannot drift from it.
 */
export function operationScopes(schema: GraphQLSchema, operation: string): OperationScopes {
  const found = { permissions: new Set<string>(), capabilities: new Set<string>(), session: false };
  const typeInfo = new TypeInfo(schema);
  visit(
    parse(operation),
    visitWithTypeInfo(typeInfo, {
      [Kind.FIELD]: () => {
        const options = typeInfo.getFieldDef()?.extensions as { pothosOptions?: { authScopes?: unknown } } | undefined;
        const scopes = options?.pothosOptions?.authScopes;
        if (scopes && typeof scopes === 'object') collect(scopes as ScopeMap, found);
      },
    }),
  );
  const permissions = [...found.permissions].sort();
  return { permissions, capabilities: [...found.capabilities].sort(), session: found.session, apiKeyScopes: narrowestScopes(permissions, found.session) };
}
