import { importJobProgress } from '../../services/import/jobs/job-progress.js';
import { builder } from '../builder.js';
import { ImportJobType } from './import-job.js';

builder.subscriptionFields((t) => ({
  importJobProgress: t.field({
    type: ImportJobType,
    description:
      'Follows an import job over graphql-ws: the job now, then again whenever its state or row counts change, until it is COMPLETED or FAILED. Unknown or foreign ids give NOT_FOUND.',
    authScopes: { permission: 'import.read' },
    args: { id: t.arg.id({ required: true, description: 'Import job id.' }) },
    subscribe: (_parent, args, ctx) => importJobProgress(ctx, String(args.id)),
    resolve: (job) => job,
  }),
}));
