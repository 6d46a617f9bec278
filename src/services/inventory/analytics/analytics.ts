// Inventory analytics for a period, computed by a few aggregate queries in the database.
//
// Definitions (also in the OpenAPI description of GET /api/inventory/analytics):
// - totalUnits: on hand summed over the stock lines (of the location and category, when given), now.
// - totalValue: on hand × the product's unitCost, summed (a product without unitCost counts 0).
// - outbound units: minus the sum of negative ON_HAND ledger deltas in [from, to], except
//   LOT_CORRECTION, BIN_MOVE and PUT_AWAY rows (stock moved between lots or bins stays in the building).
// - turnoverRate: outbound units ÷ average on hand in the period, for the period (not annualised).
//   Average on hand = (on hand at `from` + on hand at `to`) ÷ 2, each reconstructed from today's on
//   hand minus the ledger deltas after that instant. 0 when the average is 0.
// - averageDaysOnHand: days in the period ÷ turnoverRate; null when turnoverRate is 0 (nothing left).
// - slowMovingItems: (product, location) pairs with on hand > 0 and no outbound movement in the period.
// - expiringItems: stock lines with on hand > 0 whose lot expires from today (UTC) through today + 30
//   days (lots already expired are not counted), whatever the period.
// - inTransitUnits / inTransitValue: units shipped by IN_TRANSIT inventory transfers and not yet
//   received (× unitCost), now: with a location, those heading to it; they are in neither location's
//   on hand (totalUnits), so these say how much stock is on the way.
// - byCategory: value and units per product category; products without a category form one entry
//   with categoryId and categoryName null.
import type { z } from 'zod';
import { analyticsQuery as argsSchema, DATE_ONLY } from '../../../contracts/inventory/analytics/analytics-query.js';
import type { RequestContext } from '../../../context.js';
import { notFound, validationError } from '../../../kernel/errors.js';
import { Prisma } from '../../../generated/prisma/client.js';
import { sumOf, totalOf } from '../../../kernel/quantity-totals.js';
import { orgId, parseInput } from '../../tenant.js';
import { startOfTodayUtc } from '../stock-lines/quantities.js';

const DAY_MS = 24 * 60 * 60 * 1000;
export const DEFAULT_PERIOD_DAYS = 30;
export const EXPIRING_WITHIN_DAYS = 30;

export type AnalyticsArgs = { [K in keyof z.input<typeof argsSchema>]?: z.input<typeof argsSchema>[K] | null };

export interface CategoryAnalytics {
  categoryId: string | null;
  categoryName: string | null;
  value: number;
  units: number;
}

export interface InventoryAnalytics {
  totalValue: number;
  totalUnits: number;
  turnoverRate: number;
  averageDaysOnHand: number | null;
  slowMovingItems: number;
  expiringItems: number;
  inTransitUnits: number;
  inTransitValue: number;
  byCategory: CategoryAnalytics[];
}

const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;

/** A date-only `to` covers that whole day (UTC); a date-only `from` starts at its midnight (UTC). */
function period(fromDate: string | null | undefined, toDate: string | null | undefined, now = new Date()) {
  const to = toDate ? new Date(DATE_ONLY.test(toDate) ? `${toDate}T23:59:59.999Z` : toDate) : now;
  const from = fromDate ? new Date(fromDate) : new Date(to.getTime() - DEFAULT_PERIOD_DAYS * DAY_MS);
  if (from > to) throw validationError({ fromDate: ['Must not be after toDate'] });
  return { from, to };
}

// timestamp(3) columns hold UTC; converting explicitly keeps comparisons independent of the session time zone.
const utc = (date: Date) => Prisma.sql`(${date.toISOString()}::timestamptz AT TIME ZONE 'UTC')`;

export async function inventoryAnalytics(ctx: RequestContext, raw: AnalyticsArgs) {
  const args = parseInput(argsSchema, raw);
  const { from, to } = period(args.fromDate, args.toDate);
  const organizationId = orgId(ctx);
  const { locationId, categoryId } = args;

  const [location, category] = await Promise.all([
    locationId ? ctx.prisma.location.count({ where: { id: locationId, organizationId } }) : 1,
    categoryId ? ctx.prisma.category.count({ where: { id: categoryId, organizationId } }) : 1,
  ]);
  if (!location) throw notFound('Location');
  if (!category) throw notFound('Category');

  // Filters on stock lines `s` (joined to their product `p`) and on ledger rows `t`.
  const byLocation = (alias: string) => (locationId ? Prisma.sql`AND ${Prisma.raw(alias)}."locationId" = ${locationId}` : Prisma.empty);
  const byCategory = categoryId ? Prisma.sql`AND p."categoryId" = ${categoryId}` : Prisma.empty;
  const productJoin = (alias: string) =>
    categoryId ? Prisma.sql`JOIN product_masters p ON p.id = ${Prisma.raw(alias)}."productMasterId"` : Prisma.empty;
  const outbound = Prisma.sql`t.bucket = 'ON_HAND' AND t."deltaQty" < 0 AND t."transactionType" NOT IN ('LOT_CORRECTION', 'BIN_MOVE', 'PUT_AWAY')`;
  const today = startOfTodayUtc();
  const lastExpiring = new Date(today.getTime() + EXPIRING_WITHIN_DAYS * DAY_MS);

  const [categories, [ledger], [slow], [expiring], [moving]] = await Promise.all([
    ctx.prisma.$queryRaw<{ categoryId: string | null; categoryName: string | null; units: bigint; value: number }[]>`
      SELECT p."categoryId" AS "categoryId", c.name AS "categoryName",
        SUM(s."qtyOnHand")::bigint AS units,
        SUM(s."qtyOnHand" * COALESCE(p."unitCost", 0))::float8 AS value
      FROM stock_lines s
      JOIN product_masters p ON p.id = s."productMasterId"
      LEFT JOIN categories c ON c.id = p."categoryId"
      WHERE s."organizationId" = ${organizationId} AND s."qtyOnHand" > 0 ${byLocation('s')} ${byCategory}
      GROUP BY p."categoryId", c.name
      ORDER BY value DESC, c.name NULLS LAST`,
    ctx.prisma.$queryRaw<{ outbound: number; sinceFrom: number; afterTo: number }[]>`
      SELECT
        COALESCE(-SUM(t."deltaQty") FILTER (WHERE ${outbound} AND t."createdAt" <= ${utc(to)}), 0)::float8 AS outbound,
        COALESCE(SUM(t."deltaQty"), 0)::float8 AS "sinceFrom",
        COALESCE(SUM(t."deltaQty") FILTER (WHERE t."createdAt" > ${utc(to)}), 0)::float8 AS "afterTo"
      FROM stock_transactions t ${productJoin('t')}
      WHERE t."organizationId" = ${organizationId} AND t.bucket = 'ON_HAND' AND t."createdAt" >= ${utc(from)}
        ${byLocation('t')} ${byCategory}`,
    ctx.prisma.$queryRaw<{ count: number }[]>`
      SELECT COUNT(*)::int AS count FROM (
        SELECT s."productMasterId", s."locationId"
        FROM stock_lines s ${productJoin('s')}
        WHERE s."organizationId" = ${organizationId} ${byLocation('s')} ${byCategory}
        GROUP BY s."productMasterId", s."locationId"
        HAVING SUM(s."qtyOnHand") > 0
      ) pair
      WHERE NOT EXISTS (
        SELECT 1 FROM stock_transactions t
        WHERE t."organizationId" = ${organizationId} AND t."productMasterId" = pair."productMasterId"
          AND t."locationId" = pair."locationId" AND ${outbound}
          AND t."createdAt" >= ${utc(from)} AND t."createdAt" <= ${utc(to)}
      )`,
    ctx.prisma.$queryRaw<{ count: number }[]>`
      SELECT COUNT(*)::int AS count
      FROM stock_lines s JOIN lots l ON l.id = s."lotId" ${productJoin('s')}
      WHERE s."organizationId" = ${organizationId} AND s."qtyOnHand" > 0 ${byLocation('s')} ${byCategory}
        AND l."expiryDate" >= ${today.toISOString().slice(0, 10)}::date
        AND l."expiryDate" <= ${lastExpiring.toISOString().slice(0, 10)}::date`,
    ctx.prisma.$queryRaw<{ units: bigint; value: number }[]>`
      SELECT COALESCE(SUM(tl."shippedQuantity" - tl."receivedQuantity"), 0)::bigint AS units,
             COALESCE(SUM((tl."shippedQuantity" - tl."receivedQuantity") * COALESCE(p."unitCost", 0)), 0)::float8 AS value
      FROM inventory_transfers tr
      JOIN inventory_transfer_lines tl ON tl."transferId" = tr.id
      JOIN product_masters p ON p.id = tl."productMasterId"
      WHERE tr."organizationId" = ${organizationId} AND tr.status = 'IN_TRANSIT'
        ${locationId ? Prisma.sql`AND tr."destLocationId" = ${locationId}` : Prisma.empty} ${byCategory}`,
  ]);

  const perCategory = categories.map((row) => ({ ...row, units: totalOf(row.units), value: round(row.value, 4) }));
  const totalUnits = sumOf(perCategory, (row) => row.units);
  const totalValue = categories.reduce((sum, row) => sum + row.value, 0);
  const onHandAtFrom = Math.max(0, totalUnits - ledger!.sinceFrom);
  const onHandAtTo = Math.max(0, totalUnits - ledger!.afterTo);
  const averageOnHand = (onHandAtFrom + onHandAtTo) / 2;
  const turnover = averageOnHand > 0 ? ledger!.outbound / averageOnHand : 0;
  const days = (to.getTime() - from.getTime()) / DAY_MS;

  const analytics: InventoryAnalytics = {
    totalValue: round(totalValue, 4),
    totalUnits,
    turnoverRate: round(turnover, 4),
    averageDaysOnHand: turnover > 0 ? round(days / turnover, 2) : null,
    slowMovingItems: slow!.count,
    expiringItems: expiring!.count,
    inTransitUnits: totalOf(moving!.units),
    inTransitValue: round(moving!.value, 4),
    byCategory: perCategory,
  };
  return { analytics, period: { from, to } };
}
