import { z } from 'zod';
import { IMPORT_PATHS } from '../../src/kernel/import-kinds.js';
import { DRY_RUN_ERRORS, ENVELOPE_ERRORS } from '../../src/kernel/import-limits.js';
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

export const importValidation = z
  .object({
    dryRun: z.literal(true).describe('Always true: nothing was written.'),
    kind: z.enum(Object.values(IMPORT_PATHS)).describe('What the rows describe.'),
    totalRows: integer.describe('Rows in the request.'),
    validRows: integer.describe('Rows the import would apply.'),
    rejectedRows: integer.describe('Rows the import would reject.'),
    errors: z.array(importRowError).describe(`Row-level errors in row order, the first ${DRY_RUN_ERRORS}.`),
    errorCount: integer.describe('Row-level errors in all (a row may have several).'),
  })
  .meta({ id: 'ImportValidation', description: 'What an import of the rows would do, found by a dry run (POST /api/import/{kind}?dryRun=true) that wrote nothing.' });

export const importJobList = z
  .object({
    data: z.array(importJob).describe('The jobs of the page, newest first.'),
    limit: integer.describe('The page size asked for.'),
    nextCursor: z.string().nullable().describe('Pass as cursor for the next page (older jobs); null when there is none.'),
    previousCursor: z.string().nullable().describe('Pass as before for the previous page (newer jobs); null when there is none.'),
  })
  .describe('A page of import jobs, newest first.');
