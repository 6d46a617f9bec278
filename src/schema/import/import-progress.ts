import type { RequestContext } from '../../context.js';
import type { ImportJob } from '../../generated/prisma/client.js';
import { getImportJob } from '../../services/import/jobs.js';
import { builder } from '../builder.js';
import { ImportJobType } from './import-job.js';

/** How often a subscription reads its job row. */
const POLL_MS = 300;

const finished = (job: ImportJob) => job.state === 'COMPLETED' || job.state === 'FAILED';
const changed = (a: ImportJob, b: ImportJob) =>
  a.state !== b.state || a.processedRows !== b.processedRows || a.rejectedRows !== b.rejectedRows || a.failureReason !== b.failureReason;

/**
 * The job as it moves: its current row first, then the row each time its state or counts change, ending
 * after COMPLETED or FAILED. It reads the job row from the database, so it follows work done by any
 * server instance. Written as a plain iterator (not an async generator) so that a client going away
 * stops the polling at once, not at the next change.
 */
export async function importJobProgress(ctx: RequestContext, id: string): Promise<AsyncIterableIterator<ImportJob>> {
  // The first read happens before the stream starts, so an unknown or foreign id is an error result.
  const first = await getImportJob(ctx, id);
  let last: ImportJob | null = null;
  let done = false;
  let wake: (() => void) | null = null;
  const pause = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(stop, POLL_MS);
      function stop() {
        clearTimeout(timer);
        wake = null;
        resolve();
      }
      wake = stop;
    });
  const end = (): IteratorResult<ImportJob> => {
    done = true;
    wake?.();
    return { done: true, value: undefined };
  };
  const iterator: AsyncIterableIterator<ImportJob> = {
    async next() {
      if (!last) return { done: false, value: (last = first) };
      while (!done && !finished(last)) {
        await pause();
        if (done) break;
        const job = await getImportJob(ctx, id);
        if (changed(job, last)) return { done: false, value: (last = job) };
      }
      return end();
    },
    async return() {
      return end();
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
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
