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
  const [row] = await directRows<{ count: bigint | null }>(ctx, Prisma.sql`
    SELECT SUM(delta) AS count FROM row_count_deltas
    WHERE "organizationId" = ${orgId(ctx)} AND counted = ${counted} AND "scopeId" = ${scopeId}`);
  return totalOf(row?.count ?? 0);
}
