import { z } from 'zod';
import { MAX_INT } from '../../../kernel/input-limits.js';
import { mustBe } from '../../parse.js';
import { text } from '../../query-values.js';
import { optionalNote } from '../../text-fields.js';

const id = z.string({ error: mustBe('text') }).trim().min(1, 'Required');

/** Query of GET /api/inventory/transfers/bins and arguments of locationBins. */
export const locationBinsQuery = z.object({
  locationId: text.pipe(z.string({ error: 'Required' }).trim().min(1, 'Required')).meta({ description: 'The location whose bins to list (required; 404 when it is not one of the organization).' }),
  productMasterId: text.pipe(z.string().trim().min(1).optional()).meta({ description: 'Only stock of this product (404 when it is not one of the organization).' }),
});

/** Body of POST /api/inventory/transfers/bins and input of moveBinStock: stock from one bin to another in one location. */
export const binMove = z
  .strictObject({
    locationId: id.meta({ description: 'The location of both bins (400 when it is not one of the organization).' }),
    productMasterId: id.meta({ description: 'The product moved (400 when it is not one of the organization).' }),
    lotId: id.nullish().meta({ description: "Only this lot (400 when unknown or another product's). Absent: first-expiring lots first." }),
    fromBinId: id.meta({ description: 'The bin the units leave (400 when unknown or at another location).' }),
    toBinId: id.meta({ description: 'The bin the units go to (400 when unknown or at another location); not fromBinId.' }),
    quantity: z
      .number({ error: mustBe('a whole number') })
      .int('Must be a whole number')
      .positive('Must be greater than 0')
      .max(MAX_INT, `At most ${MAX_INT}`)
      .meta({ description: 'Units to move, more than 0; at most what is available in fromBinId (INSUFFICIENT_STOCK otherwise).' }),
    comment: optionalNote(2000).meta({ description: 'Kept on the ledger rows.' }),
  })
  .refine((move) => move.fromBinId !== move.toBinId, { path: ['toBinId'], message: 'Must differ from fromBinId' });
