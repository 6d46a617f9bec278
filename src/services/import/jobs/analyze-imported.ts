import type { App } from '../../../context.js';
import type { ImportKind } from '../../../generated/prisma/enums.js';
import type { ImportableKind } from '../../../kernel/import-kinds.js';

/** The tables each kind's applier writes, whose statistics a large job changes. */
const WRITTEN: Record<ImportableKind, string[]> = {
  CATALOG: ['product_masters', 'categories'],
  INVENTORY: ['stock_lines', 'stock_transactions', 'lots', 'inventory_levels'],
  SUPPLIERS: ['suppliers'],
  PURCHASE_ORDERS: ['purchase_orders', 'purchase_order_lines'],
  ORDERS: ['sales_orders', 'sales_order_lines', 'sales_order_allocations', 'stock_lines', 'stock_transactions'],
  DEMAND_HISTORY: ['demand_history'],
};

/**
 * ANALYZE the tables a completed job wrote when it had at least `minRows` rows (0: never). A freshly loaded
 * table has no statistics until autovacuum's analyze gets to it (never, where autovacuum is off), and the
 * planner then guesses: 2,000 rows for 9, a sequential scan for an index lookup. ANALYZE samples a bounded
 * number of rows (300 × the statistics target), so it costs about the same at 10,000 rows and at 10 million.
 * Returns the tables analyzed.
 */
export async function analyzeImported(app: Pick<App, 'prisma'>, kind: ImportKind, rows: number, minRows: number): Promise<string[]> {
  const tables = WRITTEN[kind as ImportableKind];
  if (!tables || minRows <= 0 || rows < minRows) return [];
  // The names are the constants above, never input.
  await app.prisma.$executeRawUnsafe(`ANALYZE ${tables.join(', ')}`);
  return tables;
}
