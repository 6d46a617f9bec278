// Inventory data of the benchmark, added with plain SQL (fast) to a database that bench/harness/data.ts has
// loaded with the organization and its 10,000 products: 5 locations, one lot per product and location
// (expiry dates over the next year, 2% already expired, 0.5% recalled), one stock line per product,
// location and lot, and 3 channels with an allocation policy at every location.
//
// Location 5 holds the lines the adjustment target picks from: each starts with exactly 1,000 on hand,
// so the ledger alone says what on hand must be afterwards. The hot line (product 1 at location 1)
// also starts at 1,000. Elsewhere on hand is 100..1,000 and a quarter of the lines have 10% reserved.
import { openDatabase } from '../../src/db/database.js';
import { PRODUCT_COUNT } from '../harness/data.js';

export const LOCATION_COUNT = 5;
export const START_ON_HAND = 1000;

export interface InventoryData {
  skus: string[];
  locationIds: string[];
  /** Lines of the across-lines adjustment target: every line at location 5. */
  adjustLineIds: string[];
  adjustLocationId: string;
  hotLineId: string;
}

// A fixed pseudo-random 0..999 per product (n) and location (k), so every run loads the same data.
const HASH = `(((substring(p.sku from 7)::int) * 7919 + k * 104729) % 1000)`;

const STATEMENTS = [
  `INSERT INTO locations (id, "organizationId", code, name, type, "updatedAt")
   SELECT gen_random_uuid()::text, $1, 'BENCH-LOC-' || k, 'Benchmark location ' || k, 'WAREHOUSE', now()
   FROM generate_series(1, ${LOCATION_COUNT}) AS k`,
  `INSERT INTO lots (id, "organizationId", "productMasterId", code, "expiryDate", recalled, "updatedAt")
   SELECT gen_random_uuid()::text, $1, p.id, 'LOT-' || k,
          CASE WHEN ${HASH} < 20 THEN current_date - (1 + ${HASH}) ELSE current_date + 1 + ${HASH} % 365 END,
          ${HASH} BETWEEN 20 AND 24, now()
   FROM product_masters p CROSS JOIN generate_series(1, ${LOCATION_COUNT}) AS k
   WHERE p."organizationId" = $1`,
  `INSERT INTO stock_lines (id, "organizationId", "productMasterId", "locationId", "lotId", "binId", "lineKey", "qtyOnHand", "qtyReserved", "updatedAt")
   SELECT gen_random_uuid()::text, $1, p.id, loc.id, lot.id, NULL, lot.id || ':-', q.on_hand,
          CASE WHEN k = ${LOCATION_COUNT} THEN ${HASH} % 50 WHEN ${HASH} % 4 = 0 THEN q.on_hand / 10 ELSE 0 END, now()
   FROM product_masters p
   CROSS JOIN generate_series(1, ${LOCATION_COUNT}) AS k
   JOIN locations loc ON loc."organizationId" = $1 AND loc.code = 'BENCH-LOC-' || k
   JOIN lots lot ON lot."organizationId" = $1 AND lot."productMasterId" = p.id AND lot.code = 'LOT-' || k
   CROSS JOIN LATERAL (SELECT CASE WHEN k = ${LOCATION_COUNT} THEN ${START_ON_HAND} ELSE 100 + (${HASH} * 37) % 901 END AS on_hand) AS q
   WHERE p."organizationId" = $1`,
  `UPDATE stock_lines s SET "qtyOnHand" = ${START_ON_HAND}, "qtyReserved" = 0
   FROM product_masters p, locations loc
   WHERE s."productMasterId" = p.id AND p."organizationId" = $1 AND p.sku = 'BENCH-000001'
     AND s."locationId" = loc.id AND loc.code = 'BENCH-LOC-1'`,
  `INSERT INTO channels (id, "organizationId", name, type, "updatedAt")
   VALUES (gen_random_uuid()::text, $1, 'Web shop', 'ECOMMERCE', now()),
          (gen_random_uuid()::text, $1, 'Marketplace', 'MARKETPLACE', now()),
          (gen_random_uuid()::text, $1, 'Wholesale', 'B2B', now())`,
  `INSERT INTO channel_allocation_policies (id, "organizationId", "channelId", "locationId", mode, "sharePct", "fixedQuantity", "lowAtpThreshold", "updatedAt")
   SELECT gen_random_uuid()::text, $1, c.id, loc.id, t.mode::"AllocationMode", t.share, t.fixed, t.threshold, now()
   FROM channels c
   JOIN (VALUES ('Web shop', 'SHARE', 0.6::float8, NULL::int, 50), ('Marketplace', 'SHARE', 0.25, NULL, 20), ('Wholesale', 'FIXED', NULL, 200, 100))
     AS t(name, mode, share, fixed, threshold) ON t.name = c.name
   CROSS JOIN locations loc
   WHERE c."organizationId" = $1 AND loc."organizationId" = $1`,
];

/** Adds the inventory data for `organizationId` and returns the ids the load generator picks from. */
export async function loadInventoryData(target: { databaseUrl?: string; dataDir?: string }, organizationId: string): Promise<InventoryData> {
  const database = await openDatabase({ ...target, migrate: false });
  try {
    const db = database.prisma;
    for (const sql of STATEMENTS) await db.$executeRawUnsafe(sql, organizationId);
    await db.$executeRawUnsafe('VACUUM ANALYZE');
    const skus = (await db.productMaster.findMany({ where: { organizationId }, select: { sku: true }, orderBy: { sku: 'asc' } })).map((p) => p.sku);
    const locations = await db.location.findMany({ where: { organizationId }, select: { id: true, code: true }, orderBy: { code: 'asc' } });
    const at = (k: number) => locations.find((l) => l.code === `BENCH-LOC-${k}`)!.id;
    const adjustLineIds = (
      await db.stockLine.findMany({ where: { organizationId, locationId: at(LOCATION_COUNT) }, select: { id: true }, orderBy: { id: 'asc' } })
    ).map((l) => l.id);
    const hot = await db.stockLine.findFirstOrThrow({
      where: { organizationId, locationId: at(1), productMaster: { sku: 'BENCH-000001' } },
      select: { id: true, qtyOnHand: true },
    });
    if (skus.length !== PRODUCT_COUNT || adjustLineIds.length !== PRODUCT_COUNT || hot.qtyOnHand !== START_ON_HAND) {
      throw new Error(`inventory data incomplete: ${skus.length} SKUs, ${adjustLineIds.length} adjustment lines, hot line on hand ${hot.qtyOnHand}`);
    }
    return { skus, locationIds: locations.map((l) => l.id), adjustLineIds, adjustLocationId: at(LOCATION_COUNT), hotLineId: hot.id };
  } finally {
    await database.close();
  }
}
