import { createTenant, type Tenant } from './fixtures.js';
import { startTestServer, type TestServer } from './server.js';

/**
 * The set-up most test files share: a test server over its own fresh database with two organizations,
 * `a` (the caller) and `b` (another tenant whose data must never reach `a`). The caller closes the
 * server in its afterAll.
 */
export async function startServerWithTwoTenants(
  env: Record<string, string> = {},
  tenant: Parameters<typeof createTenant>[1] = {},
): Promise<{ server: TestServer; a: Tenant; b: Tenant }> {
  const server = await startTestServer(env);
  try {
    const a = await createTenant(server.app.prisma, tenant);
    const b = await createTenant(server.app.prisma, tenant);
    return { server, a, b };
  } catch (error) {
    await server.close();
    throw error;
  }
}
