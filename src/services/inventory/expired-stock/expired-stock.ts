import type { z } from 'zod';
import type { RequestContext } from '../../../context.js';
import type { expiredStockQuery } from '../../../contracts/inventory/expired-stock/expired-stock.js';
import { EXPIRED_PAGE } from '../../../contracts/inventory/expired-stock/expired-stock.js';
import { Prisma } from '../../../generated/prisma/client.js';
import { notFound } from '../../../kernel/errors.js';
import { dateOnly, isoDay } from '../../../kernel/iso-dates.js';
import { orgId } from '../../tenant.js';
import { availableQty, startOfTodayUtc } from '../stock-lines/quantities.js';

export type ExpiredStockQuery = z.output<typeof expiredStockQuery>;

export interface ExpiredLine {
  stockLineId: string;
  productMasterId: string;
  sku: string;
  locationId: string;
  lotId: string;
  lotCode: string;
  binId: string | null;
  expiryDate: string;
  daysExpired: number;
  qtyOnHand: number;
  qtyExpired: number;
  qtyAvailable: number;
  unitCost: number | null;
  value: number;
}

export interface ExpiredStock {
  asOf: string;
  lines: ExpiredLine[];
  total: number;
  totalUnits: number;
  totalExpiredUnits: number;
  totalValue: number;
  limit: number;
  offset: number;
}

type Row = {
  id: string; productMasterId: string; sku: string; locationId: string; lotId: string; lotCode: string; binId: string | null;
  expiryDate: Date | string; qtyOnHand: number; qtyReserved: number; qtyOnHold: number; qtyPicked: number; qtyRecalled: number; qtyExpired: number;
  unitCost: string | null; total: bigint; totalUnits: bigint; totalExpiredUnits: bigint; totalValue: string | null;
};

const DAY_MS = 86_400_000;

async function checkFilters(ctx: RequestContext, query: ExpiredStockQuery) {
  const organizationId = orgId(ctx);
  const [location, product, lot] = await Promise.all([
    query.locationId ? ctx.prisma.location.findFirst({ where: { id: query.locationId, organizationId }, select: { id: true } }) : true,
    query.productMasterId ? ctx.prisma.productMaster.findFirst({ where: { id: query.productMasterId, organizationId }, select: { id: true } }) : true,
    query.lotId ? ctx.prisma.lot.findFirst({ where: { id: query.lotId, organizationId }, select: { id: true } }) : true,
  ]);
  if (!location) throw notFound('Location');
  if (!product) throw notFound('Product');
  if (!lot) throw notFound('Lot');
}

/**
 * Stock lines with units on hand whose lot expired before `asOf` (default today), oldest expiry first,
 * with totals over every matching line (not only the page): units on hand, units already marked expired,
 * and their value at the product's unit cost (a product without one counts 0).
 */
export async function listExpiredStock(ctx: RequestContext, query: ExpiredStockQuery): Promise<ExpiredStock> {
  await checkFilters(ctx, query);
  const asOf = query.asOf ? dateOnly(query.asOf) : startOfTodayUtc();
  const before = new Date(asOf.getTime() - (query.minDaysExpired ?? 0) * DAY_MS);
  const limit = query.limit ?? EXPIRED_PAGE.limit;
  const offset = query.offset ?? 0;
  const and = (column: Prisma.Sql, value: string | undefined) => (value ? Prisma.sql`AND ${column} = ${value}` : Prisma.empty);
  const rows = await ctx.prisma.$queryRaw<Row[]>`
    WITH m AS (
      SELECT sl.*, l.code AS "lotCode", l."expiryDate", pm.sku, pm."unitCost"
      FROM stock_lines sl JOIN lots l ON l.id = sl."lotId" JOIN product_masters pm ON pm.id = sl."productMasterId"
      WHERE sl."organizationId" = ${orgId(ctx)} AND sl."qtyOnHand" > 0 AND l."expiryDate" < ${asOf}::date
        AND l."expiryDate" <= ${before}::date
        ${and(Prisma.sql`sl."locationId"`, query.locationId)} ${and(Prisma.sql`sl."productMasterId"`, query.productMasterId)} ${and(Prisma.sql`sl."lotId"`, query.lotId)})
    SELECT m.id, m."productMasterId", m.sku, m."locationId", m."lotId", m."lotCode", m."binId", m."expiryDate", m."qtyOnHand", m."qtyReserved", m."qtyOnHold",
           m."qtyPicked", m."qtyRecalled", m."qtyExpired", m."unitCost"::text AS "unitCost", t.*
    FROM (SELECT count(*) AS total, coalesce(sum("qtyOnHand"), 0) AS "totalUnits", coalesce(sum("qtyExpired"), 0) AS "totalExpiredUnits",
                 round(coalesce(sum("qtyOnHand" * coalesce("unitCost", 0)), 0), 4)::text AS "totalValue" FROM m) t
    LEFT JOIN LATERAL (SELECT * FROM m ORDER BY m."expiryDate", m.id LIMIT ${limit} OFFSET ${offset}) m ON true`;
  const head = rows[0];
  const lines = rows.filter((row) => row.id).map((row): ExpiredLine => {
    const expiryDate = isoDay(row.expiryDate)!;
    return {
      stockLineId: row.id, productMasterId: row.productMasterId, sku: row.sku, locationId: row.locationId, lotId: row.lotId, lotCode: row.lotCode, binId: row.binId,
      expiryDate,
      daysExpired: Math.round((asOf.getTime() - dateOnly(expiryDate).getTime()) / DAY_MS),
      qtyOnHand: row.qtyOnHand, qtyExpired: row.qtyExpired, qtyAvailable: availableQty(row),
      unitCost: row.unitCost === null ? null : Number(row.unitCost),
      value: new Prisma.Decimal(row.unitCost ?? 0).times(row.qtyOnHand).toDecimalPlaces(4).toNumber(),
    };
  });
  return {
    asOf: isoDay(asOf)!,
    lines,
    total: Number(head?.total ?? 0),
    totalUnits: Number(head?.totalUnits ?? 0),
    totalExpiredUnits: Number(head?.totalExpiredUnits ?? 0),
    totalValue: Number(head?.totalValue ?? 0),
    limit,
    offset,
  };
}
