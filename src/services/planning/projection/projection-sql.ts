// The planning projection as SQL: for each product of a scope at one location, the stock available now, the
// dated inbound and outbound events within a horizon, a linear demand rate and the level's thresholds, from
// which the projected quantity at any day and the first day it falls below a threshold follow analytically
// (per step of the event curve), without a loop over days. docs/planning.md explains each input.
import { MAX_HORIZON_DAYS } from '../../../contracts/planning/projection/stock-projection.js';
import { Prisma } from '../../../generated/prisma/client.js';
import { availableByLocation } from '../../transfers/recommendations/recommendation-rows.js';
import { DEFAULT_LEAD_TIME_DAYS, DEFAULT_REPLENISHMENT_PERIOD_DAYS } from '../../transfers/recommendations/generate-recommendations.js';
import { demandRateSql } from './demand-rate.js';


/** Purchase orders whose open quantity counts as inbound (PENDING ones are not yet committed to a supplier). */
export const OPEN_PO_STATUSES = ['APPROVED', 'SENT', 'PARTIALLY_RECEIVED'] as const;

/** Today in UTC, as a date: day 0 of every projection. */
export const TODAY = Prisma.sql`(now() AT TIME ZONE 'UTC')::date`;

export interface ProjectionScope {
  organizationId: string;
  locationId: string;
  /** These products (with or without an inventory level); null: every product with a level at the location. */
  productMasterIds: readonly string[] | null;
  /** Days ahead; null: per product, lead time + review period (at most MAX_HORIZON_DAYS). */
  horizonDays: number | null;
  /** The review period; null: the level's replenishmentPeriodDays, else DEFAULT_REPLENISHMENT_PERIOD_DAYS. */
  reviewPeriodDays: number | null;
  /**
   * The level whose crossing is the need (column `trigger_q` of `base`, from the columns before it); default the
   * reorder point.
   */
  trigger?: Prisma.Sql;
  /**
   * Only the products that may go below trigger_q within the horizon: available − outbound − demand over the
   * horizon ≤ trigger_q (inbound only raises the curve, so the others cannot cross). `proj` then holds only those.
   */
  atRiskOnly?: boolean;
}

/**
 * Where a step of the projected curve (`s`: its first day, the level after that day's events, the next step's
 * day) first goes below `threshold`, in days from today (fractional), or null when it does not within the step.
 * On a step the quantity is level − rate × day.
 */
export const crossingSql = (threshold: Prisma.Sql) => Prisma.sql`
  CASE WHEN s.level - b.rate * s.day < ${threshold} THEN s.day::float8
       WHEN b.rate > 0 AND (s.level - ${threshold}) / b.rate < COALESCE(s.next_day, 'Infinity'::float8) THEN (s.level - ${threshold}) / b.rate
  END`;

/**
 * CTEs (to follow a WITH) ending in:
 * - base: one row per product (p) with start, min_q, reorder_q, max_q, rate (0 without demand), rate_source
 *   (null without demand), lead_days, lead_source, last_supplier_id, review_days, horizon_days, trigger_q;
 * - evh: the inbound (+) and outbound (−) events within the horizon: p, day (from today), qty, kind, ref (the
 *   purchase order, transfer, recommendation, sales order or booking), supplier_id (purchase orders);
 * - seg: the steps of the curve: p, day, level (quantity after that day's events, before demand), next_day;
 * - proj: base with inbound, outbound (totals in the horizon), reorder_t, min_t, out_t, need_t (days from
 *   today of the first crossing below the reorder point, the minimum, zero and trigger_q; null when none); with
 *   atRiskOnly, only the products that may cross trigger_q.
 */
export function projectionCtes(scope: ProjectionScope): Prisma.Sql {
  const { organizationId, locationId, productMasterIds } = scope;
  const products = productMasterIds
    ? Prisma.sql`SELECT pm.id AS p FROM product_masters pm WHERE pm."organizationId" = ${organizationId} AND pm.id = ANY(${[...productMasterIds]}::text[])`
    : Prisma.sql`SELECT lv."productMasterId" AS p FROM inventory_levels lv WHERE lv."organizationId" = ${organizationId} AND lv."locationId" = ${locationId}`;
  const review = Prisma.sql`COALESCE(${scope.reviewPeriodDays}::int, lv."replenishmentPeriodDays", ${DEFAULT_REPLENISHMENT_PERIOD_DAYS}::int)`;
  const lead = Prisma.sql`COALESCE(lv."expectedLeadTimeDays", lp.lead_days, ${DEFAULT_LEAD_TIME_DAYS}::int)`;
  const trigger = scope.trigger ?? Prisma.sql`reorder_q`;
  // Every level of the location: read once, not matched to prod again.
  const allLevels = Prisma.sql`inventory_levels lv CROSS JOIN LATERAL (SELECT lv."productMasterId" AS p) pr`;
  const inProducts = (column: string) => (productMasterIds ? Prisma.sql`AND ${Prisma.raw(column)} IN (SELECT p FROM prod)` : Prisma.empty);
  return Prisma.sql`
    prod AS (${products}),
    -- One row per product: the location is fixed. Without a product list every line of the location is read
    -- (those of products without a level find no partner below), which is cheaper than matching them to prod.
    avail AS (
      SELECT a."productMasterId" AS p, a.available
      FROM (${availableByLocation(Prisma.sql`s."organizationId" = ${organizationId} AND s."locationId" = ${locationId} ${inProducts('s."productMasterId"')}`)}) a
    ),
    rates AS (
      SELECT r.p, r.rate, r.rate_source
      FROM (${demandRateSql({ organizationId, locationId, productMasterIds, fallbacks: true })}) r
    ),
    last_po AS (
      SELECT DISTINCT ON (pl."productMasterId") pl."productMasterId" AS p, po."supplierId" AS supplier_id, su."leadTimeDays" AS lead_days
      FROM purchase_orders po
      JOIN purchase_order_lines pl ON pl."purchaseOrderId" = po.id
      JOIN suppliers su ON su.id = po."supplierId"
      WHERE po."organizationId" = ${organizationId} AND po.status <> 'CANCELLED' AND pl."productMasterId" IN (SELECT p FROM prod)
      ORDER BY pl."productMasterId", po."createdAt" DESC, po.id DESC
    ),
    levels AS (
      SELECT pr.p, COALESCE(lv."minQuantity", 0) AS min_q, COALESCE(lv."reorderQuantity", 0) AS reorder_q, COALESCE(lv."maxQuantity", 0) AS max_q,
        COALESCE(a.available, 0)::bigint AS start,
        COALESCE(r.rate, 0)::float8 AS rate, r.rate_source,
        ${lead} AS lead_days,
        CASE WHEN lv."expectedLeadTimeDays" IS NOT NULL THEN 'LEVEL' WHEN lp.lead_days IS NOT NULL THEN 'SUPPLIER' ELSE 'DEFAULT' END AS lead_source,
        lp.supplier_id AS last_supplier_id,
        ${review} AS review_days,
        LEAST(${MAX_HORIZON_DAYS}::int, COALESCE(${scope.horizonDays}::int, ${lead} + ${review})) AS horizon_days
      FROM ${productMasterIds ? Prisma.sql`prod pr LEFT JOIN inventory_levels lv ON lv."productMasterId" = pr.p AND lv."locationId" = ${locationId}` : allLevels}
      LEFT JOIN avail a ON a.p = pr.p
      LEFT JOIN rates r ON r.p = pr.p
      LEFT JOIN last_po lp ON lp.p = pr.p
      ${productMasterIds ? Prisma.empty : Prisma.sql`WHERE lv."organizationId" = ${organizationId} AND lv."locationId" = ${locationId}`}
    ),
    base AS (SELECT l.*, (${trigger})::float8 AS trigger_q FROM levels l),
    ev AS (
      SELECT pl."productMasterId" AS p, GREATEST(0, COALESCE(pl."expectedAt", po."expectedAt", ${TODAY} + b.lead_days) - ${TODAY}) AS day,
        (pl.quantity - pl."receivedQuantity")::bigint AS qty, 'PURCHASE_ORDER' AS kind, po.id AS ref, po."supplierId" AS supplier_id
      FROM purchase_orders po
      JOIN purchase_order_lines pl ON pl."purchaseOrderId" = po.id
      JOIN base b ON b.p = pl."productMasterId"
      WHERE po."organizationId" = ${organizationId} AND po."destinationLocationId" = ${locationId}
        AND po.status::text IN (${Prisma.join([...OPEN_PO_STATUSES])}) AND pl.quantity > pl."receivedQuantity"
      UNION ALL
      SELECT tl."productMasterId", GREATEST(0, COALESCE(tr."expectedAt", ${TODAY}) - ${TODAY}), (tl."shippedQuantity" - tl."receivedQuantity")::bigint,
        'TRANSFER_IN', tr.id, NULL
      FROM inventory_transfers tr
      JOIN inventory_transfer_lines tl ON tl."transferId" = tr.id
      WHERE tr."organizationId" = ${organizationId} AND tr."destLocationId" = ${locationId} AND tr.status = 'IN_TRANSIT'
        AND tl."shippedQuantity" > tl."receivedQuantity" ${inProducts('tl."productMasterId"')}
      UNION ALL
      SELECT r."productMasterId", 0, (CASE WHEN r."destLocationId" = ${locationId} THEN r.quantity ELSE -r.quantity END)::bigint,
        CASE WHEN r."destLocationId" = ${locationId} THEN 'RECOMMENDATION_IN' ELSE 'RECOMMENDATION_OUT' END, r.id, NULL
      FROM transfer_recommendations r
      WHERE r."organizationId" = ${organizationId} AND r.status = 'APPROVED' AND (r."destLocationId" = ${locationId} OR r."sourceLocationId" = ${locationId})
        ${inProducts('r."productMasterId"')}
      UNION ALL
      SELECT ol."productMasterId", 0, -ol."backorderedQty"::bigint, 'BACKORDER', so.id, NULL
      FROM sales_orders so
      JOIN sales_order_lines ol ON ol."salesOrderId" = so.id
      WHERE so."organizationId" = ${organizationId} AND so."fulfillmentLocationId" = ${locationId} AND so.status IN ('OPEN', 'PARTIALLY_ALLOCATED')
        AND ol."backorderedQty" > 0 ${inProducts('ol."productMasterId"')}
      UNION ALL
      -- Confirmed wholesale bookings: the units not reserved (reserved ones are already out of available), on the booking week's Monday.
      SELECT bl."productMasterId", GREATEST(0, bk.week - ${TODAY}), -bl."shortQuantity"::bigint, 'BOOKING', bk.id, NULL
      FROM bookings bk
      JOIN booking_lines bl ON bl."bookingId" = bk.id
      WHERE bk."organizationId" = ${organizationId} AND bk."locationId" = ${locationId} AND bk.status = 'CONFIRMED'
        AND bl."shortQuantity" > 0 ${inProducts('bl."productMasterId"')}
    ),
    evh AS MATERIALIZED (SELECT e.* FROM ev e JOIN base b ON b.p = e.p WHERE e.day <= b.horizon_days),
    totals AS (
      SELECT p, SUM(qty) FILTER (WHERE qty > 0)::bigint AS inbound, -SUM(qty) FILTER (WHERE qty < 0)::bigint AS outbound FROM evh GROUP BY p
    ),
    -- The base rows of the products whose curve is drawn.
    curves AS MATERIALIZED (${
      scope.atRiskOnly
        ? Prisma.sql`SELECT b.* FROM base b LEFT JOIN totals t ON t.p = b.p WHERE b.start - COALESCE(t.outbound, 0) - b.rate * b.horizon_days <= b.trigger_q`
        : Prisma.sql`SELECT * FROM base`
    }),
    steps AS (
      SELECT p, day, SUM(qty) AS delta
      FROM (SELECT p, day, qty FROM evh WHERE p IN (SELECT p FROM curves) UNION ALL SELECT p, 0, 0 FROM curves) x
      GROUP BY p, day
    ),
    seg AS MATERIALIZED (
      SELECT st.p, st.day, (b.start + SUM(st.delta) OVER w)::float8 AS level, LEAD(st.day) OVER w AS next_day
      FROM steps st JOIN curves b ON b.p = st.p
      WINDOW w AS (PARTITION BY st.p ORDER BY st.day)
    ),
    crossings AS (
      SELECT b.p, MIN(${crossingSql(Prisma.sql`b.reorder_q`)}) AS reorder_t, MIN(${crossingSql(Prisma.sql`b.min_q`)}) AS min_t,
        MIN(${crossingSql(Prisma.sql`0`)}) AS out_t, MIN(${crossingSql(Prisma.sql`b.trigger_q`)}) AS need_t
      FROM curves b JOIN seg s ON s.p = b.p
      GROUP BY b.p
    ),
    proj AS (
      SELECT b.*, COALESCE(t.inbound, 0)::bigint AS inbound, COALESCE(t.outbound, 0)::bigint AS outbound,
        c.reorder_t, c.min_t, c.out_t, c.need_t
      FROM curves b JOIN crossings c ON c.p = b.p LEFT JOIN totals t ON t.p = b.p
    )`;
}

/** The projected quantity of product `p` on day `day` (an expression over `proj` aliased b), through the steps. */
export const quantityOnSql = (alias: string, day: Prisma.Sql) => {
  const s = Prisma.raw(alias);
  return Prisma.sql`(${s}.level - b.rate * (${day}))`;
};

/** Join condition picking the step of `seg` (under `alias`) that holds day `day` of product b.p. */
export const stepHolding = (alias: string, day: Prisma.Sql) => {
  const s = Prisma.raw(alias);
  return Prisma.sql`${s}.p = b.p AND ${s}.day <= (${day}) AND (${s}.next_day IS NULL OR ${s}.next_day > (${day}))`;
};
