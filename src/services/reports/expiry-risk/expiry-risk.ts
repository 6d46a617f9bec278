// Expiry risk: the lots of a location expiring in a window, and how much of each will not sell before it expires.
//
// Demand per day is the planning one (demandRateSql with fallbacks). It is served first expiry first out, as
// the reservations service picks: over the days from today to a lot's expiry date (the expiry day itself not
// counted, so the estimate errs toward risk) the product's cumulative demand is D = rate × days. The units of
// lots 1..i (by expiry) sold by lot i's expiry are S_i = min(S_(i-1) + free_i, D_i), which unrolls to
// S_i = Q_i + min(0, min over j <= i of (D_j − Q_j)), Q being the running sum of free units: one window
// function, no loop. Lot i sells S_i − S_(i-1) (whole units: the floors of S).
// Free units can meet new demand: on hand less reserved, held, picked, recalled and expired. Reserved and
// picked units are already promised and count as selling; held and recalled ones do not sell. A lot past its
// expiry date (a window starting before today) sells nothing. At risk = quantity − expected to sell, where
// quantity is on hand not yet marked expired; value at the product's unit cost (none: 0).
import type { z } from 'zod';
import { EXPIRY_RISK_DEFAULT_DAYS, EXPIRY_RISK_MAX_ROWS, type expiryRiskQuery } from '../../../contracts/reports/expiry-risk/expiry-risk-query.js';
import type { RequestContext } from '../../../context.js';
import { calendarDate } from '../../../kernel/input-limits.js';
import { checkFilterIds } from '../../filter-ids.js';
import { demandRateSql, type DemandRateSource } from '../../planning/projection/demand-rate.js';
import { startOfTodayUtc } from '../../inventory/stock-lines/quantities.js';
import { orgId } from '../../tenant.js';

export type ExpiryRiskQuery = z.output<typeof expiryRiskQuery>;

export interface ExpiryRiskItem {
  lotId: string;
  lotCode: string;
  productMasterId: string;
  sku: string;
  productName: string;
  locationId: string;
  expiryDate: Date;
  daysLeft: number;
  quantity: number;
  reserved: number;
  onHold: number;
  recalled: number;
  unitCost: number | null;
  value: number;
  demandPerDay: number;
  demandSource: DemandRateSource | null;
  expectedToSell: number;
  atRiskUnits: number;
  atRiskValue: number;
}

const DAY_MS = 86_400_000;

export async function expiryRisk(ctx: RequestContext, query: ExpiryRiskQuery): Promise<ExpiryRiskItem[]> {
  await checkFilterIds(ctx, { locationId: query.locationId });
  const organizationId = orgId(ctx);
  const locationId = query.locationId;
  const from = query.from ? calendarDate(query.from)! : startOfTodayUtc();
  const to = query.to ? calendarDate(query.to)! : new Date(from.getTime() + EXPIRY_RISK_DEFAULT_DAYS * DAY_MS);
  // The chain of a product starts at today's lots even when the window starts later: earlier lots eat demand first.
  return ctx.prisma.$queryRaw<ExpiryRiskItem[]>`
    WITH today AS (SELECT (now() AT TIME ZONE 'UTC')::date AS d),
    rates AS (${demandRateSql({ organizationId, locationId, fallbacks: true })}),
    lot_stock AS (
      SELECT s."productMasterId" AS p, s."lotId" AS lot, l.code, l."expiryDate" AS exp,
        SUM(s."qtyOnHand" - s."qtyExpired")::bigint AS qty,
        SUM(s."qtyReserved" + s."qtyPicked")::bigint AS promised,
        SUM(s."qtyReserved")::bigint AS reserved, SUM(s."qtyOnHold")::bigint AS held, SUM(s."qtyRecalled")::bigint AS recalled,
        SUM(s."qtyOnHand" - s."qtyReserved" - s."qtyOnHold" - s."qtyPicked" - s."qtyRecalled" - s."qtyExpired")::bigint AS free
      FROM stock_lines s JOIN lots l ON l.id = s."lotId"
      WHERE s."organizationId" = ${organizationId} AND s."locationId" = ${locationId} AND s."qtyOnHand" > s."qtyExpired"
        AND l."expiryDate" IS NOT NULL AND l."expiryDate" <= ${to}::date AND l."expiryDate" >= LEAST(${from}::date, (SELECT d FROM today))
      GROUP BY 1, 2, 3, 4
    ),
    chain AS (
      SELECT ls.*, COALESCE(r.rate, 0) AS rate, r.rate_source, (ls.exp - (SELECT d FROM today)) AS days_left,
        SUM(CASE WHEN ls.exp >= (SELECT d FROM today) THEN ls.free ELSE 0 END) OVER fefo AS q_run
      FROM lot_stock ls LEFT JOIN rates r ON r.p = ls.p AND r.loc = ${locationId}
      WINDOW fefo AS (PARTITION BY ls.p ORDER BY ls.exp, ls.code ROWS UNBOUNDED PRECEDING)
    ),
    sold_by AS (
      SELECT c.*, FLOOR(c.q_run + LEAST(0, MIN(c.rate * GREATEST(c.days_left, 0) - c.q_run) OVER fefo))::bigint AS s_run
      FROM chain c
      WINDOW fefo AS (PARTITION BY c.p ORDER BY c.exp, c.code ROWS UNBOUNDED PRECEDING)
    ),
    items AS (
      SELECT b.*, CASE WHEN b.days_left >= 0 THEN b.promised + b.s_run - COALESCE(LAG(b.s_run) OVER (PARTITION BY b.p ORDER BY b.exp, b.code), 0) ELSE 0 END AS expected
      FROM sold_by b
    )
    SELECT i.lot AS "lotId", i.code AS "lotCode", i.p AS "productMasterId", pm.sku, pm.name AS "productName", ${locationId} AS "locationId",
      i.exp AS "expiryDate", i.days_left AS "daysLeft", i.qty::int AS quantity, i.reserved::int AS reserved, i.held::int AS "onHold", i.recalled::int AS recalled,
      pm."unitCost"::float8 AS "unitCost", ROUND(i.qty * COALESCE(pm."unitCost", 0), 2)::float8 AS value,
      ROUND(i.rate::numeric, 4)::float8 AS "demandPerDay", i.rate_source AS "demandSource",
      LEAST(i.expected, i.qty)::int AS "expectedToSell", (i.qty - LEAST(i.expected, i.qty))::int AS "atRiskUnits",
      ROUND((i.qty - LEAST(i.expected, i.qty)) * COALESCE(pm."unitCost", 0), 2)::float8 AS "atRiskValue"
    FROM items i JOIN product_masters pm ON pm.id = i.p
    WHERE i.exp >= ${from}::date
    ORDER BY "atRiskValue" DESC, i.exp, pm.sku, i.code
    LIMIT ${EXPIRY_RISK_MAX_ROWS}`;
}
