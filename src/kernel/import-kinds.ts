import type { ImportKind } from '../generated/prisma/enums.js';

/** URL segment of each kind: POST /api/import/<path>. */
export const IMPORT_PATHS: Record<string, ImportKind> = {
  catalog: 'CATALOG',
  inventory: 'INVENTORY',
  suppliers: 'SUPPLIERS',
  'purchase-orders': 'PURCHASE_ORDERS',
  orders: 'ORDERS',
  'demand-history': 'DEMAND_HISTORY',
};

/**
 * Kinds that have an applier (src/services/import/appliers/applier-registry.ts must list exactly these). Only
 * these get a POST /api/import/<path> route and are accepted by the startImport mutation.
 */
export const IMPORTABLE_KINDS = ['CATALOG', 'INVENTORY', 'SUPPLIERS', 'PURCHASE_ORDERS', 'ORDERS', 'DEMAND_HISTORY'] as const satisfies readonly ImportKind[];
export type ImportableKind = (typeof IMPORTABLE_KINDS)[number];

export const PURCHASE_ORDER_STATUSES = ['PENDING', 'APPROVED', 'SENT', 'PARTIALLY_RECEIVED', 'RECEIVED', 'CANCELLED'] as const;
