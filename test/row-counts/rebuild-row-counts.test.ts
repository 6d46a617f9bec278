import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { databaseForProcesses, runEntry } from '../support/processes.js';

// `npm run admin -- rebuild-row-counts` (docs/lists.md): rows written with the triggers off (as a restore with
// --disable-triggers writes them) are missing from the counters until an operator rebuilds them; the command
// counts them again, through a real CLI process on the file's own database.
const database = databaseForProcesses();

async function withDb<T>(fn: (db: Awaited<ReturnType<typeof openDatabase>>['prisma']) => Promise<T>): Promise<T> {
  const env = database.env();
  const opened = await openDatabase(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL, poolSize: 1 } : { dataDir: env.DATA_DIR! });
  try {
    return await fn(opened.prisma);
  } finally {
    await opened.close();
  }
}

const sums = (db: Awaited<ReturnType<typeof openDatabase>>['prisma']) =>
  db.$queryRaw<{ counted: string; scopeId: string; n: bigint }[]>`
    SELECT counted, "scopeId", SUM(delta)::bigint AS n FROM row_count_deltas GROUP BY 1, 2 ORDER BY 1, 2`.then((rows) =>
    rows.map((r) => [r.counted, r.scopeId === '' ? '' : 'location', Number(r.n)]),
  );

describe('rebuild-row-counts', () => {
  it('counts rows written with the triggers off, and makes location_products anew', { timeout: 180_000 }, async () => {
    await withDb(async (db) => {
      const org = await db.organization.create({ data: { name: 'Restored' } });
      const location = await db.location.create({ data: { organizationId: org.id, code: 'R1', name: 'Restored 1' } });
      // As a restore with triggers disabled writes them: nothing counted, no location_products.
      await db.$transaction(async (tx) => {
        await tx.$executeRawUnsafe("SET LOCAL session_replication_role = 'replica'");
        await tx.$executeRawUnsafe(
          `INSERT INTO product_masters (id, "organizationId", sku, name, "updatedAt") SELECT 'rp-' || n, $1, 'RESTORED-' || n, 'Restored ' || n, now() FROM generate_series(1, 3) AS n`,
          org.id,
        );
        await tx.$executeRawUnsafe(
          `INSERT INTO stock_lines (id, "organizationId", "productMasterId", "locationId", "lineKey", "qtyOnHand", "updatedAt")
           SELECT 'rl-' || n, $1, 'rp-' || n, $2, '-:-', 5, now() FROM generate_series(1, 2) AS n`,
          org.id, location.id,
        );
      });
      expect(await db.rowCountDelta.count({ where: { organizationId: org.id, counted: { in: ['products', 'stock_lines'] } } })).toBe(0);
    });
    const run = await runEntry('src/cli/admin.ts', ['rebuild-row-counts'], database.env());
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout.trimEnd().split('\n').at(-1)!)).toMatchObject({ locationProducts: 2 });
    await withDb(async (db) => {
      expect(await sums(db)).toEqual([
        ['location_products', 'location', 2],
        ['products', '', 3],
        ['stock_lines', '', 2],
        ['stock_lines', 'location', 2],
      ]);
      expect(await db.locationProduct.count()).toBe(2);
    });
  });
});
