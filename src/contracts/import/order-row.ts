import { z } from 'zod';
import { LOCATION_REF, orderLines, requiredNumber, requiredText, rowObject } from './row-values.js';

/** Units of an order line: a whole number greater than 0. */
export const lineQuantity = (meaning: string) =>
  requiredNumber({ max: 1_000_000_000, integer: true, positive: true }).meta({ description: `${meaning} (a whole number greater than 0).` });

const orderLine = z.object(
  {
    sku: requiredText(100).meta({ description: 'SKU of an existing product.' }),
    quantity: lineQuantity('Units requested'),
  },
  'Each line must be an object',
);

/**
 * An ORDERS row (a sales order): `externalId` is the upsert key; `lines` are the requested quantities.
 * Applying the order reserves stock for it at the fulfillment location.
 */
export const orderRow = rowObject({
  externalId: requiredText(200).meta({ maxLength: 200, description: 'External order identifier, unique within the organization (the upsert key).' }),
  fulfillmentLocationCode: requiredText(200).meta({ description: `Location whose stock fulfils the order. ${LOCATION_REF}` }),
  lines: orderLines(orderLine).meta({ description: 'Lines of the order (at least one), numbered from 1 in this order.' }),
});
