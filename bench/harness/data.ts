// Benchmark data: a scratch PostgreSQL database (or a PGlite folder) with one organization, an API key
// and 10,000 products, loaded through the service's own admin functions and Prisma client.
import { operatorContext } from '../../src/context.js';
import pg from 'pg';
import { openDatabase } from '../../src/db/database.js';
import { createApiKey, createOrganization } from '../../src/services/admin/admin.js';

export const PRODUCT_COUNT = 10_000;
const CHUNK = 1000;

export function isLoopbackUrl(url: string): boolean {
  const parsed = new URL(url);
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (host === '') return (parsed.searchParams.get('host') ?? '').startsWith('/');
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** Hides the password of a database URL for messages. */
export function redact(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

/** The server version, or the reason PostgreSQL cannot be used. */
export async function probePostgres(url: string): Promise<{ version: string } | { skip: string }> {
  if (!isLoopbackUrl(url)) return { skip: `${redact(url)} is not a loopback address; the benchmark only uses this machine` };
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000, query_timeout: 5000 });
  try {
    await client.connect();
    const { rows } = await client.query<{ server_version: string }>('SHOW server_version');
    return { version: rows[0]?.server_version ?? 'unknown' };
  } catch (error) {
    return { skip: `${redact(url)} does not answer (${error instanceof Error ? error.message : error})` };
  } finally {
    await client.end().catch(() => {});
  }
}

/** Creates `scm_bench_<pid><suffix>` next to the database of `adminUrl` (anew when it exists); `drop()` removes it. A suffix per database lets several live at once. */
export async function createScratchDatabase(adminUrl: string, suffix = ''): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `scm_bench_${process.pid}${suffix.replace(/\W/g, '')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5000 });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/** Migrates the database, creates the organization, its API key (scope `*`) and the products. Closes it again. */
export async function loadBenchmarkData(target: { databaseUrl?: string; dataDir?: string }): Promise<{ key: string; organizationId: string }> {
  const database = await openDatabase(target);
  try {
    const db = database.prisma;
    const org = await createOrganization(operatorContext(db, 'bench-setup'), { name: 'Benchmark organization' });
    const { key } = await createApiKey(operatorContext(db, 'bench-setup'), { organizationId: org.id, name: 'benchmark', scopes: ['*'] });
    for (let start = 0; start < PRODUCT_COUNT; start += CHUNK) {
      const data = Array.from({ length: Math.min(CHUNK, PRODUCT_COUNT - start) }, (_, i) => {
        const n = start + i + 1;
        return {
          organizationId: org.id,
          sku: `BENCH-${String(n).padStart(6, '0')}`,
          name: `Benchmark product ${n}`,
          description: `Product ${n} of the load test: a ${['small', 'medium', 'large'][n % 3]} item in carton of ${(n % 12) + 1}`,
          unitCost: (n % 500) / 4 + 0.5,
        };
      });
      await db.productMaster.createMany({ data });
    }
    // As autovacuum would eventually: statistics and the visibility map, so plans are the steady-state ones.
    await db.$executeRawUnsafe('VACUUM ANALYZE');
    return { key, organizationId: org.id };
  } finally {
    await database.close();
  }
}
