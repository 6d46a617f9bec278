import { z } from 'zod';
import { PURCHASE_ORDER_STATUSES } from '../../kernel/import-kinds.js';
import { lineQuantity } from './order-row.js';
import { IMPORT_DATE_WORDS as DATE_WORDS, LOCATION_REF, optionalIsoDate, optionalNumber, optionalText, orderLines, requiredText, rowObject } from './row-values.js';

const purchaseOrderLine = z.object(
  {
    sku: requiredText(100).meta({ description: 'SKU of an existing product.' }),
    quantity: lineQuantity('Units ordered'),
    unitCost: optionalNumber({ min: 0, max: 1_000_000_000 }).meta({ description: 'Cost of one unit (0 or more).' }),
    expectedAt: optionalIsoDate.meta({ description: `When this line is expected (default: the order's expectedAt). ${DATE_WORDS}` }),
  },
  'Each line must be an object',
);

/**
 * A PURCHASE_ORDERS row: the header and all its lines. `number` is the idempotent key: importing the same
 * number again updates the header and replaces the lines. Absent header fields take their default on
 * creation (status PENDING) and keep their stored value on update; a line without expectedAt expects its
 * goods on the header's expectedAt.
 */
export const purchaseOrderRow = rowObject({
  number: requiredText(100).meta({ maxLength: 100, description: 'Purchase order number, unique within the organization (the idempotent key).' }),
  supplierCode: requiredText(100).meta({ description: 'Code of an existing supplier of the organization.' }),
  destinationLocationCode: requiredText(200).meta({ description: `Location that receives the goods. ${LOCATION_REF}` }),
  status: optionalText(30)
    .pipe(z.enum(PURCHASE_ORDER_STATUSES, `Must be one of ${PURCHASE_ORDER_STATUSES.join(', ')}`).optional())
    .meta({ type: 'string', enum: [...PURCHASE_ORDER_STATUSES], default: 'PENDING', description: 'Order status (default PENDING for a new order).' }),
  expectedAt: optionalIsoDate.meta({ description: `When the goods are expected. ${DATE_WORDS}` }),
  lines: orderLines(purchaseOrderLine).meta({ description: 'Lines of the order (at least one), numbered from 1 in this order.' }),
});
