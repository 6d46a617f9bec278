import type { ImportKind } from '../../src/generated/prisma/enums.js';
import { PURCHASE_ORDER_STATUSES } from '../../src/kernel/import-kinds.js';

const LOCATION_REF =
  'Location code (for example DC-EAST) or its normalized form: organization id and location id joined by a hyphen (<organizationId>-<locationId>).';
const ABSENT = 'An empty string or null counts as absent.';
const date = (description: string) => ({ type: 'string', format: 'date', description: `${description} ISO date YYYY-MM-DD, year 1900 or later (a date-time's date part is used).` });

/** Row schema and words of the supplier, purchase order, order and demand history imports (see import-routes.ts). */
/** The lines array of a purchase or sales order row. */
const orderLines = (quantityMeaning: string, more: Record<string, unknown> = {}) => ({
  type: 'array',
  minItems: 1,
  maxItems: 1000,
  description: 'Lines of the order (at least one), numbered from 1 in this order.',
  items: {
    type: 'object',
    required: ['sku', 'quantity'],
    properties: {
      sku: { type: 'string', description: 'SKU of an existing product.' },
      quantity: { type: ['integer', 'string'], minimum: 1, description: `${quantityMeaning} (a whole number greater than 0).` },
      ...more,
    },
  },
});

export const SUPPLY_IMPORT_ROW_DOCS: Partial<Record<ImportKind, { summary: string; description: string; row: Record<string, unknown> }>> = {
  SUPPLIERS: {
    summary: 'Import supplier rows',
    description: `Upserts suppliers by code: a new code creates a supplier (its name defaults to the code), a known code updates it; absent fields keep their stored values. ${ABSENT} Within one request a later row of the same code wins. Read them with the GraphQL query suppliers (procurement.read).`,
    row: {
      type: 'object',
      required: ['code'],
      properties: {
        code: { type: 'string', minLength: 1, maxLength: 100, description: 'Unique supplier identifier within the organization (the upsert key).' },
        name: { type: 'string', maxLength: 300, description: 'Supplier name; a new supplier without one is named after its code.' },
        email: { type: 'string', format: 'email', description: 'Contact email address.' },
        phone: { type: 'string', maxLength: 50, description: 'Contact phone number.' },
        leadTimeDays: { type: ['integer', 'string'], minimum: 0, maximum: 3650, description: 'Usual days from ordering to receiving.' },
      },
    },
  },
  PURCHASE_ORDERS: {
    summary: 'Import purchase orders (inbound supply)',
    description: `One row is one purchase order with all its lines. number is the idempotent key: importing the same number again updates the header and replaces all its lines (never a second order). A new order's status defaults to PENDING; on update an absent status or expectedAt keeps its stored value. A line without expectedAt is expected on the header's expectedAt. Unknown supplier code, location or SKU (another organization's never resolve): the row is rejected, with field names such as supplierCode, destinationLocationCode or lines.2.sku (line indexes from 0). ${ABSENT} Read them with the GraphQL query purchaseOrders (procurement.read).`,
    row: {
      type: 'object',
      required: ['number', 'supplierCode', 'destinationLocationCode', 'lines'],
      properties: {
        number: { type: 'string', minLength: 1, maxLength: 100, description: 'Purchase order number, unique within the organization (the idempotent key).' },
        supplierCode: { type: 'string', description: 'Code of an existing supplier of the organization.' },
        destinationLocationCode: { type: 'string', description: `Location that receives the goods. ${LOCATION_REF}` },
        status: { type: 'string', enum: [...PURCHASE_ORDER_STATUSES], default: 'PENDING', description: 'Order status (default PENDING for a new order).' },
        expectedAt: date('When the goods are expected.'),
        lines: orderLines('Units ordered', {
          unitCost: { type: ['number', 'string'], minimum: 0, description: 'Cost of one unit (0 or more).' },
          expectedAt: date("When this line is expected (default: the order's expectedAt)."),
        }),
      },
    },
  },
  ORDERS: {
    summary: 'Import sales orders (demand that reserves stock)',
    description: `One row is one sales order with its lines; externalId is the upsert key. Applying an order reserves stock at the fulfillment location for each line, first-expiring lots first (stock without a lot expiry last), never from lots that expired before today or were recalled; each reservation is a stock ledger row (transaction type ORDER_RESERVE, source SALES_ORDER and the order id), so availability reflects the demand. What cannot be reserved is recorded as backordered; the order status is ALLOCATED (all reserved), PARTIALLY_ALLOCATED (some backordered) or OPEN (nothing reserved). Importing the same externalId again releases what the order held (ORDER_RELEASE ledger rows) and reserves again for the new lines, so importing the identical order twice ends with the same reservations. Orders that are CANCELLED or FULFILLED are not changed (the row is rejected). Within one request a later row of the same externalId wins. Unknown location or SKU: the row is rejected (fulfillmentLocationCode, lines.N.sku). ${ABSENT} Read them with the GraphQL query salesOrders (inventory.read).`,
    row: {
      type: 'object',
      required: ['externalId', 'fulfillmentLocationCode', 'lines'],
      properties: {
        externalId: { type: 'string', minLength: 1, maxLength: 200, description: 'External order identifier, unique within the organization (the upsert key).' },
        fulfillmentLocationCode: { type: 'string', description: `Location whose stock fulfils the order. ${LOCATION_REF}` },
        lines: orderLines('Units requested'),
      },
    },
  },
  DEMAND_HISTORY: {
    summary: 'Import weekly demand history',
    description: `Upserts weekly demand by product, location, channel and ISO week: date may be any day of the week; the record is kept under the Monday of its ISO week (2021-01-03, a Sunday, belongs to the week starting 2020-12-28). Each row is the whole record of its week: a re-import replaces actual and forecast units (defaults applied). Within one request, rows with the same product, location, channel and week: the last one wins (they are not summed). Unknown SKU or location: the row is rejected. ${ABSENT} Read them with the GraphQL query demandHistory (planning.read).`,
    row: {
      type: 'object',
      required: ['sku', 'locationCode', 'date'],
      properties: {
        sku: { type: 'string', description: 'SKU of an existing product.' },
        locationCode: { type: 'string', description: LOCATION_REF },
        date: date('Any day of the week the record describes.'),
        channel: { type: 'string', maxLength: 100, default: 'ALL', description: 'Channel label, matched exactly (default ALL).' },
        actualDemand: { type: ['number', 'string'], minimum: 0, default: 0, description: 'Actual units demanded in the week (default 0).' },
        forecastUnits: { type: ['number', 'string'], minimum: 0, description: 'Forecast units for the week (default: the actual units).' },
      },
    },
  },
};
