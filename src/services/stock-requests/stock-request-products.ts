import type { z } from 'zod';
import type { stockRequestProductSearchQuery, stockRequestStocklistQuery } from '../../contracts/stock-requests/stock-request-products.js';
import type { RequestContext } from '../../context.js';
import { Prisma } from '../../generated/prisma/client.js';
import { checkFilterIds } from '../filter-ids.js';
import { type PlanningAction, recommendForLocation } from '../planning/recommendations/recommend-for-location.js';
import { productSearch, productSearchSql } from '../search.js';
import { orgId } from '../tenant.js';
import { availableByLocation } from '../transfers/recommendations/recommendation-rows.js';

export type ProductSearchArgs = z.output<typeof stockRequestProductSearchQuery>;
export type StocklistArgs = z.output<typeof stockRequestStocklistQuery>;

/** Units of a product at the requesting and the supplying location: on hand, and available (the projection's definition). */
interface StockAtBothEnds {
  requestingOnHand: number;
  requestingAvailable: number;
  supplyingOnHand: number | null;
  supplyingAvailable: number | null;
}

export interface RequestableProduct extends StockAtBothEnds {
  productMasterId: string;
  sku: string;
  name: string;
  categoryId: string | null;
}

/**
 * The CTEs `held` (on hand) and `avail` (available: on hand less reserved, held, picked, recalled and
 * expired, lots past expiry or recalled left out) of the products in `page` at the given locations.
 */
const stockCtes = (organizationId: string, locations: string[]) => {
  const where = Prisma.sql`s."organizationId" = ${organizationId} AND s."locationId" IN (${Prisma.join(locations)}) AND s."productMasterId" IN (SELECT id FROM page)`;
  return Prisma.sql`
    held AS (SELECT s."productMasterId", s."locationId", SUM(s."qtyOnHand")::float8 AS on_hand FROM stock_lines s WHERE ${where} GROUP BY 1, 2),
    avail AS (${availableByLocation(where)})`;
};

/** The columns of StockAtBothEnds, from `held` and `avail` joined as hr/ar (requesting) and hs/as_ (supplying). */
const stockColumns = (supplying: boolean) => Prisma.sql`
  COALESCE(hr.on_hand, 0)::float8 AS "requestingOnHand", COALESCE(ar.available, 0)::float8 AS "requestingAvailable",
  ${supplying ? Prisma.sql`COALESCE(hs.on_hand, 0)::float8` : Prisma.sql`NULL::float8`} AS "supplyingOnHand",
  ${supplying ? Prisma.sql`COALESCE(as_.available, 0)::float8` : Prisma.sql`NULL::float8`} AS "supplyingAvailable"`;

const stockJoins = (requesting: string, supplying: string | null) => Prisma.sql`
  LEFT JOIN held hr ON hr."productMasterId" = page.id AND hr."locationId" = ${requesting}
  LEFT JOIN avail ar ON ar."productMasterId" = page.id AND ar."locationId" = ${requesting}
  ${supplying ? Prisma.sql`LEFT JOIN held hs ON hs."productMasterId" = page.id AND hs."locationId" = ${supplying}
  LEFT JOIN avail as_ ON as_."productMasterId" = page.id AND as_."locationId" = ${supplying}` : Prisma.empty}`;

/**
 * The products a location may ask for (every product of the organization: products carry no active flag),
 * by SKU, those whose SKU or name contains `search` (any case), with their stock at both locations.
 */
export async function searchRequestableProducts(ctx: RequestContext, f: ProductSearchArgs) {
  const organizationId = orgId(ctx);
  await checkFilterIds(ctx, { locationId: [f.requestingLocationId, f.supplyingLocationId] });
  const search = await productSearch(ctx, f.search);
  const matches = search ? Prisma.sql`AND ${productSearchSql(search, 'p')}` : Prisma.empty;
  const [products, [counted]] = await Promise.all([
    ctx.prisma.$queryRaw<RequestableProduct[]>`
      WITH page AS (
        SELECT p.id, p.sku, p.name, p."categoryId" FROM product_masters p
        WHERE p."organizationId" = ${organizationId} ${matches}
        ORDER BY p.sku COLLATE "C", p.id LIMIT ${f.limit} OFFSET ${f.offset}
      ),
      ${stockCtes(organizationId, [f.requestingLocationId, f.supplyingLocationId])}
      SELECT page.id AS "productMasterId", page.sku, page.name, page."categoryId", ${stockColumns(true)}
      FROM page ${stockJoins(f.requestingLocationId, f.supplyingLocationId)}
      ORDER BY page.sku COLLATE "C", page.id`,
    ctx.prisma.$queryRaw<{ total: number }[]>`SELECT COUNT(*)::int AS total FROM product_masters p WHERE p."organizationId" = ${organizationId} ${matches}`,
  ]);
  return { requestingLocationId: f.requestingLocationId, supplyingLocationId: f.supplyingLocationId, products, total: counted!.total, limit: f.limit, offset: f.offset };
}

interface LevelRow extends StockAtBothEnds {
  productMasterId: string;
  sku: string;
  name: string;
  minQuantity: number;
  reorderQuantity: number;
  maxQuantity: number;
}

export interface StocklistItem extends LevelRow {
  suggestedQuantity: number;
  /** The planning recommendation behind the suggestion (null: none within the horizon, nothing suggested). */
  action: PlanningAction | null;
  needBy: Date | null;
  reason: string | null;
}

/**
 * The requesting location's usual list: the products with an inventory level there, by SKU, with their
 * stock, and the quantity to ask for from the planning recommendations of the page's products
 * (recommendForLocation, MIN_MAX): what brings the projection back to the target (the maximum when the
 * level has one) on arrival; nothing for a product the projection keeps above its reorder point.
 */
export async function requestingStocklist(ctx: RequestContext, f: StocklistArgs) {
  const organizationId = orgId(ctx);
  await checkFilterIds(ctx, { locationId: [f.requestingLocationId, f.supplyingLocationId] });
  const supplying = f.supplyingLocationId ?? null;
  const levelsHere = Prisma.sql`FROM inventory_levels lv JOIN product_masters p ON p.id = lv."productMasterId"
    WHERE lv."organizationId" = ${organizationId} AND lv."locationId" = ${f.requestingLocationId}`;
  const [levels, [counted]] = await Promise.all([
    ctx.prisma.$queryRaw<LevelRow[]>`
      WITH page AS (
        SELECT p.id, p.sku, p.name, lv."minQuantity", lv."reorderQuantity", lv."maxQuantity" ${levelsHere}
        ORDER BY p.sku COLLATE "C", p.id LIMIT ${f.limit} OFFSET ${f.offset}
      ),
      ${stockCtes(organizationId, supplying ? [f.requestingLocationId, supplying] : [f.requestingLocationId])}
      SELECT page.id AS "productMasterId", page.sku, page.name, page."minQuantity", page."reorderQuantity", page."maxQuantity", ${stockColumns(supplying !== null)}
      FROM page ${stockJoins(f.requestingLocationId, supplying)}
      ORDER BY page.sku COLLATE "C", page.id`,
    ctx.prisma.$queryRaw<{ total: number }[]>`SELECT COUNT(*)::int AS total ${levelsHere}`,
  ]);
  const recommendations = levels.length ? await recommendForLocation(ctx, { locationId: f.requestingLocationId, productMasterIds: levels.map((l) => l.productMasterId) }) : [];
  const byProduct = new Map(recommendations.map((r) => [r.productMasterId, r]));
  const items: StocklistItem[] = levels.map((level) => {
    const r = byProduct.get(level.productMasterId);
    if (!r) return { ...level, suggestedQuantity: 0, action: null, needBy: null, reason: null };
    // An EXPEDITE row's quantity is the late purchase order's; the shortfall is sized as for the others.
    const shortfall = r.action === 'EXPEDITE' ? Math.max(0, Math.round(r.targetQuantity - Math.max(0, r.projectedAtArrival))) : r.quantity;
    return { ...level, suggestedQuantity: shortfall, action: r.action, needBy: r.needBy, reason: r.reason };
  });
  return { requestingLocationId: f.requestingLocationId, supplyingLocationId: supplying, items, total: counted!.total, limit: f.limit, offset: f.offset };
}
