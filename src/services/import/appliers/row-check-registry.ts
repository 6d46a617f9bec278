import type { ImportableKind } from '../../../kernel/import-kinds.js';
import { checkCatalogRows } from './catalog.js';
import { checkDemandRows } from './demand-history.js';
import { inventoryRowCheck } from './inventory.js';
import { checkOrderRows } from './orders.js';
import { checkPurchaseOrderRows } from './purchase-orders.js';
import type { RowCheck } from './row-check.js';
import { checkSupplierRows } from './suppliers.js';

/**
 * For each importable kind, a new check of one request's rows (see RowCheck): the very functions its
 * applier calls before it writes, so that a dry run refuses what the import would. Typed so that no
 * importable kind lacks one.
 */
export const ROW_CHECKS: Record<ImportableKind, () => RowCheck> = {
  CATALOG: () => async (ctx, rows) => (await checkCatalogRows(ctx, rows)).rejections,
  INVENTORY: inventoryRowCheck,
  SUPPLIERS: () => async (_ctx, rows) => checkSupplierRows(rows).rejections,
  PURCHASE_ORDERS: () => async (ctx, rows) => (await checkPurchaseOrderRows(ctx, rows)).rejections,
  ORDERS: () => async (ctx, rows) => (await checkOrderRows(ctx, rows, { lock: false })).rejections,
  DEMAND_HISTORY: () => async (ctx, rows) => (await checkDemandRows(ctx, rows)).rejections,
};
