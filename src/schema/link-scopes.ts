import type { Permission } from '../auth/permissions.js';
import { NODE_TABLES, type NodeTypeName } from '../services/node/node-types.js';

/**
 * The authScopes of a field linking to an entity of this type: what `node` and the entity's own lookups
 * need to read it (the plan capability first, so a plan without it answers FEATURE_NOT_ENABLED).
 */
export function readScopesOf(type: NodeTypeName) {
  const readable: { permission: Permission; capability?: string; session?: boolean } = NODE_TABLES[type].readable;
  return {
    $all: {
      ...(readable.capability ? { capability: readable.capability } : {}),
      permission: readable.permission,
      ...(readable.session ? { session: true } : {}),
    },
  } as const;
}
