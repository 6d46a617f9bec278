import type { ImportKind } from '../../../generated/prisma/enums.js';
import type { ImportableKind } from '../../../kernel/import-kinds.js';
import type { ChunkApplier } from '../jobs/kinds.js';
import { applyCatalogChunk, catalogRowKey } from './catalog.js';
import { applyInventoryChunk } from './inventory.js';
import { applySupplierRows } from './suppliers.js';
import { applyPurchaseOrderRows } from './purchase-orders.js';
import { applyOrderRows } from './orders.js';
import { applyDemandHistoryRows, demandRowKeys } from './demand-history.js';

/**
 * The applier of each importable kind (IMPORTABLE_KINDS); a stored job of another kind fails with a
 * reason. Typed so that no importable kind lacks one.
 */
export const CHUNK_APPLIERS: Partial<Record<ImportKind, ChunkApplier>> & Record<ImportableKind, ChunkApplier> = {
  CATALOG: applyCatalogChunk,
  INVENTORY: applyInventoryChunk,
  SUPPLIERS: applySupplierRows,
  PURCHASE_ORDERS: applyPurchaseOrderRows,
  ORDERS: applyOrderRows,
  DEMAND_HISTORY: applyDemandHistoryRows,
};

/**
 * For kinds whose rows upsert by a natural key, given the organization: a function of one job's rows
 * giving a key that two rows share whenever they would write the same record (it may also be shared by
 * rows that would not), or null when it cannot tell. A job none of whose keys is in two chunks may have
 * its chunks applied in any order and at once (see startImport and the worker).
 */
export const ROW_KEYS: Partial<Record<ImportKind, (organizationId: string) => (row: unknown) => string | null>> = {
  CATALOG: () => catalogRowKey,
  DEMAND_HISTORY: demandRowKeys,
};
