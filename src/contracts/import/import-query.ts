import { z } from 'zod';
import { DRY_RUN_ERRORS } from '../../kernel/import-limits.js';
import { flag } from '../query-values.js';

/** Query of POST /api/import/<kind>. */
export const importQuery = z.object({
  dryRun: flag.meta({
    description: `true: judge every row as the import would and write nothing (no job, no data); the answer is 200 with the counts and the first ${DRY_RUN_ERRORS} row errors. Default false.`,
  }),
});
