// Planning recommendations: for each product at a location whose projection goes below its trigger level within
// the horizon, what to do (EXPEDITE an open purchase order that arrives after the projected stock-out; else MOVE
// from a location with surplus beyond its own cover, else ORDER from a supplier), how much, by when, from where
// and why. One statement over the projection (planning/projection/projection-sql.ts); docs/planning.md.
import type { RequestContext } from '../../../context.js';
import { Prisma } from '../../../generated/prisma/client.js';
import { notFound } from '../../../kernel/errors.js';
import { inTransaction } from '../../../db/transactions.js';
import { checkFilterIds } from '../../filter-ids.js';
import { orgId } from '../../tenant.js';
import { availableByLocation, NOW_UTC } from '../../transfers/recommendations/recommendation-rows.js';
import { DEFAULT_LEAD_TIME_DAYS, DEFAULT_REPLENISHMENT_PERIOD_DAYS } from '../../transfers/recommendations/generate-recommendations.js';
import type { DemandRateSource } from '../projection/demand-rate.js';
import { projectionCtes, quantityOnSql, stepHolding, TODAY } from '../projection/projection-sql.js';
import { coverSql, dayDate, type LeadTimeSource } from '../projection/stock-projection.js';
import { demandRateSql } from '../projection/demand-rate.js';
import type { REPLENISHMENT_METHODS } from '../../../contracts/inventory/replenishment/replenishment-config.js';

export const PLANNING_ACTIONS = ['ORDER', 'MOVE', 'EXPEDITE'] as const;
export type PlanningAction = (typeof PLANNING_ACTIONS)[number];
export type ReplenishmentMethod = (typeof REPLENISHMENT_METHODS)[number];

export interface RecommendOptions {
  locationId: string;
  productMasterIds?: string[] | null;
  /** Days of demand kept as safety stock (default 0). */
  safetyStockDays?: number;
  /** Overrides the level's replenishment period. */
  reviewPeriodDays?: number;
  /** MIN_MAX (default): trigger at the reorder point, order up to the maximum. FORECAST_COVER: trigger at the safety stock, order up to the review period's demand + safety stock. */
  method?: ReplenishmentMethod;
  /** Where stock comes from: this supplier for orders, or this location for moves; null: the best location, else the latest supplier. */
  defaultSource?: { supplierId: string } | { locationId: string } | null;
}

export interface PlanningRecommendation {
  productMasterId: string;
  sku: string;
  productName: string;
  locationId: string;
  action: PlanningAction;
  quantity: number;
  needBy: Date;
  orderBy: Date;
  sourceType: 'SUPPLIER' | 'LOCATION' | null;
  supplierId: string | null;
  sourceLocationId: string | null;
  transferRecommendationId: string | null;
  purchaseOrderId: string | null;
  startQuantity: number;
  inboundQuantity: number;
  outboundQuantity: number;
  minQuantity: number;
  reorderQuantity: number;
  maxQuantity: number;
  targetQuantity: number;
  projectedAtArrival: number;
  reorderCrossingDate: Date | null;
  stockOutDate: Date | null;
  daysOfCover: number | null;
  demandRate: number;
  demandSource: DemandRateSource | null;
  leadTimeDays: number;
  leadTimeSource: LeadTimeSource;
  horizonDays: number;
  reason: string;
}

/**
 * The planner settings the statement runs under (transaction-local). Its row estimates over the chained CTEs are
 * far off both ways: too high, so it would JIT-compile for seconds a statement that runs in milliseconds; and one
 * row where there are hundreds, so it would loop over a CTE once per row (the surplus of 250 products read the
 * 1,000 sized rows 250 times: 40% of the statement). Every join here is over sets, so hash and merge joins only;
 * the lateral lookup of a transfer recommendation still runs per row.
 */
export const RECOMMENDATION_SETTINGS = `SELECT set_config('jit', 'off', true), set_config('enable_nestloop', 'off', true)`;

/** A number as the reasons print it (up to two decimals, no trailing zeros). */
const shown = (value: Prisma.Sql) => Prisma.sql`rtrim(rtrim(to_char(${value}, 'FM9999999990.99'), '0'), '.')`;

export async function recommendForLocation(ctx: RequestContext, options: RecommendOptions): Promise<PlanningRecommendation[]> {
  const organizationId = orgId(ctx);
  const location = await ctx.prisma.location.findFirst({ where: { id: options.locationId, organizationId }, select: { id: true } });
  if (!location) throw notFound('Location');
  const productMasterIds = options.productMasterIds?.length ? [...new Set(options.productMasterIds)] : null;
  const source = options.defaultSource ?? null;
  const sourceLocation = source && 'locationId' in source ? source.locationId : null;
  await checkFilterIds(ctx, { productMasterId: productMasterIds, locationId: sourceLocation });
  if (source && 'supplierId' in source && !(await ctx.prisma.supplier.count({ where: { id: source.supplierId, organizationId } }))) throw notFound('Supplier');
  const sql = recommendationSql(organizationId, { ...options, locationId: location.id, productMasterIds });
  return inTransaction(ctx, async (ctx) => {
    await ctx.prisma.$queryRawUnsafe(RECOMMENDATION_SETTINGS);
    return ctx.prisma.$queryRaw<PlanningRecommendation[]>(sql);
  });
}

/** The statement of recommendForLocation, its ids checked (the benchmark's bare yardstick runs it too). */
export function recommendationSql(organizationId: string, options: RecommendOptions): Prisma.Sql {
  const productMasterIds = options.productMasterIds?.length ? options.productMasterIds : null;
  const source = options.defaultSource ?? null;
  const sourceSupplier = source && 'supplierId' in source ? source.supplierId : null;
  const sourceLocation = source && 'locationId' in source ? source.locationId : null;
  const loc = options.locationId;
  const safety = options.safetyStockDays ?? 0;
  const cover = (options.method ?? 'MIN_MAX') === 'FORECAST_COVER';
  const safetyUnits = Prisma.sql`CEIL(rate * ${safety}::float8)`;
  // FORECAST_COVER needs a demand rate; a product without one is planned by min/max.
  const trigger = cover ? Prisma.sql`CASE WHEN rate > 0 THEN ${safetyUnits} ELSE reorder_q END` : Prisma.sql`reorder_q + ${safetyUnits}`;
  const target = cover
    ? Prisma.sql`CASE WHEN b.rate > 0 THEN CASE WHEN b.max_q > 0 THEN LEAST(b.max_q, CEIL(b.rate * (b.review_days + ${safety}::float8))) ELSE CEIL(b.rate * (b.review_days + ${safety}::float8)) END
        WHEN b.max_q > 0 THEN b.max_q ELSE b.reorder_q END`
    : Prisma.sql`CASE WHEN b.max_q > 0 THEN b.max_q ELSE GREATEST(b.reorder_q, CEIL(b.rate * (b.lead_days + b.review_days))) + CEIL(b.rate * ${safety}::float8) END`;
  const scope = { organizationId, locationId: loc, productMasterIds, horizonDays: null, reviewPeriodDays: options.reviewPeriodDays ?? null, trigger, atRiskOnly: true };
  const arrival = Prisma.sql`b.arrival_day`;
  const candidates = sourceLocation ? Prisma.sql`AND lv."locationId" = ${sourceLocation}` : Prisma.sql`AND lv."locationId" <> ${loc}`;

  return Prisma.sql`
    WITH ${projectionCtes(scope)},
    needs AS MATERIALIZED (
      SELECT b.*, GREATEST(floor(b.need_t)::int, b.lead_days) AS arrival_day, (${target})::bigint AS target_q
      FROM proj b WHERE b.need_t <= b.horizon_days
    ),
    late_po AS (
      SELECT DISTINCT ON (e.p) e.p, e.ref AS po_id, e.qty AS po_qty, e.day AS po_day, e.supplier_id
      FROM evh e JOIN needs b ON b.p = e.p
      WHERE e.kind = 'PURCHASE_ORDER' AND b.out_t <= b.horizon_days AND e.day > b.out_t
      ORDER BY e.p, e.day, e.ref
    ),
    sized AS (
      SELECT b.*, GREATEST(0, b.target_q - GREATEST(0, ${quantityOnSql('s', arrival)}))::bigint AS qty,
        GREATEST(0, ${quantityOnSql('s', arrival)}) AS at_arrival
      FROM needs b JOIN seg s ON ${stepHolding('s', arrival)}
    ),
    src_avail AS (${availableByLocation(Prisma.sql`s."organizationId" = ${organizationId} AND s."locationId" <> ${loc} AND s."productMasterId" IN (SELECT p FROM sized WHERE qty > 0)`)}),
    src_rates AS (${demandRateSql({ organizationId, productsIn: Prisma.sql`SELECT p FROM sized WHERE qty > 0`, fallbacks: true })}),
    surplus AS (
      SELECT DISTINCT ON (lv."productMasterId") lv."productMasterId" AS p, lv."locationId" AS loc,
        a.available - GREATEST(lv."reorderQuantity", CEIL(COALESCE(r.rate, 0) * (COALESCE(lv."expectedLeadTimeDays", ${DEFAULT_LEAD_TIME_DAYS}::int)
          + COALESCE(lv."replenishmentPeriodDays", ${DEFAULT_REPLENISHMENT_PERIOD_DAYS}::int))))::bigint AS spare,
        a.available
      FROM inventory_levels lv
      JOIN sized z ON z.p = lv."productMasterId" AND z.qty > 0
      JOIN src_avail a ON a."productMasterId" = lv."productMasterId" AND a."locationId" = lv."locationId"
      LEFT JOIN src_rates r ON r.p = lv."productMasterId" AND r.loc = lv."locationId"
      WHERE lv."organizationId" = ${organizationId} ${candidates}
      ORDER BY lv."productMasterId", 3 DESC, lv."locationId"
    ),
    decided AS (
      SELECT b.*, lp.po_id, lp.po_qty, lp.po_day, lp.supplier_id AS po_supplier_id, sp.loc AS spare_loc, sp.spare, sp.available AS spare_available,
        CASE WHEN lp.po_id IS NOT NULL THEN 'EXPEDITE' WHEN b.qty > 0 AND sp.spare >= b.qty THEN 'MOVE' WHEN b.qty > 0 THEN 'ORDER' END AS action
      FROM sized b
      LEFT JOIN late_po lp ON lp.p = b.p
      LEFT JOIN surplus sp ON sp.p = b.p
    ),
    acted AS (
      SELECT d.*,
        CASE d.action WHEN 'EXPEDITE' THEN d.po_supplier_id WHEN 'ORDER' THEN COALESCE(${sourceSupplier}::text, d.last_supplier_id) END AS supplier_id,
        CASE WHEN d.action = 'MOVE' THEN d.spare_loc END AS source_loc,
        CASE WHEN d.action = 'EXPEDITE' THEN d.po_qty ELSE d.qty END AS quantity,
        CASE WHEN d.action = 'EXPEDITE' THEN floor(d.out_t)::int ELSE floor(d.need_t)::int END AS need_day
      FROM decided d WHERE d.action IS NOT NULL
    )
    SELECT a.p AS "productMasterId", pm.sku, pm.name AS "productName", ${loc} AS "locationId", a.action, a.quantity::int AS quantity,
      ${TODAY} + a.need_day AS "needBy",
      ${TODAY} + GREATEST(0, a.need_day - a.lead_days) AS "orderBy",
      CASE WHEN a.source_loc IS NOT NULL THEN 'LOCATION' WHEN a.supplier_id IS NOT NULL THEN 'SUPPLIER' END AS "sourceType",
      a.supplier_id AS "supplierId", a.source_loc AS "sourceLocationId", tr.id AS "transferRecommendationId",
      CASE WHEN a.action = 'EXPEDITE' THEN a.po_id END AS "purchaseOrderId",
      a.start::float8 AS "startQuantity", a.inbound::float8 AS "inboundQuantity", a.outbound::float8 AS "outboundQuantity",
      a.min_q AS "minQuantity", a.reorder_q AS "reorderQuantity", a.max_q AS "maxQuantity", a.target_q::float8 AS "targetQuantity",
      round(a.at_arrival::numeric, 2)::float8 AS "projectedAtArrival",
      CASE WHEN a.reorder_t <= a.horizon_days THEN ${dayDate(Prisma.sql`a.reorder_t`)} END AS "reorderCrossingDate",
      CASE WHEN a.out_t <= a.horizon_days THEN ${dayDate(Prisma.sql`a.out_t`)} END AS "stockOutDate",
      ${coverSql('a')} AS "daysOfCover", round(a.rate::numeric, 4)::float8 AS "demandRate", a.rate_source AS "demandSource",
      a.lead_days AS "leadTimeDays", a.lead_source AS "leadTimeSource", a.horizon_days AS "horizonDays",
      CASE a.action
        WHEN 'EXPEDITE' THEN format('Projected to run out on %s (%s units available, %s a day, %s source); purchase order %s from %s brings %s units on %s, %s days later: expedite it to arrive by %s.',
          ${TODAY} + floor(a.out_t)::int, a.start, ${shown(Prisma.sql`a.rate`)}, lower(COALESCE(a.rate_source, 'no demand')), po.number, su.name, a.po_qty,
          ${TODAY} + a.po_day, a.po_day - floor(a.out_t)::int, ${TODAY} + floor(a.out_t)::int)
        ELSE format('Projected to go below %s (%s) on %s: %s units available, %s a day (%s)%s. %s %s units %s by %s (lead time %s days) to bring it to %s%s on arrival.',
          ${cover ? Prisma.sql`'its safety stock'` : Prisma.sql`CASE WHEN ${safety}::float8 > 0 THEN 'its reorder point plus safety stock' ELSE 'its reorder point' END`},
          ${shown(Prisma.sql`a.trigger_q`)}, ${TODAY} + a.need_day, a.start, ${shown(Prisma.sql`a.rate`)}, lower(COALESCE(a.rate_source, 'no demand')),
          CASE WHEN a.inbound > 0 OR a.outbound > 0 THEN format(', %s in and %s out within %s days', a.inbound, a.outbound, a.horizon_days) ELSE '' END,
          CASE a.action WHEN 'MOVE' THEN 'Move' ELSE 'Order' END, a.quantity,
          CASE WHEN a.action = 'MOVE' THEN format('from %s (%s), which has %s beyond its own cover', sl.name, sl.code, a.spare)
               WHEN su.id IS NOT NULL THEN format('from %s', su.name) ELSE 'from a supplier (none on record)' END,
          ${TODAY} + GREATEST(0, a.need_day - a.lead_days), a.lead_days, a.target_q,
          CASE WHEN a.max_q > 0 AND a.target_q = a.max_q THEN ' (its maximum)' ELSE '' END)
      END AS reason
    FROM acted a
    JOIN product_masters pm ON pm.id = a.p
    LEFT JOIN suppliers su ON su.id = a.supplier_id
    LEFT JOIN locations sl ON sl.id = a.source_loc
    LEFT JOIN purchase_orders po ON po.id = a.po_id
    LEFT JOIN LATERAL (
      SELECT r.id FROM transfer_recommendations r
      WHERE a.source_loc IS NOT NULL AND r."organizationId" = ${organizationId} AND r."productMasterId" = a.p AND r."sourceLocationId" = a.source_loc
        AND r."destLocationId" = ${loc} AND (r.status = 'APPROVED' OR (r.status = 'PENDING' AND r."expiresAt" > ${NOW_UTC}))
      ORDER BY r."createdAt" DESC LIMIT 1
    ) tr ON true
    ORDER BY a.need_day, CASE a.action WHEN 'EXPEDITE' THEN 0 ELSE 1 END, a.out_t NULLS LAST, pm.sku COLLATE "C"`;
}
