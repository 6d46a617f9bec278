// The inventory summary widget of a location: now from the stock lines, or as of a past moment rebuilt
// from the ledger (the latest stock snapshot at or before it plus the ledger rows after it). Definitions
// are in docs/dashboard.md and in the description of GET /api/dashboard/widgets/inventory-summary.
import type { z } from 'zod';
import type { inventorySummaryQuery } from '../../../contracts/dashboard/inventory-summary/inventory-summary-query.js';
import type { RequestContext } from '../../../context.js';
import { Prisma } from '../../../generated/prisma/client.js';
import { notFound, validationError } from '../../../kernel/errors.js';
import { MAX_WINDOW_DAYS } from '../../../kernel/input-limits.js';
import { totalOf } from '../../../kernel/quantity-totals.js';
import { EXPIRING_WITHIN_DAYS } from '../../inventory/analytics/analytics.js';
import { startOfTodayUtc } from '../../inventory/stock-lines/quantities.js';
import { orgId } from '../../tenant.js';
import { lastQuantitiesCtes } from './stock-snapshots.js';

const DAY_MS = 86_400_000;
/** How far back asOf may go. */
export const AS_OF_MAX_DAYS = MAX_WINDOW_DAYS;
/**
 * Transfers' shippedAt/receivedAt/cancelledAt come from the application's clock, the ledger's createdAt from
 * the database's: a transfer is only ruled out by those dates when they are this far from asOf.
 */
const TRANSFER_CLOCK_SLACK = "interval '1 hour'";

export type InventorySummaryArgs = z.output<typeof inventorySummaryQuery>;

export interface InventorySummary {
  locationId: string;
  asOf: Date;
  onHand: number;
  available: number;
  reserved: number;
  onHold: number;
  picked: number;
  recalled: number;
  expired: number;
  inTransit: number;
  value: number;
  inTransitValue: number;
  productsBelowMin: number;
  productsAboveMax: number;
  productsOutOfStock: number;
  lotsExpiringSoon: number;
  unitsExpiringSoon: number;
  expiringWithinDays: number;
  computedFrom: { method: 'STOCK_LINES' | 'LEDGER'; snapshotId: string | null; snapshotAt: Date | null; ledgerRows: number };
}

// timestamp(3) columns hold UTC; converting explicitly keeps comparisons independent of the session time zone.
const utc = (date: Date) => Prisma.sql`(${date.toISOString()}::timestamptz AT TIME ZONE 'UTC')`;
const day = (date: Date) => Prisma.sql`${date.toISOString().slice(0, 10)}::date`;

/** The snapshot a rebuild as of `asOf` starts from: the organization's latest at or before it (null: from the ledger's start). */
export interface SnapshotStart {
  id: string;
  takenAt: Date;
}

/** The stock lines of the location with their quantities now (the cheap path). */
const liveLines = (organizationId: string, locationId: string) => Prisma.sql`
  lines AS (
    SELECT s.id AS "stockLineId", s."productMasterId", s."lotId", s."qtyOnHand", s."qtyReserved", s."qtyOnHold",
           s."qtyPicked", s."qtyRecalled", s."qtyExpired"
    FROM stock_lines s WHERE s."organizationId" = ${organizationId} AND s."locationId" = ${locationId}
  ),
  ledger AS (SELECT 0::int AS rows)`;

/**
 * The stock lines of the location with their quantities as of `asOf`: for each line and bucket, qtyAfter of
 * its last ledger row at or before asOf (seq breaks ties), else the snapshot's quantity, else 0.
 */
const linesAsOf = (organizationId: string, locationId: string, asOf: Date, snapshot: SnapshotStart | null) => Prisma.sql`
  base AS (
    SELECT b."stockLineId", b."qtyOnHand", b."qtyReserved", b."qtyOnHold", b."qtyPicked", b."qtyRecalled", b."qtyExpired"
    FROM stock_line_snapshots b
    WHERE b."snapshotId" = ${snapshot?.id ?? null}::text AND b."locationId" = ${locationId}
  ),
  rows AS MATERIALIZED (
    SELECT t."stockLineId", t.bucket, t."qtyAfter", t."createdAt", t.seq
    FROM stock_transactions t
    WHERE t."organizationId" = ${organizationId} AND t."locationId" = ${locationId}
      ${snapshot ? Prisma.sql`AND t."createdAt" > ${utc(snapshot.takenAt)}` : Prisma.empty}
      AND t."createdAt" <= ${utc(asOf)}
  ),
  ${lastQuantitiesCtes},
  lines AS (
    SELECT s.id AS "stockLineId", s."productMasterId", s."lotId",
      COALESCE(c.on_hand, b."qtyOnHand", 0) AS "qtyOnHand",
      COALESCE(c.reserved, b."qtyReserved", 0) AS "qtyReserved",
      COALESCE(c.on_hold, b."qtyOnHold", 0) AS "qtyOnHold",
      COALESCE(c.picked, b."qtyPicked", 0) AS "qtyPicked",
      COALESCE(c.recalled, b."qtyRecalled", 0) AS "qtyRecalled",
      COALESCE(c.expired, b."qtyExpired", 0) AS "qtyExpired"
    FROM changed c FULL JOIN base b ON b."stockLineId" = c."stockLineId"
    JOIN stock_lines s ON s.id = COALESCE(c."stockLineId", b."stockLineId")
  ),
  ledger AS (SELECT COUNT(*)::int AS rows FROM rows)`;

/**
 * Units in transit to the location: shipped by inventory transfers heading there (TRANSFER_OUT on-hand rows)
 * and not yet received or returned to the source (TRANSFER_IN on-hand rows), as of `asOf` (null: now).
 */
const inTransitTo = (organizationId: string, locationId: string, asOf: Date | null) => Prisma.sql`
  transit AS (
    SELECT COALESCE(-SUM(t."deltaQty"), 0)::bigint AS units,
           COALESCE(-SUM(t."deltaQty" * COALESCE(p."unitCost", 0)), 0)::float8 AS value
    FROM inventory_transfers tr
    JOIN stock_transactions t ON t."organizationId" = ${organizationId} AND t."sourceType" = 'TRANSFER' AND t."sourceId" = tr.id
      AND t.bucket = 'ON_HAND' AND t."transactionType" IN ('TRANSFER_OUT', 'TRANSFER_IN')
      ${asOf ? Prisma.sql`AND t."createdAt" <= ${utc(asOf)}` : Prisma.empty}
    JOIN product_masters p ON p.id = t."productMasterId"
    WHERE tr."organizationId" = ${organizationId} AND tr."destLocationId" = ${locationId}
      ${
        asOf
          ? Prisma.sql`AND tr."shippedAt" <= ${utc(asOf)} + ${Prisma.raw(TRANSFER_CLOCK_SLACK)}
            AND (tr."receivedAt" IS NULL OR tr."receivedAt" >= ${utc(asOf)} - ${Prisma.raw(TRANSFER_CLOCK_SLACK)})
            AND (tr."cancelledAt" IS NULL OR tr."cancelledAt" >= ${utc(asOf)} - ${Prisma.raw(TRANSFER_CLOCK_SLACK)})`
          : Prisma.sql`AND tr.status = 'IN_TRANSIT'`
      }
  )`;

/**
 * The one statement of the widget. `asOf` null: now, from the stock lines. Available follows the quantity
 * rule of src/services/inventory/stock-lines/quantities.ts (availableQty, lineExcluded): on hand minus
 * reserved, on hold, picked, recalled and expired, at least 0, and 0 for a line whose lot is recalled or
 * expired before the day of asOf.
 */
export function inventorySummarySql(organizationId: string, locationId: string, asOf: Date | null, snapshot: SnapshotStart | null): Prisma.Sql {
  const today = startOfTodayUtc(asOf ?? new Date());
  const lastExpiring = new Date(today.getTime() + EXPIRING_WITHIN_DAYS * DAY_MS);
  return Prisma.sql`
    WITH ${asOf ? linesAsOf(organizationId, locationId, asOf, snapshot) : liveLines(organizationId, locationId)},
    ${inTransitTo(organizationId, locationId, asOf)},
    per_line AS (
      SELECT l.*, lo."expiryDate", COALESCE(p."unitCost", 0) AS cost,
        CASE WHEN l."lotId" IS NOT NULL AND (lo.recalled OR lo."expiryDate" < ${day(today)}) THEN 0
             ELSE GREATEST(0, l."qtyOnHand" - l."qtyReserved" - l."qtyOnHold" - l."qtyPicked" - l."qtyRecalled" - l."qtyExpired") END AS available
      FROM lines l
      JOIN product_masters p ON p.id = l."productMasterId"
      LEFT JOIN lots lo ON lo.id = l."lotId"
    ),
    per_product AS (
      SELECT "productMasterId", SUM(available)::bigint AS available FROM per_line GROUP BY "productMasterId"
    ),
    stocked AS (
      SELECT lv."productMasterId" FROM inventory_levels lv WHERE lv."organizationId" = ${organizationId} AND lv."locationId" = ${locationId}
      UNION
      SELECT s."productMasterId" FROM stock_lines s
      WHERE s."organizationId" = ${organizationId} AND s."locationId" = ${locationId}
        ${asOf ? Prisma.sql`AND s."createdAt" <= ${utc(asOf)}` : Prisma.empty}
    ),
    levels AS (
      SELECT
        COUNT(*) FILTER (WHERE lv."minQuantity" > 0 AND COALESCE(pp.available, 0) < lv."minQuantity")::int AS below_min,
        COUNT(*) FILTER (WHERE lv."maxQuantity" > 0 AND COALESCE(pp.available, 0) > lv."maxQuantity")::int AS above_max
      FROM inventory_levels lv LEFT JOIN per_product pp ON pp."productMasterId" = lv."productMasterId"
      WHERE lv."organizationId" = ${organizationId} AND lv."locationId" = ${locationId}
    ),
    out_of_stock AS (
      SELECT COUNT(*)::int AS products FROM stocked st LEFT JOIN per_product pp ON pp."productMasterId" = st."productMasterId"
      WHERE COALESCE(pp.available, 0) = 0
    ),
    totals AS (
      SELECT
        COALESCE(SUM("qtyOnHand"), 0)::bigint AS on_hand, COALESCE(SUM(available), 0)::bigint AS available,
        COALESCE(SUM("qtyReserved"), 0)::bigint AS reserved, COALESCE(SUM("qtyOnHold"), 0)::bigint AS on_hold,
        COALESCE(SUM("qtyPicked"), 0)::bigint AS picked, COALESCE(SUM("qtyRecalled"), 0)::bigint AS recalled,
        COALESCE(SUM("qtyExpired"), 0)::bigint AS expired,
        COALESCE(SUM("qtyOnHand" * cost), 0)::float8 AS value,
        COUNT(DISTINCT "lotId") FILTER (WHERE "qtyOnHand" > 0 AND "expiryDate" >= ${day(today)} AND "expiryDate" <= ${day(lastExpiring)})::int AS lots_expiring,
        COALESCE(SUM("qtyOnHand") FILTER (WHERE "qtyOnHand" > 0 AND "expiryDate" >= ${day(today)} AND "expiryDate" <= ${day(lastExpiring)}), 0)::bigint AS units_expiring
      FROM per_line
    )
    SELECT t.*, tr.units AS in_transit, tr.value AS in_transit_value, lv.below_min, lv.above_max, o.products AS out_of_stock, g.rows AS ledger_rows
    FROM totals t, transit tr, levels lv, out_of_stock o, ledger g`;
}

export interface SummaryRow {
  on_hand: bigint;
  available: bigint;
  reserved: bigint;
  on_hold: bigint;
  picked: bigint;
  recalled: bigint;
  expired: bigint;
  value: number;
  lots_expiring: number;
  units_expiring: bigint;
  in_transit: bigint;
  in_transit_value: number;
  below_min: number;
  above_max: number;
  out_of_stock: number;
  ledger_rows: number;
}

const round = (value: number) => Math.round(value * 10_000) / 10_000;

/** The snapshot of the organization a rebuild as of `asOf` starts from. */
export async function snapshotBefore(ctx: RequestContext, asOf: Date): Promise<SnapshotStart | null> {
  return ctx.prisma.stockSnapshot.findFirst({
    where: { organizationId: orgId(ctx), takenAt: { lte: asOf } },
    orderBy: { takenAt: 'desc' },
    select: { id: true, takenAt: true },
  });
}

function checkAsOf(asOf: Date, now: Date) {
  if (asOf.getTime() > now.getTime()) throw validationError({ asOf: ['Must not be in the future'] });
  if (asOf.getTime() < now.getTime() - AS_OF_MAX_DAYS * DAY_MS) throw validationError({ asOf: [`Must be at most ${AS_OF_MAX_DAYS} days ago`] });
}

export async function inventorySummary(ctx: RequestContext, args: InventorySummaryArgs): Promise<InventorySummary> {
  const organizationId = orgId(ctx);
  const now = new Date();
  const asOf = args.asOf ? new Date(args.asOf) : null;
  if (asOf) checkAsOf(asOf, now);
  const [location, snapshot] = await Promise.all([
    ctx.prisma.location.count({ where: { id: args.locationId, organizationId } }),
    asOf ? snapshotBefore(ctx, asOf) : null,
  ]);
  if (!location) throw notFound('Location');
  const [row] = await ctx.prisma.$queryRaw<SummaryRow[]>(inventorySummarySql(organizationId, args.locationId, asOf, snapshot));
  return {
    locationId: args.locationId,
    asOf: asOf ?? now,
    onHand: totalOf(row!.on_hand),
    available: totalOf(row!.available),
    reserved: totalOf(row!.reserved),
    onHold: totalOf(row!.on_hold),
    picked: totalOf(row!.picked),
    recalled: totalOf(row!.recalled),
    expired: totalOf(row!.expired),
    inTransit: totalOf(row!.in_transit),
    value: round(row!.value),
    inTransitValue: round(row!.in_transit_value),
    productsBelowMin: row!.below_min,
    productsAboveMax: row!.above_max,
    productsOutOfStock: row!.out_of_stock,
    lotsExpiringSoon: row!.lots_expiring,
    unitsExpiringSoon: totalOf(row!.units_expiring),
    expiringWithinDays: EXPIRING_WITHIN_DAYS,
    computedFrom: {
      method: asOf ? 'LEDGER' : 'STOCK_LINES',
      snapshotId: snapshot?.id ?? null,
      snapshotAt: snapshot?.takenAt ?? null,
      ledgerRows: row!.ledger_rows,
    },
  };
}
