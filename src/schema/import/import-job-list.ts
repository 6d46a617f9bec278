import { builder } from '../builder.js';
import { contractArgs, parseInput } from '../contract-input.js';
import { importJobFilter } from '../../contracts/import/import-job-list.js';
import { countImportJobs, listImportJobs } from '../../services/import/jobs/job-list.js';
import { ImportJobStateEnum, ImportKindEnum } from './import-job.js';

builder.queryFields((t) => ({
  importJobs: t.prismaConnection({
    type: 'ImportJob',
    cursor: 'id',
    description:
      "The organization's import jobs, newest first, as a Relay connection, with filters by state, kind and creation time (a window of at most the usual span; VALIDATION_ERROR otherwise).",
    authScopes: { permission: 'import.read' },
    args: contractArgs(t, importJobFilter, { types: { status: ImportJobStateEnum, kind: ImportKindEnum, from: 'String', to: 'String' } }),
    totalCount: (_parent, args, ctx) => countImportJobs(ctx, parseInput(importJobFilter, args)),
    resolve: (query, _parent, args, ctx) => listImportJobs(ctx, parseInput(importJobFilter, args), query),
  }),
}));
