import { z } from 'zod';
import { pagingShape } from '../../paging.js';
import { text } from '../../query-values.js';

/** A sheet of a whole location is paged: 500 lines by default, at most 2000 (a batch's sheet is whole). */
export const BLIND_FORM_PAGE = { limit: 500, max: 2000 } as const;

/** Query of GET /api/inventory/cycle-count/blind-form and arguments of cycleCountBlindForm. */
export const blindFormQuery = z.object({
  locationId: z
    .preprocess((raw) => (raw === '' || raw === null ? undefined : raw), z.string({ error: (issue) => (issue.input === undefined ? 'Required' : 'Must be text') }))
    .meta({ description: "The location counted (404 when it is not one of the organization's)." }),
  batchId: text.meta({ description: "The sheet of this batch (404 when it is not one of the organization's; 400 when it is at another location). Absent: every stock line of the location, a page at a time." }),
  ...pagingShape(BLIND_FORM_PAGE),
});
