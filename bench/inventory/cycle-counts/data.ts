// Warehouse data of the cycle-count part (--warehouse), added with plain SQL (set-up, not timed) to a database that
// bench/harness/data.ts has loaded with the organization and its 10,000 products:
//
// - one warehouse location with 400 bins; 3 lots per product; 5 stock lines per product (a lot in a bin: 50,000
//   lines, 10 to 409 on hand);
// - the organization's ABC configuration (70/20/10 %, every 30/60/120 days) and an inventory level per product
//   there: 10% A, 20% B, 65% C, 5% unclassified (counted as C); 1 in 37 never counted, the others last counted
//   between 0 and 1.25 × their class's frequency ago, so about a fifth are overdue;
// - a year of cycle counts: 80 batches of 125 products each (625 lines): 60 old COMPLETED ones, every line resolved;
//   10 recent COMPLETED ones whose exact counts were accepted and whose variances wait; 8 IN_PROGRESS ones with
//   about half their lines counted; 2 CANCELLED ones (their variances never show). About 30% of the counted lines
//   differ from the snapshot by 1 to 9 units, so mode to-resolve has about 2,600 lines.
//
// Every choice is a fixed function of the product number n (from its SKU) and the line number r = 5(n − 1) + k,
// k = 1..5, so every run loads the same data and expectedCounts() can say in plain arithmetic what the service
// must count.
import { openDatabase } from '../../../src/db/database.js';
import { PRODUCT_COUNT } from '../../harness/data.js';

export const LOCATION_CODE = 'WH-COUNT';
export const BIN_COUNT = 400;
export const LOTS_PER_PRODUCT = 3;
export const LINES_PER_PRODUCT = 5;
export const BATCH_COUNT = 80;
/** The organization's ABC configuration (not the defaults, so that reading it is part of the work). */
export const ABC = { aPercent: 70, bPercent: 20, cPercent: 10, aFrequencyDays: 30, bFrequencyDays: 60, cFrequencyDays: 120 };

/** The ABC class of product n: 10% A, 20% B, 5% unclassified, the rest C. */
export function classOf(n: number): 'A' | 'B' | 'C' | null {
  const d = n % 10;
  if (d === 0) return 'A';
  if (d <= 2) return 'B';
  return n % 20 === 19 ? null : 'C';
}
const frequencyOf = (n: number) => ({ A: ABC.aFrequencyDays, B: ABC.bFrequencyDays, C: ABC.cFrequencyDays })[classOf(n) ?? 'C'];
const neverCounted = (n: number) => n % 37 === 0;
/** Days since product n was last counted: 0 to 1.25 × its frequency. */
const daysAgo = (n: number) => Math.floor((((n * 7919) % 1000) * frequencyOf(n) * 5) / 4000);
/** The batch of product n's lines. */
const batchOf = (n: number) => (n - 1) % BATCH_COUNT;
/** Whether line r was counted off (30% of the lines). */
const differs = (r: number) => (r * r * 31 + r * 17) % 1009 < 300;
/** Whether line r of an IN_PROGRESS batch has been counted yet (about half). */
const countedYet = (r: number) => ((r * r * 17 + r * 7) % 997) % 2 === 0;
type Status = 'COMPLETED' | 'OLD' | 'IN_PROGRESS' | 'CANCELLED';
const statusOf = (b: number): Status => (b < 60 ? 'OLD' : b < 70 ? 'COMPLETED' : b < 78 ? 'IN_PROGRESS' : 'CANCELLED');

/** What the service must answer on the loaded data: products at the location, overdue ones, variances to resolve. */
export function expectedCounts() {
  let overdue = 0;
  let toResolve = 0;
  for (let n = 1; n <= PRODUCT_COUNT; n++) {
    if (neverCounted(n) || daysAgo(n) >= frequencyOf(n)) overdue++;
    const status = statusOf(batchOf(n));
    for (let k = 1; k <= LINES_PER_PRODUCT; k++) {
      const r = (n - 1) * LINES_PER_PRODUCT + k;
      if (differs(r) && (status === 'COMPLETED' || (status === 'IN_PROGRESS' && countedYet(r)))) toResolve++;
    }
  }
  return { products: PRODUCT_COUNT, overdue, toResolve };
}

// The same functions in SQL ($1 the organization, $2 today as a date): n and r as above.
const N = `substring(p.sku from 7)::int`;
const CLASS = `CASE WHEN ${N} % 10 = 0 THEN 'A' WHEN ${N} % 10 <= 2 THEN 'B' WHEN ${N} % 20 = 19 THEN NULL ELSE 'C' END`;
const FREQUENCY = `CASE WHEN ${N} % 10 = 0 THEN ${ABC.aFrequencyDays} WHEN ${N} % 10 <= 2 THEN ${ABC.bFrequencyDays} ELSE ${ABC.cFrequencyDays} END`;
const R = `((${N} - 1) * ${LINES_PER_PRODUCT} + k)::bigint`;
const BATCH = `((${N} - 1) % ${BATCH_COUNT})`;
const DIFFERS = `((${R} * ${R} * 31 + ${R} * 17) % 1009 < 300)`;
const COUNTED_YET = `(((${R} * ${R} * 17 + ${R} * 7) % 997) % 2 = 0)`;
/** A batch's id from its number, the same in every statement. */
const BATCH_ID = (b: string) => `md5($1 || ':count-batch:' || ${b})::uuid::text`;
const LOCATION = `(SELECT id FROM locations WHERE "organizationId" = $1 AND code = '${LOCATION_CODE}')`;
/** Each product's k-th line: lot ((k − 1) mod 3) + 1 in one of the 400 bins (two lines of a lot never share a bin). */
const lines = (joins = '') => `
  FROM product_masters p
  CROSS JOIN generate_series(1, ${LINES_PER_PRODUCT}) AS k
  JOIN lots lot ON lot."organizationId" = $1 AND lot."productMasterId" = p.id AND lot.code = 'LOT-' || ((k - 1) % ${LOTS_PER_PRODUCT} + 1)
  JOIN bins bin ON bin."locationId" = ${LOCATION} AND bin.code = 'BIN-' || lpad(((${N} * 7 + k * 53) % ${BIN_COUNT} + 1)::text, 3, '0')
  ${joins}
  WHERE p."organizationId" = $1`;

const STATEMENTS = [
  `INSERT INTO locations (id, "organizationId", code, name, type, "updatedAt")
   VALUES (gen_random_uuid()::text, $1, '${LOCATION_CODE}', 'Counted warehouse', 'WAREHOUSE', now())`,
  `INSERT INTO bins (id, "organizationId", "locationId", code, "updatedAt")
   SELECT gen_random_uuid()::text, $1, ${LOCATION}, 'BIN-' || lpad(b::text, 3, '0'), now() FROM generate_series(1, ${BIN_COUNT}) AS b`,
  `INSERT INTO lots (id, "organizationId", "productMasterId", code, "expiryDate", "updatedAt")
   SELECT gen_random_uuid()::text, $1, p.id, 'LOT-' || j, $2::date + 30 + (${N} * 13 + j * 97) % 700, now()
   FROM product_masters p CROSS JOIN generate_series(1, ${LOTS_PER_PRODUCT}) AS j WHERE p."organizationId" = $1`,
  `INSERT INTO stock_lines (id, "organizationId", "productMasterId", "locationId", "lotId", "binId", "lineKey", "qtyOnHand", "updatedAt")
   SELECT gen_random_uuid()::text, $1, p.id, ${LOCATION}, lot.id, bin.id, lot.id || ':' || bin.id, 10 + (${R} * 7919) % 400, now()
   ${lines()}`,
  `INSERT INTO cycle_count_settings ("organizationId", "aPercent", "bPercent", "cPercent", "aFrequencyDays", "bFrequencyDays", "cFrequencyDays", "updatedAt")
   VALUES ($1, ${ABC.aPercent}, ${ABC.bPercent}, ${ABC.cPercent}, ${ABC.aFrequencyDays}, ${ABC.bFrequencyDays}, ${ABC.cFrequencyDays}, now())`,
  `INSERT INTO inventory_levels (id, "organizationId", "productMasterId", "locationId", "minQuantity", "reorderQuantity", "maxQuantity", "abcClass", "lastCountedAt", "updatedAt")
   SELECT gen_random_uuid()::text, $1, p.id, ${LOCATION}, 20, 40, 400, (${CLASS})::"AbcClass",
     CASE WHEN ${N} % 37 = 0 THEN NULL ELSE ($2::date - ((${N} * 7919) % 1000) * (${FREQUENCY}) * 5 / 4000) + time '10:00' END, now()
   FROM product_masters p WHERE p."organizationId" = $1`,
  // b < 60: old, completed; < 70: completed this fortnight; < 78: in progress; 78, 79: cancelled.
  `INSERT INTO cycle_count_batches (id, "organizationId", "locationId", status, "assigneeId", "createdBy", "snapshotSeq", "createdAt", "updatedAt", "completedAt", "cancelledAt")
   SELECT ${BATCH_ID('b')}, $1, ${LOCATION},
     (CASE WHEN b < 70 THEN 'COMPLETED' WHEN b < 78 THEN 'IN_PROGRESS' ELSE 'CANCELLED' END)::"CycleCountBatchStatus",
     'counter-' || (b % 4), 'bench-setup', 0, c.created, c.created,
     CASE WHEN b < 70 THEN c.created + interval '1 day' END, CASE WHEN b >= 78 THEN c.created + interval '1 day' END
   FROM generate_series(0, ${BATCH_COUNT - 1}) AS b
   CROSS JOIN LATERAL (SELECT $2::date - (CASE WHEN b < 60 THEN 360 - b * 5 WHEN b < 70 THEN 80 - b ELSE 79 - b END) + time '08:00' AS created) AS c`,
  // Every line of every batch, from the snapshot (on hand then = on hand now: nothing moved since). A line is counted
  // unless its batch is in progress and it has not been reached; a counted line differs by ±1..9 when DIFFERS.
  // Old batches: every line ACCEPTED; recent completed ones: the exact counts ACCEPTED (tolerance 0), variances waiting.
  `INSERT INTO cycle_count_lines (id, "batchId", "organizationId", "locationId", "productMasterId", sku, "lotId", "binId", "stockLineId", "snapshotQty", "snapshotSeq",
     "countedQty", "expectedQty", "countedSeq", "countedAt", "countedBy", resolution, "resolvedAt", "resolvedBy", "correctionQty", "unitCost", "varianceRank")
   SELECT gen_random_uuid()::text, ${BATCH_ID(BATCH)}, $1, ${LOCATION}, p.id, p.sku, lot.id, bin.id, s.id, s."qtyOnHand", 0,
     CASE WHEN x.counted THEN s."qtyOnHand" + x.delta END, CASE WHEN x.counted THEN s."qtyOnHand" END, CASE WHEN x.counted THEN 0 END,
     CASE WHEN x.counted THEN bt."createdAt" + interval '3 hours' END, CASE WHEN x.counted THEN bt."assigneeId" END,
     CASE WHEN ${BATCH} < 60 OR (${BATCH} < 70 AND x.delta = 0) THEN 'ACCEPTED' END,
     CASE WHEN ${BATCH} < 60 OR (${BATCH} < 70 AND x.delta = 0) THEN bt."completedAt" END,
     CASE WHEN ${BATCH} < 60 OR (${BATCH} < 70 AND x.delta = 0) THEN 'bench-setup' END,
     CASE WHEN ${BATCH} < 60 OR (${BATCH} < 70 AND x.delta = 0) THEN x.delta END,
     CASE WHEN x.counted THEN p."unitCost" END,
     CASE WHEN x.counted AND x.delta <> 0 AND ${BATCH} >= 60 AND ${BATCH} < 78 THEN ABS(COALESCE(x.delta * p."unitCost", x.delta))::float8 END
   ${lines(`JOIN stock_lines s ON s."productMasterId" = p.id AND s."locationId" = ${LOCATION} AND s."lineKey" = lot.id || ':' || bin.id
   JOIN cycle_count_batches bt ON bt.id = ${BATCH_ID(BATCH)}
   CROSS JOIN LATERAL (SELECT NOT (${BATCH} BETWEEN 70 AND 77) OR ${COUNTED_YET} AS counted,
     CASE WHEN ${DIFFERS} THEN (CASE WHEN ${R} % 2 = 0 THEN 1 ELSE -1 END) * (1 + (${R} % 9)::int) ELSE 0 END AS delta) AS x`)}`,
];

export interface WarehouseData {
  locationId: string;
  /** Today (UTC) as the data was loaded against it. */
  today: string;
  expected: ReturnType<typeof expectedCounts>;
  /** Rows loaded, for the report. */
  loaded: { stockLines: number; lots: number; bins: number; countLines: number; batches: number };
}

/** Adds the warehouse for `organizationId`, then VACUUM ANALYZE (autovacuum may be off). */
export async function loadWarehouseData(target: { databaseUrl?: string; dataDir?: string }, organizationId: string): Promise<WarehouseData> {
  const database = await openDatabase({ ...target, migrate: false });
  try {
    const db = database.prisma;
    const today = new Date().toISOString().slice(0, 10);
    for (const sql of STATEMENTS) await db.$executeRawUnsafe(sql, ...(sql.includes('$2') ? [organizationId, today] : [organizationId]));
    await db.$executeRawUnsafe('VACUUM ANALYZE');
    const location = await db.location.findFirstOrThrow({ where: { organizationId, code: LOCATION_CODE }, select: { id: true } });
    const [stockLines, lots, bins, countLines, batches] = await Promise.all([
      db.stockLine.count({ where: { organizationId, locationId: location.id } }),
      db.lot.count({ where: { organizationId } }),
      db.bin.count({ where: { organizationId, locationId: location.id } }),
      db.cycleCountLine.count({ where: { batch: { organizationId } } }),
      db.cycleCountBatch.count({ where: { organizationId } }),
    ]);
    const loaded = { stockLines, lots, bins, countLines, batches };
    if (stockLines !== PRODUCT_COUNT * LINES_PER_PRODUCT || countLines !== stockLines || batches !== BATCH_COUNT) {
      throw new Error(`warehouse data incomplete: ${JSON.stringify(loaded)}`);
    }
    return { locationId: location.id, today, expected: expectedCounts(), loaded };
  } finally {
    await database.close();
  }
}
