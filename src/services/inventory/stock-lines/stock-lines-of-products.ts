import type { RequestContext } from '../../../context.js';
import { directRows } from '../../../db/direct-rows.js';
import { Prisma, type StockLine } from '../../../generated/prisma/client.js';
import { orgId } from '../../tenant.js';

/** Which of each product's stock lines to read, in id order: after or before an id, at most `take`, from the end when `backward`. */
export interface StockLinesWindow {
  locationId: string | null;
  afterId?: string;
  beforeId?: string;
  take: number;
  backward: boolean;
}

const STOCK_LINE_COLUMNS = Prisma.raw(
  ['id', 'organizationId', 'productMasterId', 'locationId', 'lotId', 'binId', 'lineKey', 'qtyOnHand', 'qtyReserved', 'qtyOnHold', 'qtyPicked', 'qtyRecalled', 'qtyExpired', 'createdAt', 'updatedAt']
    .map((name) => `s."${name}"`)
    .join(', '),
);

/**
 * A window of each of these products' stock lines (at one location, when given), in id order: one statement for
 * every product, each product's lines limited where they are read (a lateral LIMIT), so a product with thousands
 * of lines costs a page of them. Each list is in ascending id order, a backward window too.
 */
export async function stockLinesOfProducts(ctx: RequestContext, productIds: readonly string[], window: StockLinesWindow): Promise<Map<string, StockLine[]>> {
  const conditions = [Prisma.sql`s."organizationId" = ${orgId(ctx)}`, Prisma.sql`s."productMasterId" = p.id`];
  if (window.locationId !== null) conditions.push(Prisma.sql`s."locationId" = ${window.locationId}`);
  if (window.afterId !== undefined) conditions.push(Prisma.sql`s.id > ${window.afterId}`);
  if (window.beforeId !== undefined) conditions.push(Prisma.sql`s.id < ${window.beforeId}`);
  const direction = Prisma.raw(window.backward ? 'DESC' : 'ASC');
  const rows = await directRows<StockLine>(
    ctx,
    Prisma.sql`
      SELECT l.* FROM unnest(${[...productIds]}::text[]) AS p(id)
      CROSS JOIN LATERAL (
        SELECT ${STOCK_LINE_COLUMNS} FROM stock_lines s WHERE ${Prisma.join(conditions, ' AND ')}
        ORDER BY s.id ${direction} LIMIT ${window.take}
      ) l
      ORDER BY l."productMasterId", l.id ${direction}`,
  );
  const byProduct = new Map<string, StockLine[]>(productIds.map((id) => [id, []]));
  for (const row of rows) byProduct.get(row.productMasterId)?.push(row);
  if (window.backward) for (const lines of byProduct.values()) lines.reverse();
  return byProduct;
}
