// Planning data of the --planning part, added with plain SQL (set-up, not timed) to a database that
// bench/harness/data.ts has loaded with the organization and its 10,000 products. Product n (from its SKU):
//
// - location WH-PLAN: an inventory level per product, daily demand d = 1 + (n div 10) mod 10, reorder point 10d, minimum 5d,
//   maximum 60d, lead time 7 + n mod 14 days (review period the default 28); one stock line per product: 12d units
//   when n mod 10 = 0 (these cross their reorder point in 2 days and need action), else 50d + 100 (they do not within
//   their horizon);
// - 8 weeks of demand history per product at WH-PLAN, 7d a week (80,000 rows); a planner's number (7d a week) on the
//   levels of n mod 7 = 0;
// - 100 suppliers and 100 SENT purchase orders into WH-PLAN: a line of 5d units due in 30 days for n mod 20 = 0 (after
//   the stock-out: EXPEDITE), a line of 100 due in 5 days for n mod 20 = 5;
// - location WH-PLAN-2 with a level and 1,000 units of n mod 40 = 10 (surplus: MOVE);
// - one open sales order at WH-PLAN with 3 backordered of each n mod 50 = 0; one IN_TRANSIT transfer bringing 20 of
//   each n mod 100 = 30.
//
// So 1,000 products need action: 500 EXPEDITE, 250 MOVE, 250 ORDER.
import { openDatabase } from '../../../src/db/database.js';
import { PRODUCT_COUNT } from '../../harness/data.js';

export const LOCATION_CODE = 'WH-PLAN';
export const SURPLUS_CODE = 'WH-PLAN-2';

const N = `substring(p.sku from 7)::int`;
const D = `(1 + (${N} / 10) % 10)`;
const LOCATION = `(SELECT id FROM locations WHERE "organizationId" = $1 AND code = '${LOCATION_CODE}')`;
const SURPLUS = `(SELECT id FROM locations WHERE "organizationId" = $1 AND code = '${SURPLUS_CODE}')`;
const PRODUCTS = `FROM product_masters p WHERE p."organizationId" = $1`;
const ACTOR = `'API_KEY', 'bench-setup'`;

/** Expected answers: how many products need each action. */
export function expectedActions() {
  let expedite = 0;
  let move = 0;
  let order = 0;
  for (let n = 1; n <= PRODUCT_COUNT; n++) {
    if (n % 10 !== 0) continue;
    if (n % 20 === 0) expedite++;
    else if (n % 40 === 10) move++;
    else order++;
  }
  return { EXPEDITE: expedite, MOVE: move, ORDER: order };
}

const STATEMENTS = [
  `INSERT INTO locations (id, "organizationId", code, name, type, "updatedAt") VALUES
     (gen_random_uuid()::text, $1, '${LOCATION_CODE}', 'Planned warehouse', 'WAREHOUSE', now()),
     (gen_random_uuid()::text, $1, '${SURPLUS_CODE}', 'Second warehouse', 'WAREHOUSE', now())`,
  `INSERT INTO inventory_levels (id, "organizationId", "productMasterId", "locationId", "minQuantity", "reorderQuantity", "maxQuantity",
     "expectedLeadTimeDays", "forecastQuantity", "forecastPeriodDays", "updatedAt")
   SELECT gen_random_uuid()::text, $1, p.id, ${LOCATION}, 5 * ${D}, 10 * ${D}, 60 * ${D}, 7 + ${N} % 14,
     CASE WHEN ${N} % 7 = 0 THEN 7 * ${D} END, CASE WHEN ${N} % 7 = 0 THEN 7 END, now() ${PRODUCTS}`,
  `INSERT INTO stock_lines (id, "organizationId", "productMasterId", "locationId", "lineKey", "qtyOnHand", "updatedAt")
   SELECT gen_random_uuid()::text, $1, p.id, ${LOCATION}, '-:-', CASE WHEN ${N} % 10 = 0 THEN 12 * ${D} ELSE 50 * ${D} + 100 END, now() ${PRODUCTS}`,
  `INSERT INTO demand_history (id, "organizationId", "productMasterId", "locationId", channel, "weekStart", "actualUnits", "updatedAt")
   SELECT gen_random_uuid()::text, $1, p.id, ${LOCATION}, 'ALL', date_trunc('week', $2::date)::date - 7 * w, 7 * ${D}, now()
   FROM product_masters p CROSS JOIN generate_series(1, 8) AS w WHERE p."organizationId" = $1`,
  `INSERT INTO suppliers (id, "organizationId", code, name, "leadTimeDays", "updatedAt")
   SELECT gen_random_uuid()::text, $1, 'PLAN-SUP-' || s, 'Supplier ' || s, 10 + s % 20, now() FROM generate_series(0, 99) AS s`,
  `INSERT INTO purchase_orders (id, "organizationId", number, "supplierId", "destinationLocationId", status, "updatedAt")
   SELECT gen_random_uuid()::text, $1, 'PLAN-PO-' || s, su.id, ${LOCATION}, 'SENT', now()
   FROM generate_series(0, 99) AS s JOIN suppliers su ON su."organizationId" = $1 AND su.code = 'PLAN-SUP-' || s`,
  `INSERT INTO purchase_order_lines (id, "purchaseOrderId", "lineNumber", "productMasterId", quantity, "expectedAt")
   SELECT gen_random_uuid()::text, po.id, ${N}, p.id, CASE WHEN ${N} % 20 = 0 THEN 5 * ${D} ELSE 100 END,
     $2::date + CASE WHEN ${N} % 20 = 0 THEN 30 ELSE 5 END
   FROM product_masters p JOIN purchase_orders po ON po."organizationId" = $1 AND po.number = 'PLAN-PO-' || (${N} % 100)
   WHERE p."organizationId" = $1 AND ${N} % 20 IN (0, 5)`,
  `INSERT INTO inventory_levels (id, "organizationId", "productMasterId", "locationId", "reorderQuantity", "maxQuantity", "updatedAt")
   SELECT gen_random_uuid()::text, $1, p.id, ${SURPLUS}, 10, 10, now() ${PRODUCTS} AND ${N} % 40 = 10`,
  `INSERT INTO stock_lines (id, "organizationId", "productMasterId", "locationId", "lineKey", "qtyOnHand", "updatedAt")
   SELECT gen_random_uuid()::text, $1, p.id, ${SURPLUS}, '-:-', 1000, now() ${PRODUCTS} AND ${N} % 40 = 10`,
  `INSERT INTO sales_orders (id, "organizationId", "externalId", "fulfillmentLocationId", status, "updatedAt")
   VALUES (gen_random_uuid()::text, $1, 'PLAN-SO', ${LOCATION}, 'PARTIALLY_ALLOCATED', now())`,
  `INSERT INTO sales_order_lines (id, "salesOrderId", "lineNumber", "productMasterId", "requestedQty", "backorderedQty")
   SELECT gen_random_uuid()::text, so.id, ${N}, p.id, 3, 3
   FROM product_masters p JOIN sales_orders so ON so."organizationId" = $1 AND so."externalId" = 'PLAN-SO'
   WHERE p."organizationId" = $1 AND ${N} % 50 = 0`,
  `INSERT INTO inventory_transfers (id, "organizationId", "sourceLocationId", "destLocationId", status, "expectedAt", "createdByType", "createdBy", "updatedAt")
   VALUES (md5($1 || ':plan-transfer')::uuid::text, $1, ${SURPLUS}, ${LOCATION}, 'IN_TRANSIT', $2::date + 3, ${ACTOR}, now())`,
  `INSERT INTO inventory_transfer_lines (id, "transferId", "lineNumber", "productMasterId", quantity, "shippedQuantity")
   SELECT gen_random_uuid()::text, md5($1 || ':plan-transfer')::uuid::text, ${N}, p.id, 20, 20 ${PRODUCTS} AND ${N} % 100 = 30`,
];

export interface PlanningData {
  locationId: string;
  today: string;
  expected: ReturnType<typeof expectedActions>;
  loaded: { levels: number; stockLines: number; demandRows: number; poLines: number };
}

/** Adds the planning data for `organizationId`, then VACUUM ANALYZE (autovacuum may be off). */
export async function loadPlanningData(target: { databaseUrl?: string; dataDir?: string }, organizationId: string): Promise<PlanningData> {
  const database = await openDatabase({ ...target, migrate: false });
  try {
    const db = database.prisma;
    const today = new Date().toISOString().slice(0, 10);
    for (const sql of STATEMENTS) await db.$executeRawUnsafe(sql, ...(sql.includes('$2') ? [organizationId, today] : [organizationId]));
    await db.$executeRawUnsafe('VACUUM ANALYZE');
    const location = await db.location.findFirstOrThrow({ where: { organizationId, code: LOCATION_CODE }, select: { id: true } });
    const [levels, stockLines, demandRows, poLines] = await Promise.all([
      db.inventoryLevel.count({ where: { organizationId, locationId: location.id } }),
      db.stockLine.count({ where: { organizationId, locationId: location.id } }),
      db.demandHistory.count({ where: { organizationId, locationId: location.id } }),
      db.purchaseOrderLine.count({ where: { purchaseOrder: { organizationId } } }),
    ]);
    const loaded = { levels, stockLines, demandRows, poLines };
    if (levels !== PRODUCT_COUNT || stockLines !== PRODUCT_COUNT || demandRows !== PRODUCT_COUNT * 8) throw new Error(`planning data incomplete: ${JSON.stringify(loaded)}`);
    return { locationId: location.id, today, expected: expectedActions(), loaded };
  } finally {
    await database.close();
  }
}
