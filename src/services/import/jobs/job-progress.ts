import type { RequestContext } from '../../../context.js';
import type { ImportJob } from '../../../generated/prisma/client.js';
import { followRow } from '../../events/following/follow-row.js';
import { getImportJob } from './jobs.js';

const finished = (job: ImportJob) => job.state === 'COMPLETED' || job.state === 'FAILED';
const changed = (a: ImportJob, b: ImportJob) =>
  a.state !== b.state || a.processedRows !== b.processedRows || a.rejectedRows !== b.rejectedRows || a.failureReason !== b.failureReason;

/**
 * The job as it moves: its current row first, then the row each time an import event (progressed: started or
 * a chunk committed; finished; failed) names it and its state or counts changed, ending after COMPLETED or
 * FAILED. Fed by the published events, so it follows work done by any server instance. Unknown or foreign
 * id: NOT_FOUND.
 */
export function importJobProgress(ctx: RequestContext, id: string): Promise<AsyncIterableIterator<ImportJob>> {
  return followRow(ctx, { types: ['import.progressed', 'import.finished', 'import.failed'], subjectId: id, read: () => getImportJob(ctx, id), changed, finished });
}
