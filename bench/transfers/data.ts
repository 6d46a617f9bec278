// Transfer data of the benchmark, added with plain SQL (set-up, not timed) to a database that
// bench/harness/data.ts has loaded with the organization and its 10,000 products: 10 locations, an inventory
// level for every product at every location (100,000), and a stock line for every one of them.
//
// A fixed pseudo-random 0..999 per product and location decides its state, so every run loads the same data:
// about 30% of the levels in deficit (some stocked out, some below min, some below reorder), about 30% above
// their maximum, the rest in between; a third of the levels carry a forecast (demand rate) and a lead time.
import { openDatabase } from '../../src/db/database.js';

export const TRANSFER_LOCATIONS = 10;

const HASH = `(((substring(p.sku from 7)::int) * 7919 + k * 104729) % 1000)`;

const STATEMENTS = [
  `INSERT INTO locations (id, "organizationId", code, name, type, "updatedAt")
   SELECT gen_random_uuid()::text, $1, 'XFER-LOC-' || k, 'Transfer location ' || k, 'STORE', now()
   FROM generate_series(1, ${TRANSFER_LOCATIONS}) AS k`,
  `INSERT INTO inventory_levels (id, "organizationId", "productMasterId", "locationId", "minQuantity", "reorderQuantity", "maxQuantity",
     "expectedLeadTimeDays", "forecastQuantity", "forecastPeriodDays", "updatedAt")
   SELECT gen_random_uuid()::text, $1, p.id, loc.id, 20, 40, 120,
     CASE WHEN ${HASH} % 3 = 0 THEN 7 + ${HASH} % 14 END,
     CASE WHEN ${HASH} % 3 = 0 THEN (10 + ${HASH} % 60)::float8 END,
     CASE WHEN ${HASH} % 3 = 0 THEN 30 END,
     now()
   FROM product_masters p
   CROSS JOIN generate_series(1, ${TRANSFER_LOCATIONS}) AS k
   JOIN locations loc ON loc."organizationId" = $1 AND loc.code = 'XFER-LOC-' || k
   WHERE p."organizationId" = $1`,
  `INSERT INTO stock_lines (id, "organizationId", "productMasterId", "locationId", "lotId", "binId", "lineKey", "qtyOnHand", "qtyReserved", "updatedAt")
   SELECT gen_random_uuid()::text, $1, p.id, loc.id, NULL, NULL, '-:-', q.on_hand, q.on_hand / 20, now()
   FROM product_masters p
   CROSS JOIN generate_series(1, ${TRANSFER_LOCATIONS}) AS k
   JOIN locations loc ON loc."organizationId" = $1 AND loc.code = 'XFER-LOC-' || k
   CROSS JOIN LATERAL (SELECT CASE
       WHEN ${HASH} < 50 THEN 0                       -- stocked out
       WHEN ${HASH} < 150 THEN 5 + ${HASH} % 14       -- below min
       WHEN ${HASH} < 300 THEN 21 + ${HASH} % 18      -- below reorder
       WHEN ${HASH} < 700 THEN 45 + ${HASH} % 70      -- between reorder and max
       ELSE 130 + ${HASH} % 400                       -- above max
     END AS on_hand) AS q
   WHERE p."organizationId" = $1`,
];

/** Adds the locations, levels and stock for `organizationId`. */
export async function loadTransferData(target: { databaseUrl?: string; dataDir?: string }, organizationId: string): Promise<{ levels: number; stockLines: number }> {
  const database = await openDatabase({ ...target, migrate: false });
  try {
    const db = database.prisma;
    for (const sql of STATEMENTS) await db.$executeRawUnsafe(sql, organizationId);
    await db.$executeRawUnsafe('VACUUM ANALYZE');
    const [levels, stockLines] = await Promise.all([db.inventoryLevel.count({ where: { organizationId } }), db.stockLine.count({ where: { organizationId } })]);
    return { levels, stockLines };
  } finally {
    await database.close();
  }
}
