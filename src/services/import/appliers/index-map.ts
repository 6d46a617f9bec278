import type { ImportKind } from '../../../generated/prisma/enums.js';
import type { ChunkApplier } from '../kinds.js';
import { applyCatalogChunk } from './catalog.js';
import { applyInventoryChunk } from './inventory.js';
import { applySupplierRows } from './suppliers.js';
import { applyPurchaseOrderRows } from './purchase-orders.js';
import { applyOrderRows } from './orders.js';
import { applyDemandHistoryRows } from './demand-history.js';

/**
 * The applier of each import kind. Only kinds listed here get a POST /api/import/<path> route and
 * are accepted by the startImport mutation; a stored job of an unlisted kind fails with a reason.
 */
export const CHUNK_APPLIERS: Partial<Record<ImportKind, ChunkApplier>> = {
  CATALOG: applyCatalogChunk,
  INVENTORY: applyInventoryChunk,
  SUPPLIERS: applySupplierRows,
  PURCHASE_ORDERS: applyPurchaseOrderRows,
  ORDERS: applyOrderRows,
  DEMAND_HISTORY: applyDemandHistoryRows,
};
