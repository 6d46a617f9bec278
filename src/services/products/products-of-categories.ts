import type { RequestContext } from '../../context.js';
import { directRows } from '../../db/direct-rows.js';
import { Prisma, type ProductMaster } from '../../generated/prisma/client.js';
import { type IdWindow, groupedInListOrder, idWindowSql } from '../id-window.js';
import { orgId } from '../tenant.js';
import { PRODUCT_COLUMNS } from './products.js';

/**
 * A window of each of these categories' products, newest first: one statement for every category, each read on
 * the index of (categoryId, id) and limited there (a lateral LIMIT), so a category of a million products costs a
 * page of them.
 */
export async function productsOfCategories(ctx: RequestContext, categoryIds: readonly string[], window: IdWindow): Promise<Map<string, ProductMaster[]>> {
  const { conditions, orderBy } = idWindowSql(window, 'pm');
  conditions.push(Prisma.sql`pm."organizationId" = ${orgId(ctx)}`, Prisma.sql`pm."categoryId" = parent.category_id`);
  const rows = await directRows<ProductMaster>(
    ctx,
    Prisma.sql`
      SELECT l.* FROM unnest(${[...categoryIds]}::text[]) AS parent(category_id)
      CROSS JOIN LATERAL (
        SELECT ${PRODUCT_COLUMNS} FROM product_masters pm WHERE ${Prisma.join(conditions, ' AND ')}
        ORDER BY ${orderBy} LIMIT ${window.take}
      ) l
      ORDER BY l."categoryId", ${idWindowSql(window, 'l').orderBy}`,
  );
  return groupedInListOrder(categoryIds, rows, (row) => row.categoryId!, window);
}
