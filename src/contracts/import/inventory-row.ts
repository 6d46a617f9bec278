import { LOCATION_REF, numberOr, requiredText, rowObject } from './row-values.js';

/**
 * An INVENTORY row: the absolute quantities of a product's stock at a location (the line without lot or
 * bin), and the inventory level's minimum.
 */
export const inventoryRow = rowObject({
  sku: requiredText(100).meta({ description: "SKU (the catalog's externalId) of an existing product." }),
  locationCode: requiredText(200).meta({ description: LOCATION_REF }),
  onHand: numberOr(0, { integer: true }).meta({ description: 'Units on hand (whole units, default 0).' }),
  reserved: numberOr(0, { integer: true }).meta({ description: 'Units reserved, part of onHand (default 0; at most onHand).' }),
  threshold: numberOr(0, { integer: true }).meta({ description: "The inventory level's minimum quantity (default 0)." }),
}).superRefine((row, ctx) => {
  if (row.reserved > row.onHand) ctx.addIssue({ code: 'custom', path: ['reserved'], message: `Reserved (${row.reserved}) must not exceed onHand (${row.onHand})` });
});
