import { z } from 'zod';
import { IMPORT_PATHS } from '../../src/kernel/import-kinds.js';
import { ENVELOPE_ERRORS } from '../../src/kernel/import-limits.js';
import { dateTime, integer } from '../common-responses.js';

const JOB_STATES = ['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED'] as const;

const importRowError = z
  .object({
    row: integer.describe('Position of the rejected row in its request, from 1.'),
    field: z.string().nullable().describe('Row field at fault ("_" for the row as a whole).'),
    message: z.string().describe('Why the row was rejected.'),
  })
  .meta({ id: 'ImportRowError' });

export const importJob = z
  .object({
    jobId: z.string().describe('Import job id.'),
    id: z.string().describe('The same as jobId.'),
    kind: z.enum(Object.values(IMPORT_PATHS)).describe('What the rows describe.'),
    state: z
      .enum(JOB_STATES)
      .describe(
        'PENDING: stored, not started; PROCESSING: being applied; COMPLETED: every row applied or rejected; FAILED: could not go on, e.g. its organization was deactivated (failureReason says why; rows of chunks applied before stay applied; a failed job is not resumed).',
      ),
    status: z.enum(JOB_STATES).describe('The same as state.'),
    totalRows: integer.describe('Rows in the request.'),
    processedRows: integer.describe('Rows handled so far, applied or rejected.'),
    rejectedRows: integer.describe('Rows rejected so far.'),
    errors: z.array(importRowError).describe(`Row-level errors in row order, the first ${ENVELOPE_ERRORS}.`),
    errorCount: integer.describe('Row-level errors in all.'),
    createdAt: dateTime.describe('When the rows were accepted.'),
    startedAt: dateTime.nullable().describe('When a worker took the job up (it then reads PROCESSING).'),
    completedAt: dateTime.nullable().describe('When the job completed (or failed); null before.'),
    failureReason: z.string().nullable().describe('Why the job failed (FAILED only).'),
    statusUrl: z.string().describe('Path of GET /api/import/status/{jobId} for this job.'),
  })
  .meta({ id: 'ImportJob', description: 'Import job envelope (POST answers and GET /api/import/status/{jobId}).' });
