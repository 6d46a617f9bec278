import { z } from 'zod';
import { MAX_INT } from '../../../kernel/input-limits.js';
import { mustBe } from '../../parse.js';
import { text, wholeNumberOr } from '../../query-values.js';
import { optionalNote } from '../../text-fields.js';

export const PUT_AWAY_DEFAULT_LIMIT = 50;
export const PUT_AWAY_MAX_LIMIT = 200;
export const MAX_PUT_AWAY_LINES = 200;

const filterId = text.pipe(z.string().trim().min(1).optional());
const id = z.string({ error: mustBe('text') }).trim().min(1, 'Required');

/** Query of GET /api/inventory/put-away and arguments of putAwayTasks / putAwayTasksPage. */
export const putAwayTaskQuery = z.object({
  locationId: text.pipe(z.string({ error: 'Required' }).trim().min(1, 'Required')).meta({ description: 'The location whose un-binned stock to list (required; 404 when it is not one of the organization).' }),
  productMasterId: filterId.meta({ description: 'Only stock of this product (404 when it is not one of the organization).' }),
  lotId: filterId.meta({ description: 'Only stock of this lot (404 when it is not one of the organization).' }),
  limit: wholeNumberOr(PUT_AWAY_DEFAULT_LIMIT, `Must be a whole number from 1 to ${PUT_AWAY_MAX_LIMIT}`, { min: 1, max: PUT_AWAY_MAX_LIMIT }).meta({
    description: `Page size (default ${PUT_AWAY_DEFAULT_LIMIT}, at most ${PUT_AWAY_MAX_LIMIT}).`,
  }),
  offset: wholeNumberOr(0, 'Must be a whole number of at least 0', { min: 0 }).meta({ description: 'Tasks to skip (default 0).' }),
});

const line = z
  .strictObject({
    stockLineId: id.meta({ description: 'The un-binned stock line (the task) the units leave: one of the location (400 naming lines.N.stockLineId otherwise).' }),
    quantity: z
      .number({ error: mustBe('a whole number') })
      .int('Must be a whole number')
      .positive('Must be greater than 0')
      .max(MAX_INT, `At most ${MAX_INT}`)
      .meta({ description: 'Units to put away, more than 0; at most what the line has available (400 INSUFFICIENT_STOCK naming lines.N.quantity otherwise). Partial quantities leave the rest to put away later.' }),
    binId: id.nullish().meta({ description: 'The destination bin, by id (400 when unknown or of another location). Neither binId nor binCode: the suggested bin.' }),
    binCode: id.nullish().meta({ description: 'The destination bin, by its code at the location, instead of binId (400 when no bin of the location has it).' }),
  })
  .refine((l) => !(l.binId && l.binCode), { path: ['binCode'], message: 'Give binId or binCode, not both' });

/** Body of POST /api/inventory/put-away and input of confirmPutAway: moves from un-binned stock into bins, all or nothing. */
export const putAwayConfirm = z.strictObject({
  locationId: id.meta({ description: 'The location (400 when it is not one of the organization).' }),
  lines: z
    .array(line)
    .min(1, 'At least one line')
    .max(MAX_PUT_AWAY_LINES, `At most ${MAX_PUT_AWAY_LINES} lines`)
    .meta({ description: `The moves, 1 to ${MAX_PUT_AWAY_LINES}; the same stock line may appear more than once (into different bins).` }),
  comment: optionalNote(2000).meta({ description: 'Kept on the ledger rows.' }),
});
