import { z } from 'zod';
import { MAX_WINDOW_DAYS } from '../../../kernel/input-limits.js';
import { dateTimeText, windowWithin } from '../../date-times.js';
import { text, wholeNumberOr } from '../../query-values.js';
import { TRANSFER_STATUSES } from './inventory-transfer.js';

export const TRANSFERS_DEFAULT_LIMIT = 50;
export const TRANSFERS_MAX_LIMIT = 100;

const id = text.pipe(z.string().trim().min(1, 'Required').optional());
const STATUS_MESSAGE = `One or more (comma-separated) of ${TRANSFER_STATUSES.join(', ')}, any case`;

/** Query of GET /api/inventory/transfers and arguments of inventoryTransfers. */
export const inventoryTransferListQuery = z
  .object({
    status: text
      .pipe(
        z
          .string()
          .transform((value) => value.split(',').map((s) => s.trim().toUpperCase()).filter(Boolean))
          .refine((values) => values.every((v) => (TRANSFER_STATUSES as readonly string[]).includes(v)), STATUS_MESSAGE)
          .optional(),
      )
      .meta({ type: 'string', description: `${STATUS_MESSAGE}.` }),
    sourceLocationId: id.meta({ description: 'Only transfers from this location (404 when it is not one of the organization).' }),
    destLocationId: id.meta({ description: 'Only transfers to this location (404 when it is not one of the organization).' }),
    locationId: id.meta({ description: 'Only transfers from or to this location (404 when it is not one of the organization).' }),
    productMasterId: id.meta({ description: 'Only transfers with a line of this product (404 when it is not one of the organization).' }),
    createdFrom: dateTimeText.meta({ description: 'Created at or after this instant.' }),
    createdTo: dateTimeText.meta({ description: `Created at or before this instant; with createdFrom, at most ${MAX_WINDOW_DAYS} days after it.` }),
    shippedFrom: dateTimeText.meta({ description: 'Shipped at or after this instant.' }),
    shippedTo: dateTimeText.meta({ description: `Shipped at or before this instant; with shippedFrom, at most ${MAX_WINDOW_DAYS} days after it.` }),
    limit: wholeNumberOr(TRANSFERS_DEFAULT_LIMIT, `Must be a whole number from 1 to ${TRANSFERS_MAX_LIMIT}`, { min: 1, max: TRANSFERS_MAX_LIMIT }).meta({
      description: `Page size (default ${TRANSFERS_DEFAULT_LIMIT}, at most ${TRANSFERS_MAX_LIMIT}).`,
    }),
    offset: wholeNumberOr(0, 'Must be a whole number of at least 0', { min: 0 }).meta({ description: 'Transfers to skip (default 0).' }),
  })
  .superRefine(windowWithin('createdFrom', 'createdTo'))
  .superRefine(windowWithin('shippedFrom', 'shippedTo'));

/** Query of GET /api/inventory/transfers/in-transit and arguments of inventoryInTransit. */
export const inTransitQuery = z.object({
  locationId: id.meta({ description: 'Only this location, as destination (inbound) or source (outbound) (404 when it is not one of the organization).' }),
  productMasterId: id.meta({ description: 'Only this product (404 when it is not one of the organization).' }),
});
