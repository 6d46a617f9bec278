// The stock projection of products at a location: what is available now, what comes in and goes out within
// the horizon, the demand rate and lead time with where each came from, the projected quantity week by week,
// when it goes below the reorder point, the minimum and zero, and days of cover. One statement.
import { MAX_PROJECTED_PRODUCTS } from '../../../contracts/planning/projection/stock-projection.js';
import type { RequestContext } from '../../../context.js';
import { Prisma } from '../../../generated/prisma/client.js';
import { notFound } from '../../../kernel/errors.js';
import { checkFilterIds } from '../../filter-ids.js';
import { orgId } from '../../tenant.js';
import type { DemandRateSource } from './demand-rate.js';
import { projectionCtes, quantityOnSql, stepHolding, TODAY } from './projection-sql.js';

/** A point every POINT_STEP_DAYS days from today, and one on the horizon's last day. */
export const POINT_STEP_DAYS = 7;

export type LeadTimeSource = 'LEVEL' | 'SUPPLIER' | 'DEFAULT';

export interface ProjectionPoint {
  day: number;
  date: Date;
  quantity: number;
}

export interface StockProjection {
  productMasterId: string;
  locationId: string;
  startQuantity: number;
  inboundQuantity: number;
  outboundQuantity: number;
  demandRate: number;
  demandSource: DemandRateSource | null;
  leadTimeDays: number;
  leadTimeSource: LeadTimeSource;
  reviewPeriodDays: number;
  horizonDays: number;
  minQuantity: number;
  reorderQuantity: number;
  maxQuantity: number;
  reorderCrossingDate: Date | null;
  minCrossingDate: Date | null;
  stockOutDate: Date | null;
  daysOfCover: number | null;
  points: ProjectionPoint[];
}

export interface StockProjectionArgs {
  locationId: string;
  productMasterIds?: string[] | null;
  horizonDays?: number | null;
}

/** Days from today as a date: the day during which the crossing happens. */
export const dayDate = (days: Prisma.Sql) => Prisma.sql`(${TODAY} + floor(${days})::int)`;

/** Days of cover: to the projected stock-out (inbound within the horizon counted), one decimal; null without demand. */
export const coverSql = (alias: string) => Prisma.sql`round(${Prisma.raw(alias)}.out_t::numeric, 1)::float8`;

type Row = Omit<StockProjection, 'points'> & { points: { day: number; date: string; quantity: number }[] };

export async function stockProjection(ctx: RequestContext, args: StockProjectionArgs): Promise<StockProjection[]> {
  const organizationId = orgId(ctx);
  const location = await ctx.prisma.location.findFirst({ where: { id: args.locationId, organizationId }, select: { id: true } });
  if (!location) throw notFound('Location');
  const productMasterIds = args.productMasterIds?.length ? [...new Set(args.productMasterIds)] : null;
  await checkFilterIds(ctx, { productMasterId: productMasterIds });
  const scope = { organizationId, locationId: location.id, productMasterIds, horizonDays: args.horizonDays ?? null, reviewPeriodDays: null };
  const day = Prisma.sql`g.day`;
  const rows = await ctx.prisma.$queryRaw<Row[]>`
    WITH ${projectionCtes(scope)},
    chosen AS (SELECT b.* FROM proj b JOIN product_masters pm ON pm.id = b.p ORDER BY pm.sku COLLATE "C" LIMIT ${MAX_PROJECTED_PRODUCTS}),
    pts AS (
      SELECT b.p, json_agg(json_build_object('day', g.day, 'date', ${TODAY} + g.day, 'quantity', round(${quantityOnSql('s', day)}::numeric, 2)) ORDER BY g.day) AS points
      FROM chosen b
      CROSS JOIN LATERAL (SELECT generate_series(0, b.horizon_days, ${POINT_STEP_DAYS}::int) AS day UNION SELECT b.horizon_days) g
      JOIN seg s ON ${stepHolding('s', day)}
      GROUP BY b.p
    )
    SELECT b.p AS "productMasterId", ${location.id} AS "locationId", b.start::float8 AS "startQuantity", b.inbound::float8 AS "inboundQuantity",
      b.outbound::float8 AS "outboundQuantity", round(b.rate::numeric, 4)::float8 AS "demandRate", b.rate_source AS "demandSource",
      b.lead_days AS "leadTimeDays", b.lead_source AS "leadTimeSource", b.review_days AS "reviewPeriodDays", b.horizon_days AS "horizonDays",
      b.min_q AS "minQuantity", b.reorder_q AS "reorderQuantity", b.max_q AS "maxQuantity",
      CASE WHEN b.reorder_t <= b.horizon_days THEN ${dayDate(Prisma.sql`b.reorder_t`)} END AS "reorderCrossingDate",
      CASE WHEN b.min_t <= b.horizon_days THEN ${dayDate(Prisma.sql`b.min_t`)} END AS "minCrossingDate",
      CASE WHEN b.out_t <= b.horizon_days THEN ${dayDate(Prisma.sql`b.out_t`)} END AS "stockOutDate",
      ${coverSql('b')} AS "daysOfCover", pts.points
    FROM chosen b JOIN pts ON pts.p = b.p JOIN product_masters pm ON pm.id = b.p
    ORDER BY pm.sku COLLATE "C"`;
  return rows.map((row) => ({ ...row, points: row.points.map((point) => ({ ...point, date: new Date(`${point.date}T00:00:00Z`) })) }));
}
