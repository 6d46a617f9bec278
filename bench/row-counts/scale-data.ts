// Data of the --scale part: one organization with N products (SQL, generate_series), 5 locations and one stock line
// per product and location (5 N lines), analyzed. Written with plain SQL so a million products load in minutes; the
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

/** Migrates the database and loads `products` products and their stock; closes it again. */
export async function loadScaleData(databaseUrl: string, products: number): Promise<ScaleData> {
  const database = await openDatabase({ databaseUrl });
  try {
    const db = database.prisma;
    const operator = operatorContext(db, 'bench-scale');
    const org = await createOrganization(operator, { name: 'Scale organization' });
    const { key } = await createApiKey(operator, { organizationId: org.id, name: 'scale', scopes: ['*'] });
    const batch = 250_000;
    for (let from = 1; from <= products; from += batch) {
      const to = Math.min(products, from + batch - 1);
      await db.$executeRawUnsafe(
        `INSERT INTO product_masters (id, "organizationId", sku, name, description, "unitCost", "updatedAt")
         SELECT gen_random_uuid()::text, $1, 'SCALE-' || lpad(n::text, 7, '0'), 'Scale product ' || n, 'A product of the scale run', (n % 500) / 4.0 + 0.5, now()
         FROM generate_series($2::int, $3::int) AS n`,
        org.id, from, to,
      );
    }
    await db.$executeRawUnsafe(
      `INSERT INTO locations (id, "organizationId", code, name, type, "updatedAt")
       SELECT gen_random_uuid()::text, $1, 'SCALE-LOC-' || k, 'Scale location ' || k, 'WAREHOUSE', now() FROM generate_series(1, ${SCALE_LOCATIONS}) AS k`,
      org.id,
    );
    const locations = await db.location.findMany({ where: { organizationId: org.id }, select: { id: true }, orderBy: { code: 'asc' } });
    for (const location of locations) {
      await db.$executeRawUnsafe(
        `INSERT INTO stock_lines (id, "organizationId", "productMasterId", "locationId", "lineKey", "qtyOnHand", "qtyReserved", "updatedAt")
         SELECT gen_random_uuid()::text, $1, p.id, $2, '-:-', 100 + (abs(hashtext(p.id)) % 900), 0, now()
         FROM product_masters p WHERE p."organizationId" = $1`,
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
