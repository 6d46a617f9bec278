import { z } from 'zod';
import { MAX_INT } from '../../../kernel/input-limits.js';
import { mustBe } from '../../parse.js';
import { pagingShape } from '../../paging.js';
import { anyCaseEnum, flag, text } from '../../query-values.js';

/** Most stock lines one batch covers: a batch is read whole, with its lines. */
export const MAX_BATCH_LINES = 2000;
export const CYCLE_COUNT_BATCH_PAGE = { limit: 50, max: 200 } as const;
export const BATCH_STATUSES = ['IN_PROGRESS', 'COMPLETED', 'CANCELLED'] as const;

const id = z.string({ error: mustBe('text') }).trim().min(1, 'Required');
const code = z.string({ error: mustBe('text') }).trim().min(1, 'Must not be blank').max(100, 'At most 100 characters');
const ids = (what: string, max: number) =>
  z
    .array(id, { error: mustBe('a list of ids') })
    .min(1, 'At least one')
    .max(max, `At most ${max}`)
    .optional()
    .meta({ description: `${what} (each refused, naming it, when it is not one of the organization's or not at the location).` });

/** Body of POST /api/inventory/cycle-count and input of createCycleCountBatch. */
export const cycleCountBatchCreate = z
  .strictObject({
    locationId: id.meta({ description: "The location counted (400 details.locationId when it is not one of the organization's)." }),
    productMasterIds: ids('Count every stock line of these products at the location', 500),
    binIds: ids('Count every stock line in these bins of the location', 100),
    suggested: z
      .number({ error: mustBe('a whole number') })
      .int('Must be a whole number')
      .min(1, 'Must be from 1 to 500')
      .max(500, 'Must be from 1 to 500')
      .optional()
      .meta({ description: 'Count every stock line of the first N products of the suggestions (GET /api/inventory/cycle-count?mode=suggestions, the same ranking): overdue first, by class and value; then recently corrected; then the rest by next count date.' }),
    assigneeId: id.optional().meta({ description: "The user who counts: a member of the organization (400 details.assigneeId otherwise)." }),
  })
  .superRefine((body, issue) => {
    const given = (['productMasterIds', 'binIds', 'suggested'] as const).filter((key) => body[key] !== undefined);
    if (given.length !== 1) {
      for (const key of given.length ? given : (['productMasterIds'] as const)) {
        issue.addIssue({ code: 'custom', path: [key], message: 'Give exactly one of productMasterIds, binIds or suggested' });
      }
    }
  });

const count = z
  .strictObject({
    lineId: id.optional().meta({ description: 'A line of the batch (400 details.counts.N.lineId when it is not).' }),
    productMasterId: id.optional().meta({ description: 'Without lineId: the product counted; with lotId and binId it names the line (a new found line when the batch has none).' }),
    lotId: id.nullish().meta({ description: 'Without lineId: the lot counted (none: no lot; or name it by lotCode).' }),
    lotCode: code.nullish().meta({ description: 'Without lineId, instead of lotId: the code of an existing lot of the product (400 details.counts.N.lotCode otherwise; a count creates no lot).' }),
    binId: id.nullish().meta({ description: "Without lineId: the bin counted, a bin of the batch's location (none: no bin; or name it by binCode)." }),
    binCode: code.nullish().meta({ description: "Without lineId, instead of binId: the code of an existing bin of the batch's location (400 details.counts.N.binCode otherwise)." }),
    countedQty: z
      .number({ error: mustBe('a whole number') })
      .int('Must be a whole number')
      .min(0, 'Must be 0 or more')
      .max(MAX_INT, `At most ${MAX_INT}`)
      .meta({ description: 'Units counted. A recount replaces the earlier count, which stays in the line\'s history.' }),
  })
  .superRefine((c, issue) => {
    if (!c.lineId === !c.productMasterId) issue.addIssue({ code: 'custom', path: ['lineId'], message: 'Give lineId, or productMasterId (with lotId and binId)' });
    if (c.lotId && c.lotCode) issue.addIssue({ code: 'custom', path: ['lotCode'], message: 'Give lotId or lotCode, not both' });
    if (c.binId && c.binCode) issue.addIssue({ code: 'custom', path: ['binCode'], message: 'Give binId or binCode, not both' });
  });

/** Body of POST /api/inventory/cycle-count/{batchId} and input of updateCycleCountBatch (with the batch id). */
export const cycleCountBatchAction = z
  .strictObject({
    action: anyCaseEnum(['RECORD', 'COMPLETE', 'CANCEL']).meta({ description: 'RECORD counts, COMPLETE (every line counted) or CANCEL the batch (any case).' }),
    counts: z
      .array(count, { error: mustBe('a list') })
      .min(1, 'At least one')
      .max(MAX_BATCH_LINES, `At most ${MAX_BATCH_LINES}`)
      .optional()
      .meta({ description: 'With RECORD: the counts.' }),
  })
  .superRefine((body, issue) => {
    if (body.action === undefined) issue.addIssue({ code: 'custom', path: ['action'], message: 'Required' });
    if (body.action === 'RECORD' && !body.counts) issue.addIssue({ code: 'custom', path: ['counts'], message: 'Required with RECORD' });
    if (body.action !== 'RECORD' && body.counts) issue.addIssue({ code: 'custom', path: ['counts'], message: 'Only with RECORD' });
  });

/** Filters of the batches list (mode batches). */
export const batchFilters = {
  status: anyCaseEnum(BATCH_STATUSES).meta({ description: 'Only batches in this status (any case).' }),
  assigneeId: text.meta({ description: 'Only batches assigned to this user.' }),
  includeCompleted: flag.meta({ description: 'Without status: also COMPLETED and CANCELLED batches (default only IN_PROGRESS).' }),
};

/** Arguments of cycleCountBatches. */
export const cycleCountBatchQuery = z.object({
  locationId: z
    .preprocess((raw) => (raw === '' || raw === null ? undefined : raw), z.string({ error: (issue) => (issue.input === undefined ? 'Required' : 'Must be text') }))
    .meta({ description: "Batches of this location (404 when it is not one of the organization's)." }),
  ...batchFilters,
  ...pagingShape(CYCLE_COUNT_BATCH_PAGE),
});
