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

/** How much a job's written rows grow between two ANALYZEs while it runs (see analyzeDuringImport). */
const ANALYZE_GROWTH = 4;

/**
 * ANALYZE the tables a running job writes when the chunk just applied took its processed rows from
 * `before` to `after` across a mark: `minRows`, then each ANALYZE_GROWTH times more (1,000, 4,000, 16,000,
 * 64,000 by default). A table that grew from nearly empty during the job otherwise keeps the statistics of
 * when it was small, and so do the plans cached for it (prepared statements, the triggers' PL/pgSQL): a
 * statement joining a chunk's 500 lines with them hashed every line of the organization, and a trigger's
 * check scanned every inventory level, each chunk longer than the one before. ANALYZE also drops those
 * cached plans. Returns the tables analyzed.
 */
export async function analyzeDuringImport(app: Pick<App, 'prisma'>, kind: ImportKind, before: number, after: number, minRows: number): Promise<string[]> {
  if (minRows <= 0 || after < minRows) return [];
  let mark = minRows;
  while (mark * ANALYZE_GROWTH <= after) mark *= ANALYZE_GROWTH;
  return before < mark ? analyzeImported(app, kind, after, minRows) : [];
}
