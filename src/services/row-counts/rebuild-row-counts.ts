import type { OperatorContext } from '../../context.js';
import { inTransaction } from '../../db/transactions.js';

/**
 * Counts every organization's products and stock lines again and makes location_products anew, for an operator
 * whose rows were written with the triggers off (a restore with --disable-triggers, session_replication_role =
 * replica, TRUNCATE). Writers of products and stock lines wait while it runs (SHARE locks), so the counts are exact
 * when it commits. Answers the rows it wrote.
 */
export async function rebuildRowCounts(ctx: OperatorContext): Promise<{ locationProducts: number; scopes: number }> {
  return inTransaction(
    ctx,
    async (ctx) => {
      const tx = ctx.prisma;
      await tx.$executeRawUnsafe('LOCK TABLE product_masters, stock_lines IN SHARE MODE');
      await tx.$executeRawUnsafe('LOCK TABLE location_products, row_count_deltas IN EXCLUSIVE MODE');
      // location_products first: its delete trigger writes deltas, which the next statement removes with the rest.
      await tx.$executeRaw`DELETE FROM location_products`;
      await tx.$executeRaw`DELETE FROM row_count_deltas`;
      // Its insert trigger counts each location's products.
      const locationProducts = await tx.$executeRaw`
        INSERT INTO location_products ("organizationId", "locationId", "productMasterId", sku)
        SELECT DISTINCT s."organizationId", s."locationId", s."productMasterId", p.sku
        FROM stock_lines s JOIN product_masters p ON p.id = s."productMasterId"`;
      await tx.$executeRaw`
        INSERT INTO row_count_deltas ("organizationId", counted, "scopeId", delta)
        SELECT "organizationId", 'products', '', COUNT(*) FROM product_masters GROUP BY 1
        UNION ALL SELECT "organizationId", 'stock_lines', '', COUNT(*) FROM stock_lines GROUP BY 1
        UNION ALL SELECT "organizationId", 'stock_lines', "locationId", COUNT(*) FROM stock_lines GROUP BY 1, 3`;
      const scopes = await tx.rowCountDelta.count();
      return { locationProducts, scopes };
    },
    { maxWait: 10_000, timeout: 30 * 60_000 },
  );
}
