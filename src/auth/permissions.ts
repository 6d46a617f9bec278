import type { Role } from '../generated/prisma/enums.js';

/** Every permission an operation can require (the dotted names of the published interface). */
export const PERMISSIONS = [
  'products.read',
  'products.write',
  'inventory.read',
  'inventory.write',
  'inventory.adjust',
  'inventory.cyclecount',
  'locations.write',
  'channels.write',
  'categories.write',
  'forecast.read',
  'forecast.write',
  'transfers.read',
  'transfers.write',
  'transfers.approve',
  'transfers.execute',
  'replenishment.read',
  'replenishment.write',
  'stockrequests.read',
  'stockrequests.write',
  'stockrequests.approve',
  'planning.read',
  'planning.write',
  'procurement.read',
  'procurement.write',
  'shipping.read',
  'shipping.write',
  'reports.read',
  'import.read',
  'import.write',
  'admin.read',
  'admin.write',
  // Managing API keys also needs a signed-in user (never an API key): see the `session` auth scope.
  'apikeys.manage',
] as const;

export type Permission = (typeof PERMISSIONS)[number];

const INVENTORY_READ: Permission[] = [
  'products.read', 'inventory.read', 'transfers.read', 'replenishment.read', 'stockrequests.read',
];
const INVENTORY_WRITE: Permission[] = [
  ...INVENTORY_READ, 'products.write', 'inventory.write', 'inventory.adjust', 'inventory.cyclecount',
  'transfers.write', 'replenishment.write', 'stockrequests.write',
];
const READ_ALL: Permission[] = [
  ...INVENTORY_READ, 'forecast.read', 'planning.read', 'procurement.read', 'shipping.read', 'reports.read',
];

/** What each API-key scope grants. `*` grants every permission except API-key management. */
export const SCOPE_PERMISSIONS: Record<string, readonly Permission[]> = {
  'inventory:read': INVENTORY_READ,
  'inventory:write': INVENTORY_WRITE,
  'inventory:*': [...INVENTORY_WRITE, 'transfers.approve', 'transfers.execute', 'stockrequests.approve'],
  'forecast:read': ['forecast.read'],
  'forecast:write': ['forecast.read', 'forecast.write'],
  'planning:*': ['planning.read', 'planning.write', 'transfers.read', 'transfers.write', 'replenishment.read', 'replenishment.write'],
  'procurement:*': ['procurement.read', 'procurement.write'],
  'shipping:*': ['shipping.read', 'shipping.write'],
  'reports:read': ['reports.read'],
  'admin:read': ['admin.read'],
  'admin:write': ['admin.read', 'admin.write', 'locations.write', 'channels.write', 'categories.write'],
  'import:read': ['import.read'],
  'import:write': ['import.read', 'import.write'],
  '*': PERMISSIONS.filter((p) => p !== 'apikeys.manage'),
};

export const API_KEY_SCOPES = Object.keys(SCOPE_PERMISSIONS);

const VIEWER: Permission[] = READ_ALL;
const PLANNER: Permission[] = [
  ...VIEWER, 'forecast.write', 'transfers.write', 'planning.write', 'replenishment.write', 'stockrequests.write', 'import.read',
];
const MANAGER: Permission[] = [
  ...PLANNER, 'products.write', 'inventory.write', 'inventory.adjust', 'inventory.cyclecount',
  'transfers.approve', 'transfers.execute', 'stockrequests.approve', 'procurement.write', 'shipping.write',
  'locations.write', 'channels.write', 'categories.write', 'import.write',
];

/** What each role grants a signed-in user in an organization. */
export const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  VIEWER,
  PLANNER,
  MANAGER,
  ADMIN: PERMISSIONS,
};

export function permissionsForScopes(scopes: readonly string[]): Set<Permission> {
  return new Set(scopes.flatMap((scope) => SCOPE_PERMISSIONS[scope] ?? []));
}

export function permissionsForRole(role: Role): Set<Permission> {
  return new Set(ROLE_PERMISSIONS[role]);
}
