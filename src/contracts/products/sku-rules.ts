/**
 * What a SKU is: trimmed text in Unicode NFC (so that "é" typed as one character or as "e" and an
 * accent is one SKU), without control or invisible format characters (a zero-width space, joiner, BOM
 * or soft hyphen would make two SKUs that look the same), and unique within the organization whatever
 * its case (the database holds a unique index on lower(sku)). Imports look SKUs up exactly (case-sensitive)
 * after the same normalization.
 */
export const MAX_SKU_LENGTH = 100;

const INVISIBLE = /[\p{Cc}\p{Cf}]/u;

export const SKU_INVISIBLE_MESSAGE = 'Must not contain control or invisible characters (such as a zero-width space)';
export const SKU_TAKEN_MESSAGE = 'A product with this SKU already exists (SKUs are compared without regard to case)';

/** The stored form of a SKU as typed: trimmed, NFC. */
export const normalizeSku = (text: string) => text.trim().normalize('NFC');

/** Whether a (normalized) SKU holds a character no SKU may hold. */
export const skuHasInvisible = (sku: string) => INVISIBLE.test(sku);

/** The key under which SKUs collide. */
export const skuKey = (sku: string) => sku.toLowerCase();
