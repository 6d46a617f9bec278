import type { RequestContext } from '../../context.js';
import { totalOf } from '../../kernel/quantity-totals.js';
import { orgId } from '../tenant.js';
import { directRows } from '../../db/direct-rows.js';
import { Prisma } from '../../generated/prisma/client.js';

/**
 * What the triggers of migration location_products_and_row_counts count: the organization's products and stock lines
 * (scope ''), a location's stock lines and the products it holds stock of (scope: the location's id).
 */
export type Counted = 'products' | 'stock_lines' | 'location_products';

/**
 * The exact number of the organization's `counted` rows in `scopeId`, as this statement's snapshot sees them: the
 * sum of the scope's deltas, which the triggers write in the transaction of every insert and delete. An index-only
 * read of the few rows the compaction loop has not folded yet, however many rows are counted.
 */
export async function countedRows(ctx: RequestContext, counted: Counted, scopeId = ''): Promise<number> {
  const [row] = await directRows<{ count: bigint | null }>(ctx, Prisma.sql`SELECT ${countedRowsSql(Prisma.sql`${orgId(ctx)}`, counted, Prisma.sql`${scopeId}`)} AS count`);
  return totalOf(row?.count ?? 0);
}

/**
 * The same count as a scalar subquery (bigint, null for none), for a statement that reads it beside other rows. SUM of
 * a bigint is numeric, which the driver reads into a Decimal: a statement that repeats the count on each of a page's
 * rows made 50 of them a request (4% of the products page's CPU); as bigint it is read as a BigInt.
 */
export const countedRowsSql = (organizationId: Prisma.Sql, counted: Counted, scopeId: Prisma.Sql) => Prisma.sql`
  (SELECT SUM(d.delta)::bigint FROM row_count_deltas d WHERE d."organizationId" = ${organizationId} AND d.counted = ${counted} AND d."scopeId" = ${scopeId})`;
