import { z } from 'zod';
import { MAX_INT } from '../../../kernel/input-limits.js';
import { mustBe } from '../../parse.js';

/** The moves between the quantity buckets of a stock line (src/services/inventory/availability/stock-moves.ts says what each does). */
export const STOCK_MOVE_ACTIONS = ['RESERVE', 'RELEASE', 'PICK', 'UNPICK', 'HOLD', 'RELEASE_HOLD', 'RECALL', 'RELEASE_RECALL', 'EXPIRE'] as const;

/** Body of POST /api/inventory/availability/{id} and input of moveStock. */
export const stockMove = z.strictObject({
  action: z.enum(STOCK_MOVE_ACTIONS, { error: (issue) => (issue.input === undefined ? 'Required' : `One of ${STOCK_MOVE_ACTIONS.join(', ')}`) }).meta({
    description:
      'RESERVE available→reserved; RELEASE reserved→available; PICK reserved→picked; UNPICK picked→reserved; HOLD available→on hold; ' +
      'RELEASE_HOLD on hold→available; RECALL available→recalled; RELEASE_RECALL recalled→available; EXPIRE available→expired. On hand never changes.',
  }),
  quantity: z
    .number({ error: mustBe('a whole number') })
    .int('Must be a whole number')
    .positive('Must be greater than 0')
    .max(MAX_INT, `At most ${MAX_INT}`)
    .meta({ description: 'Units to move, at least 1.' }),
  reasonCodeId: z.string({ error: mustBe('text') }).min(1, 'Required').nullish().meta({ description: 'A reason code of the organization (400 when unknown).' }),
  comment: z.string({ error: mustBe('text') }).max(2000, 'At most 2000 characters').nullish().meta({ description: 'Free text recorded on the ledger rows, up to 2000 characters.' }),
  sourceType: z.string({ error: mustBe('text') }).max(100, 'At most 100 characters').nullish().meta({ description: 'Kind of document behind the move, for example ORDER.' }),
  sourceId: z.string({ error: mustBe('text') }).max(200, 'At most 200 characters').nullish().meta({ description: 'Id of that document.' }),
});
