// Data of the --scale part: one organization with N products (SQL, generate_series), 5 locations and one stock line
// per product and location (5 N lines), analyzed; ids time-ordered as the service writes them (UUID v7). Written with plain SQL so a million products load in minutes; the
// triggers that keep list totals and location_products run as they would for any writer.
import { operatorContext } from '../../src/context.js';
import { openDatabase } from '../../src/db/database.js';
import { createApiKey, createOrganization } from '../../src/services/admin/admin.js';

export const SCALE_LOCATIONS = 5;

export interface ScaleData {
  key: string;
  organizationId: string;
  locationIds: string[];
  /** Existing SKUs to look up (spread over the catalog). */
  skus: string[];
}

const sku = (n: number) => `SCALE-${String(n).padStart(7, '0')}`;

/**
 * An id as the service writes them (UUID version 7, src/db/ids.ts): its first 48 bits the millisecond `ms`, so rows
 * written later have larger ids and a newest-first or id-ordered page reads rows stored together, as it does for data
 * written through the service. `seed` gives the random bits.
 */
const uuid7Sql = (ms: string, seed: string) => `(SELECT substr(x, 1, 8) || '-' || substr(x, 9, 4) || '-' || substr(x, 13, 4) || '-' || substr(x, 17, 4) || '-' || substr(x, 21, 12)
  FROM (SELECT lpad(to_hex(${ms}), 12, '0') || '7' || substr(h, 1, 3) || '8' || substr(h, 4, 15) AS x FROM md5(${seed}) AS h) v)`;

/** Migrates the database and loads `products` products and their stock; closes it again. */
export async function loadScaleData(databaseUrl: string, products: number): Promise<ScaleData> {
  const database = await openDatabase({ databaseUrl });
  try {
    const db = database.prisma;
    const operator = operatorContext(db, 'bench-scale');
    const org = await createOrganization(operator, { name: 'Scale organization' });
    const { key } = await createApiKey(operator, { organizationId: org.id, name: 'scale', scopes: ['*'] });
    // Product n was written at millisecond start + n, a location's lines after every product, in product order.
    const start = Date.now() - products * (SCALE_LOCATIONS + 1) - 60_000;
    const batch = 250_000;
    for (let from = 1; from <= products; from += batch) {
      const to = Math.min(products, from + batch - 1);
      await db.$executeRawUnsafe(
        `INSERT INTO product_masters (id, "organizationId", sku, name, description, "unitCost", "updatedAt")
         SELECT ${uuid7Sql(`${start}::bigint + n`, `'p' || n`)}, $1, 'SCALE-' || lpad(n::text, 7, '0'), 'Scale product ' || n, 'A product of the scale run', (n % 500) / 4.0 + 0.5, now()
         FROM generate_series($2::int, $3::int) AS n ORDER BY n`,
        org.id, from, to,
      );
    }
    await db.$executeRawUnsafe(
      `INSERT INTO locations (id, "organizationId", code, name, type, "updatedAt")
       SELECT gen_random_uuid()::text, $1, 'SCALE-LOC-' || k, 'Scale location ' || k, 'WAREHOUSE', now() FROM generate_series(1, ${SCALE_LOCATIONS}) AS k`,
      org.id,
    );
    const locations = await db.location.findMany({ where: { organizationId: org.id }, select: { id: true }, orderBy: { code: 'asc' } });
    for (const [k, location] of locations.entries()) {
      await db.$executeRawUnsafe(
        `INSERT INTO stock_lines (id, "organizationId", "productMasterId", "locationId", "lineKey", "qtyOnHand", "qtyReserved", "updatedAt")
         SELECT ${uuid7Sql(`${start + (k + 1) * products}::bigint + q.n`, `'l' || $2 || q.n`)}, $1, q.id, $2, '-:-', 100 + (abs(hashtext(q.id)) % 900), 0, now()
         FROM (SELECT p.id, row_number() OVER (ORDER BY p.id) AS n FROM product_masters p WHERE p."organizationId" = $1) q ORDER BY q.n`,
        org.id, location.id,
      );
    }
    await db.$executeRawUnsafe('VACUUM ANALYZE');
    const step = Math.max(1, Math.floor(products / 500));
    const skus = Array.from({ length: Math.min(500, products) }, (_, i) => sku(1 + i * step));
    return { key, organizationId: org.id, locationIds: locations.map((l) => l.id), skus };
  } finally {
    await database.close();
  }
}
