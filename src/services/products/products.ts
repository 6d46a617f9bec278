import type { z } from 'zod';
import type { RequestContext } from '../../context.js';
import { notFound, validationError } from '../../kernel/errors.js';
import { Prisma, type ProductMaster } from '../../generated/prisma/client.js';
import { directRows } from '../../db/direct-rows.js';
import { pinnedColumn } from '../../db/pinned-column.js';
import { type ProductSearch, productSearch, productSearchSql, productSearchWhere } from '../search.js';
import type { productCreate as createSchema, productUpdate as updateSchema } from '../../contracts/products/product-input.js';
import { SKU_TAKEN_MESSAGE } from '../../contracts/products/sku-rules.js';
import { countedRows, countedRowsSql } from '../row-counts/counted-rows.js';
import { totalOf } from '../../kernel/quantity-totals.js';
import { orgId, pageArgs } from '../tenant.js';
import { type IdPagedQuery, idWindowOfQuery, idWindowSql } from '../id-window.js';

/**
 * A product row of the direct statements: the model's columns, the unit cost as a number. Reading numeric as a Decimal
 * cost a list request 5-7% of its Node CPU (decimal.js parsing 50 strings), for a value every reader of a list only
 * shows; PostgreSQL's float8 of a numeric(14,4) is the double that Decimal's toNumber() gives.
 */
export const PRODUCT_COLUMNS = Prisma.raw('id, "organizationId", sku, name, description, "categoryId", "unitCost"::float8 AS "unitCost", "minShelfLifeDays", "createdAt", "updatedAt"');

/** A product of a list: the unit cost a number where a direct statement read it (PRODUCT_COLUMNS), else Prisma's Decimal. */
export type ProductListItem = Omit<ProductMaster, 'unitCost'> & { unitCost: number | Prisma.Decimal | null };

/** The inputs as their contracts output them (parsed once, where they come in). */
export type CreateProductInput = z.output<typeof createSchema>;
export type UpdateProductInput = z.output<typeof updateSchema>;

export interface ProductListArgs {
  page?: number | null;
  limit?: number | null;
  search?: string | null;
  /** Exactly this SKU, without regard to case. */
  sku?: string | null;
}

/** What a list of products is narrowed to: a search (src/services/search.ts) and an exact SKU, each optional. */
export interface ProductFilter {
  search?: string | null;
  sku?: string | null;
}

/**
 * The product whose SKU is `sku` without regard to case (the unique index on the organization and lower(sku)),
 * as an id filter: a lookup by SKU reads one index entry whatever the catalog holds, where `search` matches
 * substrings through trigram postings that grow with it (docs/lists.md). An unknown SKU matches nothing.
 */
async function skuFilter(ctx: RequestContext, sku: string | null | undefined): Promise<Prisma.ProductMasterWhereInput> {
  const wanted = sku?.trim();
  if (!wanted) return {};
  const [row] = await directRows<{ id: string }>(ctx, Prisma.sql`
    SELECT id FROM product_masters WHERE "organizationId" = ${orgId(ctx)} AND lower(sku) = lower(${wanted})`);
  return { id: row?.id ?? '' };
}

/** The product with this SKU (without regard to case), or null. */
export async function findProductBySku(ctx: RequestContext, sku: string, query: { select?: object; include?: object } = {}) {
  const byId = await skuFilter(ctx, sku);
  if (!byId.id) return null;
  return ctx.prisma.productMaster.findFirst({ ...query, where: { ...byId, organizationId: orgId(ctx) } });
}

/**
 * Products matching the filter. Without one, the organization's counter (docs/lists.md), flat however many
 * products it has; with a search, plain SQL (Prisma's count wraps it in a subquery that costs more on every page);
 * with a SKU, 0 or 1 (the search applied too).
 */
export async function countProducts(ctx: RequestContext, filter: ProductFilter = {}) {
  if (filter.sku?.trim()) return ctx.prisma.productMaster.count({ where: await productsWhere(ctx, filter) });
  return countMatches(ctx, await productSearch(ctx, filter.search));
}

async function countMatches(ctx: RequestContext, s: ProductSearch | null) {
  if (!s) return countedRows(ctx, 'products');
  const [row] = await ctx.prisma.$queryRaw<{ count: bigint }[]>`
    SELECT COUNT(*) AS count FROM product_masters p WHERE p."organizationId" = ${orgId(ctx)} AND ${productSearchSql(s, 'p')}`;
  return Number(row?.count ?? 0);
}

/** The organization's products, with those matching the search and the SKU only. */
async function productsWhere(ctx: RequestContext, filter: ProductFilter, search?: ProductSearch | null): Promise<Prisma.ProductMasterWhereInput> {
  const [s, bySku] = await Promise.all([search === undefined ? productSearch(ctx, filter.search) : search, skuFilter(ctx, filter.sku)]);
  return { organizationId: orgId(ctx), ...(s ? productSearchWhere(s) : {}), ...bySku };
}

/**
 * Products newest first; `query` carries the cursor, take and skip of a Relay connection. Unfiltered, and with no
 * relation to load beside the page, the window is one direct statement on the index of (organizationId, id), as the
 * page of `listProducts` is: Prisma's reading of 50 rows cost 2-3 times the CPU (docs/lists.md, Direct statements).
 */
export async function findProducts(ctx: RequestContext, filter: ProductFilter, query: object): Promise<ProductListItem[]> {
  const window = filter.search?.trim() || filter.sku?.trim() ? undefined : idWindowOfQuery(query as IdPagedQuery, true);
  if (!window) return ctx.prisma.productMaster.findMany({ ...query, where: await productsWhere(ctx, filter), orderBy: { id: 'desc' } });
  const { conditions } = idWindowSql(window, 'product_masters');
  const scope = pinnedColumn('"organizationId"', orgId(ctx), window.backward ? 'ASC' : 'DESC');
  const rows = await directRows<ProductListItem>(ctx, Prisma.sql`
    SELECT ${PRODUCT_COLUMNS} FROM product_masters
    WHERE ${Prisma.join([scope.where, ...conditions], ' AND ')} ORDER BY ${scope.orderBy} LIMIT ${window.take}`);
  return window.backward ? rows.reverse() : rows;
}

/**
 * A page of the organization's products, newest first, with the total for paging. Without a search the page
 * and the count run at once (a list is almost always longer than a page). A search usually finds less than a
 * page (a lookup by SKU finds one): its page is read one row longer first, and a page that did not fill is its
 * own total, so the count runs only when more rows match.
 */
export async function listProducts(ctx: RequestContext, args: ProductListArgs) {
  const { page, limit, skip } = pageArgs(args.page, args.limit, { limit: 50, max: 100 });
  const search = await productSearch(ctx, args.search);
  if (!search && !args.sku?.trim()) {
    // The whole rows, as the model reads them, and the counter in one statement straight from the pool where there is
    // one (the hot list): each statement's socket write costs more Node CPU than its rows (docs/lists.md).
    const scope = pinnedColumn('"organizationId"', orgId(ctx), 'DESC');
    const rows = await directRows<ProductListItem & { total: bigint | null }>(ctx, Prisma.sql`
      SELECT c.total, p.* FROM (SELECT ${countedRowsSql(Prisma.sql`${orgId(ctx)}`, 'products', Prisma.sql`''`)} AS total) c
      LEFT JOIN LATERAL (
        SELECT ${PRODUCT_COLUMNS}
        FROM product_masters WHERE ${scope.where} ORDER BY ${scope.orderBy} LIMIT ${limit} OFFSET ${skip}) p ON true
      ORDER BY p.id DESC`);
    const items: ProductListItem[] = rows.filter((row) => row.id !== null).map(({ total: _total, ...product }) => product);
    const total = totalOf(rows[0]?.total ?? 0);
    return { items, total, page, limit, totalPages: Math.ceil(total / limit) };
  }
  const sku = args.sku?.trim();
  if (!search && sku) {
    // A lookup by SKU: the one row by the unique index on the organization and lower(sku), in one statement. It is
    // its own total (0 or 1), which a later page still reports while showing nothing.
    const found = await directRows<ProductListItem>(ctx, Prisma.sql`
      SELECT ${PRODUCT_COLUMNS}
      FROM product_masters WHERE "organizationId" = ${orgId(ctx)} AND lower(sku) = lower(${sku})`);
    return { items: skip === 0 ? found : [], total: found.length, page, limit, totalPages: Math.ceil(found.length / limit) };
  }
  const where = await productsWhere(ctx, args, search);
  const found = await ctx.prisma.productMaster.findMany({ where, orderBy: { id: 'desc' }, skip, take: limit + 1 });
  const items: ProductListItem[] = found.slice(0, limit);
  // Past the end (nothing found on a later page) says nothing of how many came before.
  const known = found.length <= limit && (found.length > 0 || skip === 0);
  const total = known ? skip + found.length : search && !args.sku?.trim() ? await countMatches(ctx, search) : await ctx.prisma.productMaster.count({ where });
  return { items, total, page, limit, totalPages: Math.ceil(total / limit) };
}

export async function getProduct(ctx: RequestContext, id: string, query: { select?: object; include?: object } = {}) {
  const product = await ctx.prisma.productMaster.findFirst({ ...query, where: { id, organizationId: orgId(ctx) } });
  if (!product) throw notFound('Product');
  return product;
}

async function checkCategory(ctx: RequestContext, categoryId: string | null | undefined) {
  if (!categoryId) return;
  const found = await ctx.prisma.category.count({ where: { id: categoryId, organizationId: orgId(ctx) } });
  if (!found) throw validationError({ categoryId: ['Category not found'] });
}

function duplicateSku(error: unknown): never {
  if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
    throw validationError({ sku: [SKU_TAKEN_MESSAGE] });
  }
  throw error;
}

export async function createProduct(ctx: RequestContext, input: CreateProductInput) {
  await checkCategory(ctx, input.categoryId);
  return ctx.prisma.productMaster
    .create({ data: { ...input, organizationId: orgId(ctx) } })
    .catch(duplicateSku);
}

export async function updateProduct(ctx: RequestContext, id: string, input: UpdateProductInput) {
  await getProduct(ctx, id, { select: { id: true } });
  await checkCategory(ctx, input.categoryId);
  // `undefined` leaves a field unchanged; the scoped updateMany keeps the write inside the tenant.
  await ctx.prisma.productMaster
    .updateMany({ where: { id, organizationId: orgId(ctx) }, data: input })
    .catch(duplicateSku);
  return getProduct(ctx, id);
}
