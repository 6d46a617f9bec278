import type { RequestContext } from '../../context.js';
import type { ImportJob } from '../../generated/prisma/client.js';
import { getImportJob } from '../../services/import/jobs/jobs.js';
import { builder } from '../builder.js';
import { followRow } from '../polling-stream.js';
import { ImportJobType } from './import-job.js';

/** How often a subscription reads its job row. */
const POLL_MS = 300;

const finished = (job: ImportJob) => job.state === 'COMPLETED' || job.state === 'FAILED';
const changed = (a: ImportJob, b: ImportJob) =>
  a.state !== b.state || a.processedRows !== b.processedRows || a.rejectedRows !== b.rejectedRows || a.failureReason !== b.failureReason;

/**
 * The job as it moves: its current row first, then the row each time its state or counts change, ending
 * after COMPLETED or FAILED. Polls the row (polling-stream.ts), so it follows work done by any
 * server instance.
 */
export function importJobProgress(ctx: RequestContext, id: string): Promise<AsyncIterableIterator<ImportJob>> {
  return followRow(() => getImportJob(ctx, id), { pollMs: POLL_MS, changed, finished });
}


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
