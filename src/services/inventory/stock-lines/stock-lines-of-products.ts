import type { RequestContext } from '../../../context.js';
import { directRows } from '../../../db/direct-rows.js';
import { Prisma, type StockLine } from '../../../generated/prisma/client.js';
import { type IdWindow, groupedInListOrder } from '../../id-window.js';
import { windowPerParentSql } from '../../per-parent-sql.js';
import { orgId } from '../../tenant.js';

const STOCK_LINE_COLUMNS = Prisma.raw(
  ['id', 'organizationId', 'productMasterId', 'locationId', 'lotId', 'binId', 'lineKey', 'qtyOnHand', 'qtyReserved', 'qtyOnHold', 'qtyPicked', 'qtyRecalled', 'qtyExpired', 'createdAt', 'updatedAt']
    .map((name) => `s."${name}"`)
    .join(', '),
);

/**
 * A window of each of these products' stock lines (at one location, when given), in id order: one statement for
 * every product, so a product with thousands of lines costs a page of them.
 */
export async function stockLinesOfProducts(
  ctx: RequestContext,
  productIds: readonly string[],
  window: IdWindow & { locationId: string | null },
): Promise<Map<string, StockLine[]>> {
  const conditions = [Prisma.sql`s."organizationId" = ${orgId(ctx)}`];
  if (window.locationId !== null) conditions.push(Prisma.sql`s."locationId" = ${window.locationId}`);
  const sql = windowPerParentSql({ parentIds: productIds, from: 'stock_lines s', alias: 's', parentColumn: 'productMasterId', columns: STOCK_LINE_COLUMNS, conditions, window });
  return groupedInListOrder(productIds, await directRows<StockLine>(ctx, sql), (row) => row.productMasterId, window);
}
