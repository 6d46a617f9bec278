import { builder } from '../builder.js';
import { ImportJobState, ImportKind } from '../../generated/prisma/enums.js';
import { ENVELOPE_ERRORS } from '../../kernel/import-limits.js';
import { getImportJob, startImport } from '../../services/import/jobs/jobs.js';
import { NodeRef } from '../node/node-interface.js';
import { relatedCount } from '../related-counts.js';
import { relatedBy } from '../related-loaders.js';
import type { RequestContext } from '../../context.js';
import { countRowErrorsOfJobs, firstRowErrorsOfJobs } from '../../services/import/jobs/job-row-errors.js';

const firstRowErrors = (ctx: RequestContext, jobId: string, take: number) =>
  relatedBy(ctx, `import-row-errors:${take}`, jobId, (ids) => firstRowErrorsOfJobs(ctx, ids, take), []);

export const ImportKindEnum = builder.enumType(ImportKind, { name: 'ImportKind', description: 'What the rows of an import describe.' });
export const ImportJobStateEnum = builder.enumType(ImportJobState, {
  name: 'ImportJobState',
  description: 'PENDING (stored, not started), PROCESSING, COMPLETED (every row applied or rejected) or FAILED (could not go on, e.g. its organization was deactivated; see failureReason).',
});

const ImportRowErrorType = builder.prismaObject('ImportRowError', {
  description: 'Why one row of an import was rejected.',
  fields: (t) => ({
    row: t.exposeInt('rowNumber', { description: 'Position of the row in its request, from 1.' }),
    rowNumber: t.exposeInt('rowNumber', { description: 'The same as row.' }),
    field: t.exposeString('field', { nullable: true, description: 'Row field at fault ("_" for the row as a whole), when known.' }),
    message: t.exposeString('message', { description: 'What is wrong with the row.' }),
  }),
});

export const ImportJobType = builder.prismaObject('ImportJob', {
  interfaces: [NodeRef],
  description: 'An asynchronous import: its rows are stored, then applied in chunks by the server workers.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Job id.' }),
    kind: t.expose('kind', { type: ImportKindEnum, description: 'What the rows describe.' }),
    state: t.expose('state', { type: ImportJobStateEnum, description: 'Where the job is.' }),
    totalRows: t.exposeInt('totalRows', { description: 'Rows in the request.' }),
    processedRows: t.exposeInt('processedRows', { description: 'Rows handled so far, applied or rejected.' }),
    rejectedRows: t.exposeInt('rejectedRows', { description: 'Rows rejected so far (see rowErrors).' }),
    // Counted and read for the jobs shown only: the Prisma plugin's relation count joins a count of every row error
    // of every organization, and its relation reads every error of the jobs and cuts the list in memory.
    errorCount: t.int({
      description: 'Row errors recorded so far.',
      resolve: (job, _args, ctx) => relatedCount(ctx, 'import-row-errors', job.id, (ids) => countRowErrorsOfJobs(ctx, ids)),
    }),
    rowErrors: t.field({
      type: [ImportRowErrorType],
      description: 'Row errors in row order, the first `first` of them.',
      args: { first: t.arg.int({ description: `How many (default ${ENVELOPE_ERRORS}, at most 1000).` }) },
      resolve: (job, args, ctx) => firstRowErrors(ctx, job.id, Math.max(0, Math.min(args.first ?? ENVELOPE_ERRORS, 1000))),
    }),
    failureReason: t.exposeString('failureReason', { nullable: true, description: 'Why the job failed (FAILED only).' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the rows were accepted.' }),
    startedAt: t.expose('startedAt', { type: 'DateTime', nullable: true, description: 'When a worker took the job up (it then reads PROCESSING).' }),
    completedAt: t.expose('completedAt', { type: 'DateTime', nullable: true, description: 'When the job completed or failed.' }),
  }),
});

builder.queryFields((t) => ({
  importJob: t.prismaField({
    type: 'ImportJob',
    description: "One import job of the organization by id; null when it is unknown or not the organization's.",
    orNullWhenAbsent: true,
    authScopes: { permission: 'import.read' },
    args: { id: t.arg.id({ required: true, description: 'Import job id.' }) },
    resolve: (query, _parent, args, ctx) => getImportJob(ctx, String(args.id), query),
  }),
}));

builder.mutationFields((t) => ({
  startImport: t.prismaField({
    refusals: ['ValidationError'],
    type: 'ImportJob',
    description: 'Stores rows for asynchronous import and returns the PENDING job; poll importJob for progress.',
    authScopes: { permission: 'import.write' },
    args: {
      kind: t.arg({ type: ImportKindEnum, required: true, description: 'What the rows describe.' }),
      rows: t.arg({ type: 'JSON', required: true, description: 'A JSON array of rows (or an object {rows: [...]}); row fields per kind are in the REST description.' }),
    },
    // The job as stored (PENDING): a worker may already be applying it, the status tells from then on.
    resolve: (query, _parent, args, ctx) => startImport(ctx, args.kind, args.rows, query),
  }),
}));
