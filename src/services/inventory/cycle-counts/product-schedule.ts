import { escapeLike } from '../../search.js';
import type { z } from 'zod';
import { CYCLE_COUNT_PRODUCT_PAGE, type cycleCountProductQuery } from '../../../contracts/inventory/cycle-counts/cycle-count-query.js';
import type { RequestContext } from '../../../context.js';
import { Prisma } from '../../../generated/prisma/client.js';
import { notFound } from '../../../kernel/errors.js';
import { checkFilterIds } from '../../filter-ids.js';
import { type ListWindow, orgId, pageWindow } from '../../tenant.js';

export type CycleCountProductArgs = z.output<typeof cycleCountProductQuery>;

export interface CycleCountProduct {
  productMasterId: string;
  sku: string;
  productName: string;
  locationId: string;
  lastCountedDate: Date | null;
  nextCountDate: Date;
  isOverdue: boolean;
  abcClass: 'A' | 'B' | 'C' | null;
  currentQty: number;
}

type ScheduleRow = Omit<CycleCountProduct, 'locationId' | 'isOverdue'>;

/** Whose schedule, and which day is today (YYYY-MM-DD): what every statement below is built from. */
export interface ScheduleScope {
  organizationId: string;
  locationId: string;
  today: string;
  abcClass?: string | null;
}

/** The filters that need the product or its stock lines (the slower, set-based path). */
export interface ScheduleFilters {
  term?: string;
  categoryId?: string | null;
  binId?: string | null;
  overdueOnly: boolean;
}

export interface ScheduleCounts {
  before: number;
  due: number;
  after: number;
}

const likeTerm = (term: string) => `%${escapeLike(term)}%`;

/**
 * The count schedule of a location's products (every product with a stock line or an inventory level there),
 * read from cycle_count_schedule, which triggers keep (see its model in schema.prisma): last counted date, next
 * count date (last + the class's frequency; never counted: today; an unclassified product at the C frequency),
 * overdue when the next count date is today or earlier; soonest due first, then by SKU. currentQty is on hand
 * over all its lines at the location, summed for the page's rows only.
 */
export async function cycleCountProducts(ctx: RequestContext, args: CycleCountProductArgs, window?: ListWindow) {
  const organizationId = orgId(ctx);
  const { locationId } = args;
  await checkFilterIds(ctx, { locationId, binId: args.binId });
  if (args.categoryId && !(await ctx.prisma.category.count({ where: { id: args.categoryId, organizationId } }))) throw notFound('Category');
  const { page, limit, skip, take } = pageWindow(args.page, args.limit, CYCLE_COUNT_PRODUCT_PAGE, window);
  const scope: ScheduleScope = { organizationId, locationId, today: new Date().toISOString().slice(0, 10), abcClass: args.abcClass };
  const filters: ScheduleFilters = { term: args.search?.trim() || undefined, categoryId: args.categoryId, binId: args.binId, overdueOnly: !!args.showOverdueOnly };
  let rows: ScheduleRow[];
  let total: number;
  let overdue: number;
  if (filters.term || filters.categoryId || filters.binId) {
    const found = await ctx.prisma.$queryRaw<(ScheduleRow & { total: number; overdue: number })[]>(filteredSql(scope, filters, skip, take));
    rows = found.flatMap(({ total: _t, overdue: _o, ...row }) => (row.productMasterId ? [row] : []));
    [total, overdue] = [found[0]?.total ?? 0, found[0]?.overdue ?? 0];
  } else {
    const [counts] = await ctx.prisma.$queryRaw<ScheduleCounts[]>(scheduleCountsSql(scope));
    const pageSql = indexedPageSql(scope, counts!, filters.overdueOnly, skip, take);
    rows = pageSql ? await ctx.prisma.$queryRaw<ScheduleRow[]>(pageSql) : [];
    overdue = counts!.before + counts!.due;
    total = filters.overdueOnly ? overdue : overdue + counts!.after;
  }
  const todayDate = new Date(`${scope.today}T00:00:00Z`);
  const products: CycleCountProduct[] = rows.map((row) => ({ ...row, locationId, isOverdue: row.nextCountDate.getTime() <= todayDate.getTime() }));
  return { type: 'all-products' as const, products, count: total, overdueCount: overdue, page, pageSize: limit, total, totalPages: Math.ceil(total / limit) };
}

const at = (scope: ScheduleScope) => Prisma.sql`s."organizationId" = ${scope.organizationId} AND s."locationId" = ${scope.locationId}
  ${scope.abcClass ? Prisma.sql`AND s."abcClass"::text = ${scope.abcClass}` : Prisma.empty}`;

/** An ORDER BY of these columns, ascending or all descending (an index is read backwards for the latter). */
const order = (desc: boolean, ...columns: Prisma.Sql[]) => Prisma.join(desc ? columns.map((c) => Prisma.sql`${c} DESC`) : columns, ', ');

/** What a page is chosen by: the columns of the schedule's index, so that choosing reads the index only. */
const COLUMNS = Prisma.sql`s."productMasterId", s.sku, s."dueDate"`;

/** The page's rows (`pageSql`: productMasterId, sku, dueDate, seg) with their class, last count, name and on hand. */
function withDetails(scope: ScheduleScope, pageSql: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`WITH p AS (${pageSql}) ${detailsOf(scope)} ORDER BY p.seg, COALESCE(p."dueDate", ${scope.today}::date), p.sku, p."productMasterId"`;
}

/** SELECT … FROM p (the page, as above) joined to what its rows show. */
function detailsOf(scope: ScheduleScope): Prisma.Sql {
  const { organizationId, locationId, today } = scope;
  return Prisma.sql`
    SELECT p."productMasterId", p.sku, pm.name AS "productName", s."abcClass"::text AS "abcClass", s."lastCountedDate",
           COALESCE(p."dueDate", ${today}::date) AS "nextCountDate",
           COALESCE((SELECT SUM(l."qtyOnHand") FROM stock_lines l
             WHERE l."organizationId" = ${organizationId} AND l."locationId" = ${locationId} AND l."productMasterId" = p."productMasterId"), 0)::int AS "currentQty"
    FROM p
    JOIN cycle_count_schedule s ON s."organizationId" = ${organizationId} AND s."locationId" = ${locationId} AND s."productMasterId" = p."productMasterId"
    JOIN product_masters pm ON pm.id = p."productMasterId"`;
}

/** How many rows are due before today, today (or never counted), and after: from the index. */
export function scheduleCountsSql(scope: ScheduleScope): Prisma.Sql {
  return Prisma.sql`
    SELECT COUNT(*) FILTER (WHERE s."dueDate" < ${scope.today}::date)::int AS before,
           COUNT(*) FILTER (WHERE s."dueDate" IS NULL OR s."dueDate" = ${scope.today}::date)::int AS due,
           COUNT(*) FILTER (WHERE s."dueDate" > ${scope.today}::date)::int AS after
    FROM cycle_count_schedule s WHERE ${at(scope)}`;
}

/**
 * A page of the schedule with no filter but class and overdue, in three segments (due before today; never counted
 * or due today, by SKU; due after today), each read from the index where the page starts in it, so that no request
 * sorts the location's products. Null when the page is past the end.
 */
export function indexedPageSql(scope: ScheduleScope, counts: ScheduleCounts, overdueOnly: boolean, skip: number, take: number): Prisma.Sql | null {
  const where = at(scope);
  const today = scope.today;
  // Each segment reads its rows in index order from whichever end is nearer the page (`desc`): an OFFSET walks the
  // index, and past about two thirds of a segment PostgreSQL would rather scan and sort the location's rows (in the
  // database's collation, several times slower) than walk that far.
  const segments = [
    { size: counts.before, sql: (limit: number, offset: number, desc: boolean) => Prisma.sql`(SELECT ${COLUMNS}, 1 AS seg FROM cycle_count_schedule s WHERE ${where} AND s."dueDate" < ${today}::date
        ORDER BY ${order(desc, Prisma.sql`s."dueDate"`, Prisma.sql`s.sku`, Prisma.sql`s."productMasterId"`)} LIMIT ${limit}::int OFFSET ${offset}::int)` },
    { size: counts.due, sql: (limit: number, offset: number, desc: boolean) => Prisma.sql`(SELECT * FROM (
          SELECT ${COLUMNS}, 2 AS seg FROM cycle_count_schedule s WHERE ${where} AND s."dueDate" IS NULL
          UNION ALL
          SELECT ${COLUMNS}, 2 AS seg FROM cycle_count_schedule s WHERE ${where} AND s."dueDate" = ${today}::date) d
        ORDER BY ${order(desc, Prisma.sql`d.sku`, Prisma.sql`d."productMasterId"`)} LIMIT ${limit}::int OFFSET ${offset}::int)` },
    ...(overdueOnly ? [] : [{ size: counts.after, sql: (limit: number, offset: number, desc: boolean) => Prisma.sql`(SELECT ${COLUMNS}, 3 AS seg FROM cycle_count_schedule s WHERE ${where} AND s."dueDate" > ${today}::date
        ORDER BY ${order(desc, Prisma.sql`s."dueDate"`, Prisma.sql`s.sku`, Prisma.sql`s."productMasterId"`)} LIMIT ${limit}::int OFFSET ${offset}::int)` }]),
  ];
  const parts: Prisma.Sql[] = [];
  let start = 0;
  for (const segment of segments) {
    const from = Math.max(skip, start) - start;
    const to = Math.min(skip + take, start + segment.size) - start;
    if (from < to) {
      const fromEnd = segment.size - to;
      parts.push(fromEnd < from ? segment.sql(to - from, fromEnd, true) : segment.sql(to - from, from, false));
    }
    start += segment.size;
  }
  return parts.length ? withDetails(scope, Prisma.join(parts, ' UNION ALL ')) : null;
}

/**
 * Search, category or bin: one statement gives the page and the totals (`total` and `overdue` on every row; a page
 * past the end is one row of totals with a null productMasterId). The location's schedule rows are chosen first (a
 * search narrowed by searchText, the lowercase SKU and name), and only then checked against their products (the
 * product's own SKU and name decide, and its category): MATERIALIZED, so that no plan starts from every product of
 * every organization.
 */
export function filteredSql(scope: ScheduleScope, filters: ScheduleFilters, skip: number, take: number): Prisma.Sql {
  const { term } = filters;
  const today = scope.today;
  return Prisma.sql`
    WITH c AS MATERIALIZED (
      SELECT ${COLUMNS} FROM cycle_count_schedule s
      WHERE ${at(scope)}
        ${term ? Prisma.sql`AND s."searchText" LIKE lower(${likeTerm(term)})` : Prisma.empty}
        ${filters.overdueOnly ? Prisma.sql`AND (s."dueDate" IS NULL OR s."dueDate" <= ${today}::date)` : Prisma.empty}
        ${
          filters.binId
            ? Prisma.sql`AND EXISTS (SELECT 1 FROM stock_lines b WHERE b."organizationId" = ${scope.organizationId} AND b."locationId" = s."locationId"
                AND b."productMasterId" = s."productMasterId" AND b."binId" = ${filters.binId})`
            : Prisma.empty
        }
    ), m AS MATERIALIZED (
      SELECT c.* FROM c JOIN product_masters pm ON pm.id = c."productMasterId"
      WHERE TRUE
        ${term ? Prisma.sql`AND (pm.sku ILIKE ${likeTerm(term)} OR pm.name ILIKE ${likeTerm(term)})` : Prisma.empty}
        ${filters.categoryId ? Prisma.sql`AND pm."categoryId" = ${filters.categoryId}` : Prisma.empty}
    ), t AS (
      SELECT COUNT(*)::int AS total, COUNT(*) FILTER (WHERE "dueDate" IS NULL OR "dueDate" <= ${today}::date)::int AS overdue FROM m
    ), p AS (
      SELECT m.*, 1 AS seg FROM m ORDER BY COALESCE("dueDate", ${today}::date), sku, "productMasterId" LIMIT ${take}::int OFFSET ${skip}::int
    ), d AS (${detailsOf(scope)})
    SELECT d.*, t.total, t.overdue FROM t LEFT JOIN d ON TRUE
    ORDER BY d."nextCountDate", d.sku, d."productMasterId"`;
}
