import type { z } from 'zod';
import type { stockRequestCategoryQuery, stockRequestDashboardQuery } from '../../contracts/stock-requests/stock-request-queries.js';
import { STOCK_REQUEST_PRIORITIES, STOCK_REQUEST_STATUSES } from '../../contracts/stock-requests/stock-requests.js';
import type { RequestContext } from '../../context.js';
import { Prisma, type StockRequestPriority, type StockRequestStatus } from '../../generated/prisma/client.js';
import { checkFilterIds } from '../filter-ids.js';
import { orgId } from '../tenant.js';
import { TODAY_UTC } from '../transfers/recommendations/recommendation-rows.js';
import { requestFilterSql } from './stock-request-filter-sql.js';

export type StockRequestCategoryArgs = z.output<typeof stockRequestCategoryQuery>;
export type StockRequestDashboardArgs = z.output<typeof stockRequestDashboardQuery>;

/** At most this many categories in /by-category, and this many values of each list in /filters. */
export const REPORT_MAX_ROWS = 1000;
export const FILTER_MAX_VALUES = 500;

/** States a request does not leave: an overdue request is one not yet in these. */
const FINAL: StockRequestStatus[] = ['REJECTED', 'FULFILLED', 'CANCELLED'];

export interface CategoryQuantities {
  categoryId: string | null;
  categoryName: string | null;
  requestCount: number;
  lineCount: number;
  quantityRequested: number;
  quantityApproved: number;
  quantityFulfilled: number;
}

/**
 * Requested, approved and fulfilled units of the matching requests' lines by the category of their product
 * (products without one, or deleted since: one row with a null category), by category name. Approved counts
 * the lines that have an approved quantity; one statement.
 */
export async function stockRequestsByCategory(ctx: RequestContext, f: StockRequestCategoryArgs): Promise<CategoryQuantities[]> {
  await checkFilterIds(ctx, { locationId: [f.requestingLocationId, f.supplyingLocationId] });
  const rows = await ctx.prisma.$queryRaw<CategoryQuantities[]>`
    SELECT c.id AS "categoryId", c.name AS "categoryName", COUNT(DISTINCT r.id)::int AS "requestCount", COUNT(*)::int AS "lineCount",
      SUM(l."quantityRequested")::float8 AS "quantityRequested", COALESCE(SUM(l."quantityApproved"), 0)::float8 AS "quantityApproved",
      SUM(l."quantityFulfilled")::float8 AS "quantityFulfilled"
    FROM stock_requests r
    JOIN stock_request_lines l ON l."requestId" = r.id
    LEFT JOIN product_masters p ON p.id = l."productMasterId" AND p."organizationId" = r."organizationId"
    LEFT JOIN categories c ON c.id = p."categoryId"
    WHERE ${requestFilterSql(orgId(ctx), f)}
    GROUP BY c.id, c.name
    ORDER BY c.name NULLS LAST, c.id
    LIMIT ${REPORT_MAX_ROWS}`;
  return rows;
}

export interface StockRequestDashboard {
  total: number;
  byStatus: { status: StockRequestStatus; count: number }[];
  overdue: number;
  approvedCount: number;
  medianApprovalHours: number | null;
  fulfilledCount: number;
  medianFulfilmentHours: number | null;
}

const hours = (seconds: Prisma.Sql) => Prisma.sql`round((${seconds} / 3600)::numeric, 2)::float8`;

/**
 * Counts by status (every status, 0 included), overdue (neededBy before today, UTC, and not REJECTED,
 * FULFILLED or CANCELLED), and the median hours from submission to approval (requests with both times) and
 * from approval to the first move to FULFILLED in the history (none until fulfilment is served: null).
 */
export async function stockRequestDashboard(ctx: RequestContext, f: StockRequestDashboardArgs): Promise<StockRequestDashboard> {
  await checkFilterIds(ctx, { locationId: f.locationId });
  const where = requestFilterSql(orgId(ctx), f);
  const [counts, [summary]] = await Promise.all([
    ctx.prisma.$queryRaw<{ status: StockRequestStatus; count: number }[]>`
      SELECT r.status, COUNT(*)::int AS count FROM stock_requests r WHERE ${where} GROUP BY r.status`,
    ctx.prisma.$queryRaw<Omit<StockRequestDashboard, 'byStatus'>[]>`
      WITH m AS (
        SELECT r.status, r."neededBy",
          EXTRACT(EPOCH FROM (r."approvedAt" - r."submittedAt"))::float8 AS approval_s,
          EXTRACT(EPOCH FROM (f.at - r."approvedAt"))::float8 AS fulfilment_s
        FROM stock_requests r
        LEFT JOIN LATERAL (
          SELECT MIN(e."createdAt") AS at FROM stock_request_events e WHERE e."requestId" = r.id AND e."toStatus" = 'FULFILLED'
        ) f ON true
        WHERE ${where}
      )
      SELECT COUNT(*)::int AS total,
        (COUNT(*) FILTER (WHERE "neededBy" < ${TODAY_UTC} AND status::text NOT IN (${Prisma.join(FINAL)})))::int AS overdue,
        COUNT(approval_s)::int AS "approvedCount",
        ${hours(Prisma.sql`percentile_cont(0.5) WITHIN GROUP (ORDER BY approval_s)`)} AS "medianApprovalHours",
        COUNT(fulfilment_s)::int AS "fulfilledCount",
        ${hours(Prisma.sql`percentile_cont(0.5) WITHIN GROUP (ORDER BY fulfilment_s)`)} AS "medianFulfilmentHours"
      FROM m`,
  ]);
  const byStatus = STOCK_REQUEST_STATUSES.map((status) => ({ status, count: counts.find((c) => c.status === status)?.count ?? 0 }));
  return { ...summary!, byStatus };
}

export interface StockRequestFilterValues {
  statuses: readonly StockRequestStatus[];
  priorities: readonly StockRequestPriority[];
  requestingLocationIds: string[];
  supplyingLocationIds: string[];
  requesters: { requesterType: string; requesterId: string; name: string | null }[];
}

/**
 * The values each list filter can take in the organization: every status and priority, and the locations
 * and requesters its requests name (at most FILTER_MAX_VALUES of each).
 */
export async function stockRequestFilterValues(ctx: RequestContext): Promise<StockRequestFilterValues> {
  const organizationId = orgId(ctx);
  const [requesting, supplying, requesters] = await Promise.all([
    locationsInUse(ctx, organizationId, Prisma.sql`"requestingLocationId"`),
    locationsInUse(ctx, organizationId, Prisma.sql`"supplyingLocationId"`),
    ctx.prisma.$queryRaw<StockRequestFilterValues['requesters']>`
      SELECT q."requesterType", q."requesterId", CASE q."requesterType" WHEN 'USER' THEN u.name ELSE k.name END AS name
      FROM (SELECT DISTINCT "requesterType", "requesterId" FROM stock_requests WHERE "organizationId" = ${organizationId}) q
      LEFT JOIN users u ON q."requesterType" = 'USER' AND u.id = q."requesterId"
      LEFT JOIN api_keys k ON q."requesterType" = 'API_KEY' AND k.id = q."requesterId" AND k."organizationId" = ${organizationId}
      ORDER BY 3 NULLS LAST, q."requesterId"
      LIMIT ${FILTER_MAX_VALUES}`,
  ]);
  return { statuses: STOCK_REQUEST_STATUSES, priorities: STOCK_REQUEST_PRIORITIES, requestingLocationIds: requesting, supplyingLocationIds: supplying, requesters };
}

async function locationsInUse(ctx: RequestContext, organizationId: string, column: Prisma.Sql) {
  const rows = await ctx.prisma.$queryRaw<{ id: string }[]>`
    SELECT l.id FROM locations l
    WHERE l."organizationId" = ${organizationId} AND l.id IN (SELECT ${column} FROM stock_requests WHERE "organizationId" = ${organizationId})
    ORDER BY l.code COLLATE "C", l.id
    LIMIT ${FILTER_MAX_VALUES}`;
  return rows.map((row) => row.id);
}
