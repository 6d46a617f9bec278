import type { RequestContext } from '../../../context.js';
import { STOCK_LINE_PAGE } from '../../../contracts/inventory/stock-lines/stock-line-queries.js';
import { notFound } from '../../../kernel/errors.js';
import { checkFilterIds } from '../../filter-ids.js';
import { Prisma, type StockLine } from '../../../generated/prisma/client.js';
import { directRows } from '../../../db/direct-rows.js';
import { pinnedColumn } from '../../../db/pinned-column.js';
import { totalOf } from '../../../kernel/quantity-totals.js';
import { orgId, pageArgs } from '../../tenant.js';
import { countedRows, countedRowsSql } from '../../row-counts/counted-rows.js';
import { productSearch, productSearchWhere } from '../../search.js';

/** Prisma query fragment from a Pothos resolver (select or include); empty for plain service calls. */
export type Query = { select?: object; include?: object };

/** Filters shared by the stock-line list, its connection and the availability query. */
export interface StockLineFilter {
  locationId?: string | null;
  productMasterId?: string | null;
  lotId?: string | null;
  binId?: string | null;
  /** Case-insensitive match on the product's SKU or name. */
  search?: string | null;
}

export interface StockLinePageArgs extends StockLineFilter {
  page?: number | null;
  limit?: number | null;
}


/** An empty filter is no filter, as checkFilterIds takes it. */
const given = (value: string | null | undefined): value is string => Boolean(value);

export async function stockLineWhere(ctx: RequestContext, filter: StockLineFilter): Promise<Prisma.StockLineWhereInput> {
  const where: Prisma.StockLineWhereInput = { organizationId: orgId(ctx) };
  if (given(filter.locationId)) where.locationId = filter.locationId;
  if (given(filter.productMasterId)) where.productMasterId = filter.productMasterId;
  if (given(filter.lotId)) where.lotId = filter.lotId;
  if (given(filter.binId)) where.binId = filter.binId;
  const search = await productSearch(ctx, filter.search);
  if (search) where.productMaster = productSearchWhere(search);
  return where;
}

/** Stock lines in id (creation) order; `query` carries the cursor, take and skip of a Relay connection. */
export async function findStockLines(ctx: RequestContext, filter: StockLineFilter, query: object = {}) {
  await checkFilterIds(ctx, filter);
  return ctx.prisma.stockLine.findMany({ ...query, where: await stockLineWhere(ctx, filter), orderBy: { id: 'asc' } });
}

/**
 * Stock lines matching the filter. The organization's, or a location's, with no other filter: their counter
 * (docs/lists.md), flat however many lines there are; otherwise counted in the table.
 */
export async function countStockLines(ctx: RequestContext, filter: StockLineFilter) {
  const narrowed = given(filter.productMasterId) || given(filter.lotId) || given(filter.binId) || Boolean(filter.search?.trim());
  if (!narrowed) return countedRows(ctx, 'stock_lines', given(filter.locationId) ? filter.locationId : '');
  return ctx.prisma.stockLine.count({ where: await stockLineWhere(ctx, filter) });
}

/** A page of stock lines in id order with the totals for paging (GET /api/inventory). */
export async function listStockLines(ctx: RequestContext, args: StockLinePageArgs, query: Query = {}) {
  const { page, limit, skip } = pageArgs(args.page, args.limit, STOCK_LINE_PAGE);
  if (directPage(args, query)) {
    const { items, total } = await directLinePage(ctx, args.locationId, limit, skip);
    return { items, page, pageSize: limit, total, totalPages: Math.ceil(total / limit) };
  }
  await checkFilterIds(ctx, args);
  const where = await stockLineWhere(ctx, args);
  const [items, total] = await Promise.all([
    ctx.prisma.stockLine.findMany({ ...query, where, orderBy: { id: 'asc' }, skip, take: limit }),
    countStockLines(ctx, args),
  ]);
  return { items, page, pageSize: limit, total, totalPages: Math.ceil(total / limit) };
}

/**
 * The hot page (the organization's lines or a location's, no other filter) is read in one statement, each line with its
 * lot's expiry date (what the expiryDate field reads; the lines' links load through the request's loaders). A query the
 * Prisma plugin filled in (a relation StockLine does not have today) goes through Prisma, which loads what it names.
 */
function directPage(args: StockLineFilter, query: Query) {
  const narrowed = given(args.productMasterId) || given(args.lotId) || given(args.binId) || Boolean(args.search?.trim());
  return !narrowed && Object.keys(query).length === 0;
}

type DirectLineRow = StockLine & { total: bigint | null; located: boolean; lotExpiryDate: Date | null };

/**
 * The page, its total from the counter (docs/lists.md) and whether the location is the organization's, in one
 * statement: the separate location check, page, lots and count cost four round trips, and on this kind of host
 * each statement's socket write costs more Node CPU than reading the rows.
 */
async function directLinePage(ctx: RequestContext, locationId: string | null | undefined, limit: number, skip: number) {
  const organizationId = orgId(ctx);
  const location = given(locationId) ? locationId : null;
  const scope = location ? pinnedColumn('"locationId"', location) : pinnedColumn('"organizationId"', organizationId);
  const tenant = location ? Prisma.sql`"organizationId" = ${organizationId} AND` : Prisma.empty;
  const rows = await directRows<DirectLineRow>(ctx, Prisma.sql`
    SELECT c.total, c.located, s.*, lo."expiryDate" AS "lotExpiryDate"
    FROM (SELECT ${countedRowsSql(Prisma.sql`${organizationId}`, 'stock_lines', Prisma.sql`${location ?? ''}`)} AS total,
                 ${location ? Prisma.sql`EXISTS (SELECT 1 FROM locations WHERE id = ${location} AND "organizationId" = ${organizationId})` : Prisma.sql`true`} AS located) c
    LEFT JOIN LATERAL (
      SELECT * FROM stock_lines
      WHERE ${tenant} ${scope.where}
      ORDER BY ${scope.orderBy} LIMIT ${limit} OFFSET ${skip}) s ON c.located
    LEFT JOIN lots lo ON lo.id = s."lotId"
    ORDER BY s.id`);
  if (!rows[0]?.located) throw notFound('Location');
  const items = rows
    .filter((row) => row.id !== null)
    .map(({ total: _total, located: _located, lotExpiryDate, ...line }): StockLine & { lot: { expiryDate: Date | null } | null } =>
      Object.assign(line, { lot: line.lotId ? { expiryDate: lotExpiryDate } : null }),
    );
  return { items, total: totalOf(rows[0].total ?? 0) };
}

export async function getStockLine(ctx: RequestContext, id: string, query: Query = {}) {
  const line = await ctx.prisma.stockLine.findFirst({ ...query, where: { id, organizationId: orgId(ctx) } });
  if (!line) throw notFound('Inventory item');
  return line;
}
