import { z } from 'zod';
import { mustBe } from '../../parse.js';
import { pagingShape } from '../../paging.js';
import { anyCaseEnum } from '../../query-values.js';
import { optionalNote } from '../../text-fields.js';

export const VARIANCE_PAGE = { limit: 50, max: 200 } as const;

/** Body of POST /api/inventory/cycle-count/resolve and input of resolveCycleCountLines. */
export const cycleCountResolve = z.strictObject({
  resolutions: z
    .array(
      z.strictObject({
        lineId: z.string({ error: mustBe('text') }).trim().min(1, 'Required').meta({ description: 'A counted, unresolved line of a batch of the organization (400 naming it otherwise).' }),
        action: anyCaseEnum(['ACCEPT', 'REJECT']).pipe(z.enum(['ACCEPT', 'REJECT'], { error: 'Required' })).meta({
          description: 'ACCEPT writes the variance to the ledger (COUNT_CORRECTION); REJECT clears the count (kept in the history) and asks for a recount.',
        }),
        reasonCodeId: z.string({ error: mustBe('text') }).trim().min(1, 'Must not be empty').optional().meta({ description: 'With ACCEPT: the reason code, by id or code (default COUNT_CORRECTION).' }),
        comment: optionalNote(2000),
      }),
      { error: mustBe('a list') },
    )
    .min(1, 'At least one')
    .max(500, 'At most 500')
    .meta({ description: 'The decisions, applied together in one transaction: a refused one changes nothing.' }),
});

/** Arguments of cycleCountVariances (mode to-resolve). */
export const varianceQuery = z.object({
  locationId: z
    .preprocess((raw) => (raw === '' || raw === null ? undefined : raw), z.string({ error: (issue) => (issue.input === undefined ? 'Required' : 'Must be text') }))
    .meta({ description: "The location (404 when it is not one of the organization's)." }),
  ...pagingShape(VARIANCE_PAGE),
});
