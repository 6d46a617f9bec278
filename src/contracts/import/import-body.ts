import { z } from 'zod';
import { MAX_ROWS } from '../../kernel/import-limits.js';

const NOT_ROWS = 'The body must be a JSON array of rows or an object {"rows": [...]}';

/**
 * The body of an import (REST) and the rows argument of startImport: a JSON array of rows, or an object
 * `{rows: [...]}`. Only the envelope is judged here: each row is judged by its kind's row contract when its
 * chunk is applied, so that a bad row is rejected alone while the good rows go in. `row` documents the
 * rows and must accept any value. More than MAX_ROWS rows is 413 (the service says so), not a field error.
 */
export function importBody(row: z.ZodType = z.unknown()) {
  const rows = z.array(row, NOT_ROWS).min(1, 'At least one row is required').meta({ maxItems: MAX_ROWS });
  // A bare array is read as {rows}, and so is anything that is not an object: every refusal names `rows`.
  // (A union of the two forms would document both, but refuses at the root, naming no field.)
  return z.preprocess((body) => (body && typeof body === 'object' && !Array.isArray(body) ? body : { rows: body }), z.object({ rows })).meta({
    description: 'The rows: a JSON array of rows, or (as documented here) an object {"rows": [...]}.',
  });
}
