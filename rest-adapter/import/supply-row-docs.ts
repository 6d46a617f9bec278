import type { ImportKind } from '../../src/generated/prisma/enums.js';
import type { z } from 'zod';
import { demandHistoryRow } from '../../src/contracts/import/demand-history-row.js';
import { orderRow } from '../../src/contracts/import/order-row.js';
import { purchaseOrderRow } from '../../src/contracts/import/purchase-order-row.js';
import { supplierRow } from '../../src/contracts/import/supplier-row.js';

const ABSENT = 'An empty string or null counts as absent.';

/** What an import route says of its kind, and the row contract its rows are documented (and judged) by. */
export interface ImportRowDocs {
  summary: string;
  description: string;
  row: z.ZodType;
}

/** Words and row contracts of the supplier, purchase order, order and demand history imports (see import-routes.ts). */
export const SUPPLY_IMPORT_ROW_DOCS: Partial<Record<ImportKind, ImportRowDocs>> = {
  SUPPLIERS: {
    summary: 'Import supplier rows',
    description: `Upserts suppliers by code: a new code creates a supplier (its name defaults to the code), a known code updates it; absent fields keep their stored values. ${ABSENT} Within one request a later row of the same code wins. Read them with the GraphQL query suppliers (procurement.read).`,
    row: supplierRow,
  },
  PURCHASE_ORDERS: {
    summary: 'Import purchase orders (inbound supply)',
    description: `One row is one purchase order with all its lines. number is the idempotent key: importing the same number again updates the header and replaces all its lines (never a second order). A new order's status defaults to PENDING; on update an absent status or expectedAt keeps its stored value. A line without expectedAt is expected on the header's expectedAt. Unknown supplier code, location or SKU (another organization's never resolve): the row is rejected, with field names such as supplierCode, destinationLocationCode or lines.2.sku (line indexes from 0). ${ABSENT} Read them with the GraphQL query purchaseOrders (procurement.read).`,
    row: purchaseOrderRow,
  },
  ORDERS: {
    summary: 'Import sales orders (demand that reserves stock)',
    description: `One row is one sales order with its lines; externalId is the upsert key. Applying an order reserves stock at the fulfillment location for each line, first-expiring lots first (stock without a lot expiry last), never from lots that expired before today or were recalled; each reservation is a stock ledger row (transaction type ORDER_RESERVE, source SALES_ORDER and the order id), so availability reflects the demand. What cannot be reserved is recorded as backordered; the order status is ALLOCATED (all reserved), PARTIALLY_ALLOCATED (some backordered) or OPEN (nothing reserved). Importing the same externalId again releases what the order held (ORDER_RELEASE ledger rows) and reserves again for the new lines, so importing the identical order twice ends with the same reservations. Orders that are CANCELLED or FULFILLED are not changed (the row is rejected). Within one request a later row of the same externalId wins. Unknown location or SKU: the row is rejected (fulfillmentLocationCode, lines.N.sku). ${ABSENT} Read them with the GraphQL query salesOrders (inventory.read).`,
    row: orderRow,
  },
  DEMAND_HISTORY: {
    summary: 'Import weekly demand history',
    description: `Upserts weekly demand by product, location, channel and ISO week: date may be any day of the week; the record is kept under the Monday of its ISO week (2021-01-03, a Sunday, belongs to the week starting 2020-12-28). Each row is the whole record of its week: a re-import replaces actual and forecast units (defaults applied). Within one request, rows with the same product, location, channel and week: the last one wins (they are not summed). Unknown SKU or location: the row is rejected. ${ABSENT} Read them with the GraphQL query demandHistory (planning.read).`,
    row: demandHistoryRow,
  },
};
