import type { RequestContext } from '../../context.js';
import { directRows } from '../../db/direct-rows.js';
import { Prisma } from '../../generated/prisma/client.js';
import { type IdWindow, groupedInListOrder } from '../id-window.js';
import { windowPerParentSql } from '../per-parent-sql.js';
import { orgId } from '../tenant.js';
import { PRODUCT_COLUMNS, type ProductListItem } from './products.js';

/**
 * A window of each of these categories' products, newest first: one statement for every category, each read on
 * the index of (categoryId, id), so a category of a million products costs a page of them.
 */
export async function productsOfCategories(ctx: RequestContext, categoryIds: readonly string[], window: IdWindow): Promise<Map<string, ProductListItem[]>> {
  const conditions = [Prisma.sql`pm."organizationId" = ${orgId(ctx)}`];
  const sql = windowPerParentSql({ parentIds: categoryIds, from: 'product_masters pm', alias: 'pm', parentColumn: 'categoryId', columns: PRODUCT_COLUMNS, conditions, window });
  return groupedInListOrder(categoryIds, await directRows<ProductListItem>(ctx, sql), (row) => row.categoryId!, window);
}
