import { z } from 'zod';
import { text, wholeNumberOr } from '../../query-values.js';
import { HOLD_STATUSES } from './inventory-hold.js';

export const HOLDS_DEFAULT_LIMIT = 50;
export const HOLDS_MAX_LIMIT = 100;

const id = text.pipe(z.string().trim().min(1, 'Required').optional());
const STATUS_MESSAGE = `One or more (comma-separated) of ${HOLD_STATUSES.join(', ')}, any case`;

/** Query of GET /api/inventory/holds and arguments of inventoryHolds. */
export const inventoryHoldListQuery = z.object({
  status: text
    .pipe(
      z
        .string()
        .transform((value) => value.split(',').map((s) => s.trim().toUpperCase()).filter(Boolean))
        .refine((values) => values.every((v) => (HOLD_STATUSES as readonly string[]).includes(v)), STATUS_MESSAGE)
        .optional(),
    )
    .meta({ type: 'string', description: `${STATUS_MESSAGE}.` }),
  locationId: id.meta({ description: 'Only holds with a line at this location (404 when it is not one of the organization).' }),
  productMasterId: id.meta({ description: 'Only holds with a line of this product (404 when it is not one of the organization).' }),
  lotId: id.meta({ description: 'Only holds with a line of this lot (404 when it is not one of the organization).' }),
  stockLineId: id.meta({ description: 'Only holds with a line on this stock line (404 when it is not one of the organization).' }),
  limit: wholeNumberOr(HOLDS_DEFAULT_LIMIT, `Must be a whole number from 1 to ${HOLDS_MAX_LIMIT}`, { min: 1, max: HOLDS_MAX_LIMIT }).meta({
    description: `Page size (default ${HOLDS_DEFAULT_LIMIT}, at most ${HOLDS_MAX_LIMIT}).`,
  }),
  offset: wholeNumberOr(0, 'Must be a whole number of at least 0', { min: 0 }).meta({ description: 'Holds to skip (default 0).' }),
});
