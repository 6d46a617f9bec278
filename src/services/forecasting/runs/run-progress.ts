import type { RequestContext } from '../../../context.js';
import type { ForecastRun } from '../../../generated/prisma/client.js';
import { followRow } from '../../events/following/follow-row.js';
import { getForecastRun } from './forecast-runs.js';

const finished = (run: ForecastRun) => run.status === 'COMPLETED' || run.status === 'FAILED';
const changed = (a: ForecastRun, b: ForecastRun) => a.status !== b.status || a.processedSeries !== b.processedSeries || a.failureReason !== b.failureReason || a.failedAttempts !== b.failedAttempts;

/**
 * The run as it moves: its current row first, then the row each time a run event (progressed: started, a
 * batch stored or a failed attempt; finished) names it and its status or processed series changed, ending
 * after COMPLETED or FAILED. Fed by the published events, so it follows batches fitted by any server
 * instance. Unknown or foreign id: NOT_FOUND.
 */
export function forecastRunProgress(ctx: RequestContext, id: string): Promise<AsyncIterableIterator<ForecastRun>> {
  return followRow(ctx, { types: ['forecast_run.progressed', 'forecast_run.finished'], subjectId: id, read: () => getForecastRun(ctx, id), changed, finished });
}
