import type { RequestContext } from '../../../context.js';
import { directRows } from '../../../db/direct-rows.js';
import { Prisma, type StockLine } from '../../../generated/prisma/client.js';
import { type IdWindow, groupedInListOrder, idWindowSql } from '../../id-window.js';
import { orgId } from '../../tenant.js';

const STOCK_LINE_COLUMNS = Prisma.raw(
  ['id', 'organizationId', 'productMasterId', 'locationId', 'lotId', 'binId', 'lineKey', 'qtyOnHand', 'qtyReserved', 'qtyOnHold', 'qtyPicked', 'qtyRecalled', 'qtyExpired', 'createdAt', 'updatedAt']
    .map((name) => `s."${name}"`)
    .join(', '),
);

/**
 * A window of each of these products' stock lines (at one location, when given), in id order: one statement for
 * every product, each product's lines limited where they are read (a lateral LIMIT), so a product with thousands
 * of lines costs a page of them.
 */
export async function stockLinesOfProducts(
  ctx: RequestContext,
  productIds: readonly string[],
  window: IdWindow & { locationId: string | null },
): Promise<Map<string, StockLine[]>> {
  const { conditions, orderBy } = idWindowSql(window, 's');
  conditions.push(Prisma.sql`s."organizationId" = ${orgId(ctx)}`, Prisma.sql`s."productMasterId" = p.id`);
  if (window.locationId !== null) conditions.push(Prisma.sql`s."locationId" = ${window.locationId}`);
  const rows = await directRows<StockLine>(
    ctx,
    Prisma.sql`
      SELECT l.* FROM unnest(${[...productIds]}::text[]) AS p(id)
      CROSS JOIN LATERAL (
        SELECT ${STOCK_LINE_COLUMNS} FROM stock_lines s WHERE ${Prisma.join(conditions, ' AND ')}
        ORDER BY ${orderBy} LIMIT ${window.take}
      ) l
      ORDER BY l."productMasterId", ${idWindowSql(window, 'l').orderBy}`,
  );
  return groupedInListOrder(productIds, rows, (row) => row.productMasterId, window);
}
