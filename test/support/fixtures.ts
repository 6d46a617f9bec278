import { operatorContext } from '../../src/context.js';
import type { Client } from '../../src/db/database.js';
import { createApiKey, createLocationFor, createOrganization, createUser } from '../../src/services/admin/admin.js';

let n = 0;

/** An organization with an admin user, locations, and API keys: one with every scope and one per given scope set. */
export async function createTenant(db: Client, options: { name?: string; capabilities?: string[]; industry?: string } = {}) {
  const operator = operatorContext(db, 'test-setup');
  const tag = `${process.pid}-${n++}`;
  const org = await createOrganization(operator, { name: options.name ?? `Org ${tag}`, capabilities: options.capabilities ?? [], industry: options.industry });
  const password = 'correct horse battery';
  const admin = await createUser(operator, { organizationId: org.id, email: `admin-${tag}@example.com`, password, role: 'ADMIN' });
  const { key } = await createApiKey(operator, { organizationId: org.id, name: 'all', scopes: ['*'] });
  const warehouse = await createLocationFor(operator, { organizationId: org.id, code: 'WH1', name: 'Main warehouse' });
  return {
    org,
    admin: { ...admin, password },
    key,
    warehouse,
    /** Another key with exactly these scopes. */
    keyWith: async (scopes: string[], { expiresAt, ...extra }: { allowedIps?: string[]; expiresAt?: Date } = {}) => {
      const { apiKey, key } = await createApiKey(operator, { organizationId: org.id, name: scopes.join(' '), scopes, ...extra });
      // A key cannot be created expired: its expiry is set as if time had passed since.
      if (expiresAt) await db.apiKey.update({ where: { id: apiKey.id }, data: { expiresAt } });
      return key;
    },
    /** A user with this role, and their password. */
    userWith: async (role: 'ADMIN' | 'MANAGER' | 'PLANNER' | 'VIEWER') => {
      const user = await createUser(operator, { organizationId: org.id, email: `${role.toLowerCase()}-${tag}-${n++}@example.com`, password, role });
      return { ...user, password };
    },
  };
}

/** What createTenant gives: the organization, its admin, its all-scopes key and its first warehouse. */
export type Tenant = Awaited<ReturnType<typeof createTenant>>;
