// Generating transfer recommendations: one set-based statement over inventory levels and stock lines.
//
// For each product, every location with an inventory level for it is one of:
// - in deficit: available below its reorder point, or (with a forecast) fewer days of demand than its lead time;
// - in surplus (when not in deficit): available above its maximum (when a maximum is set), or (with a
//   forecast) more days of demand than its horizon (lead time + replenishment period);
// - neither.
// A location's available stock counts what IN_TRANSIT inventory transfers are bringing it (so that a
// recommendation executed but not yet received is not proposed again); a source gives only what is on its shelf.
// Demand rate per day: demandRateSql without fallbacks (a planner's number on the level, else the forecast of
// record; planning/projection/demand-rate.ts). Lead time defaults to
// DEFAULT_LEAD_TIME_DAYS, the replenishment period to DEFAULT_REPLENISHMENT_PERIOD_DAYS.
// A destination needs target − available, target being its maximum (or, without one, the larger of its
// reorder point and the demand over its horizon). A source can give available − what it keeps, the larger
// of its reorder point and the demand over its lead time: it never goes below its reorder point.
// Needs and surpluses of a product are matched in order (destinations by priority, then least available;
// sources by most to give): laid end to end, each destination's need overlaps some sources' surpluses,
// and each overlap is one recommendation for that many units.
// Units at risk: the part of the move that covers the destination's shortfall until a replenishment could
// arrive (demand over the lead time − available; without a forecast, reorder point − available).
// estimatedROI = unitMargin × units at risk − costPerUnit × quantity (the pair's cost, else the default).
// Available stock and units in transit are summed as bigint (lots add up past int4); demand over a period counts
// at most MAX_INT units (unitsCapped), so a target, a need, a quantity and units at risk always fit int4.
import type { z } from 'zod';
import { GENERATED_SHOWN, type generateRecommendations as inputSchema } from '../../../contracts/transfers/recommendations/recommendations.js';
import type { RequestContext } from '../../../context.js';
import { Prisma } from '../../../generated/prisma/client.js';
import { newFieldErrors, validationError } from '../../../kernel/errors.js';
import { actorOf } from '../../actor-of.js';
import { orgId } from '../../tenant.js';
import { availableByLocation, NOW_UTC, recommendationColumns, SQL_UUID_V7, type TransferRecommendationRow, unitsCapped } from './recommendation-rows.js';
import { inTransaction } from '../../../db/transactions.js';
import { demandRateSql } from '../../planning/projection/demand-rate.js';

export const DEFAULT_LEAD_TIME_DAYS = 14;
export const DEFAULT_REPLENISHMENT_PERIOD_DAYS = 28;

/** The input as its contract outputs it (parsed once, where it comes in). */
export type GenerateRecommendationsInput = z.output<typeof inputSchema>;

/** Generation can take seconds over a whole organization; the default 5 s of an interactive transaction is too short. */
const GENERATE_TX_OPTIONS = { timeout: 120_000, maxWait: 30_000 };

async function checkIds(ctx: RequestContext, input: { locationId?: string | null; productMasterId?: string | null }) {
  const organizationId = orgId(ctx);
  const [location, product] = await Promise.all([
    input.locationId ? ctx.prisma.location.count({ where: { id: input.locationId, organizationId } }) : 1,
    input.productMasterId ? ctx.prisma.productMaster.count({ where: { id: input.productMasterId, organizationId } }) : 1,
  ]);
  const details = newFieldErrors();
  if (!location) details.locationId = ['Location not found'];
  if (!product) details.productMasterId = ['Product not found'];
  if (Object.keys(details).length) throw validationError(details);
}

export interface GeneratedRecommendations {
  success: boolean;
  created: number;
  updated: number;
  /** Every recommendation proposed (created + updated). */
  total: number;
  /** The first GENERATED_SHOWN of them, most pressing first. */
  recommendations: TransferRecommendationRow[];
}

export async function generateTransferRecommendations(ctx: RequestContext, input: GenerateRecommendationsInput): Promise<GeneratedRecommendations> {
  await checkIds(ctx, input);
  const organizationId = orgId(ctx);
  const { actorType, createdBy } = actorOf(ctx);
  const { recommendationTtlHours, defaultUnitCost } = ctx.app.config.transfers;
  const margin = input.unitMargin ?? null;
  const minDifference = input.minStockDifferencePct ?? 0;
  const location = input.locationId ?? null;

  const byProduct = (column: string) => (input.productMasterId ? Prisma.sql`AND ${Prisma.raw(column)} = ${input.productMasterId}` : Prisma.empty);
  // With a location, only moves into or out of it: of a product, the location is a destination (then every
  // source may serve it) or a source (then it may serve every destination), never both.
  const destAtLocation = location
    ? Prisma.sql`WHERE d.loc = ${location} OR EXISTS (SELECT 1 FROM src x WHERE x.p = d.p AND x.loc = ${location})`
    : Prisma.empty;
  const srcAtLocation = location
    ? Prisma.sql`WHERE s.loc = ${location} OR EXISTS (SELECT 1 FROM dest x WHERE x.p = s.p AND x.loc = ${location})`
    : Prisma.empty;
  const positiveRoi = input.requirePositiveROI ? Prisma.sql`AND roi > 0` : Prisma.empty;

  const rows = await inTransaction(ctx, async (ctx) => {
    const tx = ctx.prisma;
    // The matching sorts every level of the organization (windows per product): in memory, not spilled to disk
    // as with the default 4 MB (BENCHMARKS.md, transfer recommendations). For this transaction only.
    await tx.$executeRaw`SET LOCAL work_mem = '64MB'`;
    // Overdue ones first, so that generating again starts a fresh recommendation instead of reviving an expired one.
    await tx.$executeRaw`
      UPDATE transfer_recommendations SET status = 'EXPIRED', "updatedAt" = ${NOW_UTC}
      WHERE "organizationId" = ${organizationId} AND status = 'PENDING' AND "expiresAt" <= ${NOW_UTC}`;
    return tx.$queryRaw<(TransferRecommendationRow & { inserted: boolean; total_count: number; created_count: number })[]>`
      WITH avail AS (${availableByLocation(Prisma.sql`s."organizationId" = ${organizationId} ${byProduct('s."productMasterId"')}`)}),
      inbound AS (
        SELECT tr."destLocationId" AS loc, tl."productMasterId" AS p, SUM(tl."shippedQuantity" - tl."receivedQuantity")::bigint AS units
        FROM inventory_transfers tr JOIN inventory_transfer_lines tl ON tl."transferId" = tr.id
        WHERE tr."organizationId" = ${organizationId} AND tr.status = 'IN_TRANSIT' ${byProduct('tl."productMasterId"')}
        GROUP BY 1, 2
      ),
      rates AS (${demandRateSql({ organizationId, productMasterIds: input.productMasterId ? [input.productMasterId] : null, fallbacks: false })}),
      lvl AS (
        SELECT lv."productMasterId" AS p, lv."locationId" AS loc, COALESCE(a.available, 0) AS on_shelf, COALESCE(i.units, 0) AS in_transit,
          COALESCE(a.available, 0) + COALESCE(i.units, 0) AS available,
          lv."minQuantity" AS min_q, lv."reorderQuantity" AS reorder_q, lv."maxQuantity" AS max_q,
          COALESCE(lv."expectedLeadTimeDays", ${DEFAULT_LEAD_TIME_DAYS}) AS lead_days,
          COALESCE(lv."expectedLeadTimeDays", ${DEFAULT_LEAD_TIME_DAYS})::bigint + COALESCE(lv."replenishmentPeriodDays", ${DEFAULT_REPLENISHMENT_PERIOD_DAYS}) AS horizon_days,
          dr.rate
        FROM inventory_levels lv
        LEFT JOIN rates dr ON dr.p = lv."productMasterId" AND dr.loc = lv."locationId"
        LEFT JOIN avail a ON a."productMasterId" = lv."productMasterId" AND a."locationId" = lv."locationId"
        LEFT JOIN inbound i ON i.p = lv."productMasterId" AND i.loc = lv."locationId"
        WHERE lv."organizationId" = ${organizationId} ${byProduct('lv."productMasterId"')}
      ),
      classed AS (
        SELECT *, (available < reorder_q OR (rate IS NOT NULL AND available < rate * lead_days)) AS deficit FROM lvl
      ),
      dest AS (
        SELECT *, target - available AS need,
          LEAST(target - available, GREATEST(0, CASE WHEN rate IS NOT NULL THEN ${unitsCapped(Prisma.sql`rate * lead_days`)} ELSE reorder_q END - available)) AS risk
        FROM (
          SELECT *, CASE WHEN max_q > 0 THEN max_q ELSE GREATEST(reorder_q, ${unitsCapped(Prisma.sql`COALESCE(rate * horizon_days, 0)`)}) END AS target,
            CASE WHEN available <= 0 THEN 1 WHEN available < min_q THEN 2 WHEN available < reorder_q THEN 3 ELSE 4 END AS prio
          FROM classed WHERE deficit
        ) d
        WHERE target > available
      ),
      src AS (
        SELECT * FROM (
          SELECT *, LEAST(on_shelf, available - GREATEST(reorder_q, ${unitsCapped(Prisma.sql`COALESCE(rate * lead_days, 0)`)})) AS excess, (max_q > 0 AND available > max_q) AS above_max
          FROM classed
          WHERE NOT deficit AND ((max_q > 0 AND available > max_q) OR (rate IS NOT NULL AND available > rate * horizon_days))
        ) s
        WHERE excess > 0
      ),
      dq AS (SELECT d.*, SUM(need) OVER (PARTITION BY p ORDER BY prio, available, loc ROWS UNBOUNDED PRECEDING) AS d_end FROM dest d ${destAtLocation}),
      sq AS (SELECT s.*, SUM(excess) OVER (PARTITION BY p ORDER BY excess DESC, loc ROWS UNBOUNDED PRECEDING) AS s_end FROM src s ${srcAtLocation}),
      pairs AS (
        SELECT d.p, d.loc AS dest, s.loc AS source, d.prio, d.available AS d_available, d.in_transit AS d_in_transit, d.min_q AS d_min, d.reorder_q AS d_reorder, d.target,
          d.lead_days AS d_lead, d.rate AS d_rate, d.risk, s.available AS s_available, s.reorder_q AS s_reorder, s.max_q AS s_max,
          s.above_max, s.rate AS s_rate, s.horizon_days AS s_horizon,
          (LEAST(d.d_end, s.s_end) - GREATEST(d.d_end - d.need, s.s_end - s.excess))::int AS qty,
          (GREATEST(d.d_end - d.need, s.s_end - s.excess) - (d.d_end - d.need))::int AS offset_in_need
        FROM dq d JOIN sq s ON s.p = d.p AND s.s_end - s.excess < d.d_end AND d.d_end - d.need < s.s_end
        WHERE (s.available - d.available) >= ${minDifference}::float8 * s.available
      ),
      priced AS (
        SELECT pr.*, COALESCE(tc."costPerUnit", ${defaultUnitCost}::float8) AS unit_cost,
          GREATEST(0, LEAST(pr.offset_in_need + pr.qty, pr.risk) - pr.offset_in_need) AS lost
        FROM pairs pr
        LEFT JOIN transfer_costs tc ON tc."organizationId" = ${organizationId} AND tc."sourceLocationId" = pr.source AND tc."destLocationId" = pr.dest
      ),
      final AS (
        SELECT *, ROUND((${margin}::float8 * lost - unit_cost * qty)::numeric, 2)::float8 AS roi FROM priced
      ),
      written AS (
      INSERT INTO transfer_recommendations AS r (id, "organizationId", "productMasterId", "sourceLocationId", "destLocationId", quantity, priority, status,
        reason, "estimatedROI", "unitMargin", "unitTransferCost", "unitsAtRisk", "expiresAt", "createdByType", "createdBy", "createdAt", "updatedAt")
      SELECT ${SQL_UUID_V7}, ${organizationId}, f.p, f.source, f.dest, f.qty,
        (CASE f.prio WHEN 1 THEN 'URGENT' WHEN 2 THEN 'HIGH' WHEN 3 THEN 'MEDIUM' ELSE 'LOW' END)::"TransferPriority", 'PENDING',
        format('%s (%s) %s; %s (%s) %s. Moving %s units brings %s to %s of its target %s without taking %s below its reorder point of %s.',
          dl.name, dl.code,
          CASE WHEN f.d_in_transit > 0 THEN format('(counting %s in transit to it) ', f.d_in_transit) ELSE '' END ||
          CASE f.prio
            WHEN 1 THEN format('is out of stock (reorder point %s)', f.d_reorder)
            WHEN 2 THEN format('has %s available, below its minimum of %s', f.d_available, f.d_min)
            WHEN 3 THEN format('has %s available, below its reorder point of %s', f.d_available, f.d_reorder)
            ELSE format('has %s available, %s days of demand, less than its lead time of %s days', f.d_available, to_char(f.d_available / f.d_rate, 'FM9999990.0'), f.d_lead)
          END,
          sl.name, sl.code,
          CASE WHEN f.above_max THEN format('has %s available, %s above its maximum of %s', f.s_available, f.s_available - f.s_max, f.s_max)
            ELSE format('has %s available, %s days of demand, more than its horizon of %s days', f.s_available, to_char(f.s_available / f.s_rate, 'FM9999990.0'), f.s_horizon)
          END,
          f.qty, dl.code, f.d_available + f.qty, f.target, sl.code, f.s_reorder),
        f.roi, ${margin}::float8, f.unit_cost, f.lost,
        ${NOW_UTC} + make_interval(secs => ${recommendationTtlHours * 3600}::float8), ${actorType}, ${createdBy}, ${NOW_UTC}, ${NOW_UTC}
      FROM final f
      JOIN locations dl ON dl.id = f.dest
      JOIN locations sl ON sl.id = f.source
      WHERE f.qty > 0 ${positiveRoi}
      ORDER BY f.p, f.source, f.dest
      ON CONFLICT ("organizationId", "productMasterId", "sourceLocationId", "destLocationId") WHERE status = 'PENDING'
      DO UPDATE SET quantity = EXCLUDED.quantity, priority = EXCLUDED.priority, reason = EXCLUDED.reason, "estimatedROI" = EXCLUDED."estimatedROI",
        "unitMargin" = EXCLUDED."unitMargin", "unitTransferCost" = EXCLUDED."unitTransferCost", "unitsAtRisk" = EXCLUDED."unitsAtRisk",
        "expiresAt" = EXCLUDED."expiresAt", "updatedAt" = EXCLUDED."updatedAt"
      RETURNING ${recommendationColumns('r')}, (r.xmax = 0) AS inserted
      )
      -- Only the counts and the first rows come back: thousands of rows read into the request thread would hold
      -- it (the counts are taken over every row, before the limit).
      SELECT w.*, (count(*) OVER ())::int AS total_count, (count(*) FILTER (WHERE w.inserted) OVER ())::int AS created_count
      FROM written w
      ORDER BY (CASE w.priority WHEN 'URGENT' THEN 1 WHEN 'HIGH' THEN 2 WHEN 'MEDIUM' THEN 3 ELSE 4 END),
        w."productMasterId" COLLATE "C", w."destLocationId" COLLATE "C", w."sourceLocationId" COLLATE "C"
      LIMIT ${GENERATED_SHOWN}`;
  }, GENERATE_TX_OPTIONS);

  const total = rows[0]?.total_count ?? 0;
  const created = rows[0]?.created_count ?? 0;
  const recommendations = rows.map(({ inserted: _inserted, total_count: _total, created_count: _created, ...row }) => row as TransferRecommendationRow);
  return { success: true, created, updated: total - created, total, recommendations };
}
