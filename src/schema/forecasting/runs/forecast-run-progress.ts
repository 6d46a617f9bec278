import type { RequestContext } from '../../../context.js';
import type { ForecastRun } from '../../../generated/prisma/client.js';
import { getForecastRun } from '../../../services/forecasting/runs/forecast-runs.js';
import { builder } from '../../builder.js';
import { followRow } from '../../polling-stream.js';
import { ForecastRunRef } from './forecast-run.js';
import { canReadForecasts } from '../forecast-scopes.js';

/** How often a subscription reads its run row. */
const POLL_MS = 300;

const finished = (run: ForecastRun) => run.status === 'COMPLETED' || run.status === 'FAILED';
const changed = (a: ForecastRun, b: ForecastRun) => a.status !== b.status || a.processedSeries !== b.processedSeries || a.failureReason !== b.failureReason || a.failedAttempts !== b.failedAttempts;

/**
 * The run as it moves: its current row first, then the row each time its status or processed series
 * change, ending after COMPLETED or FAILED. Polls the row (polling-stream.ts), so it follows batches fitted by
 * any server instance.
 */
export function forecastRunProgress(ctx: RequestContext, id: string): Promise<AsyncIterableIterator<ForecastRun>> {
  return followRow(() => getForecastRun(ctx, id), { pollMs: POLL_MS, changed, finished });
}


builder.subscriptionFields((t) => ({
  forecastRunProgress: t.field({
    type: ForecastRunRef,
    description:
      'Follows a forecast run over graphql-ws: the run now, then again whenever its status or processedSeries change, until it is COMPLETED or FAILED. Unknown or foreign ids give NOT_FOUND.',
    authScopes: canReadForecasts,
    args: { id: t.arg.id({ required: true, description: 'Forecast run id.' }) },
    subscribe: (_parent, args, ctx) => forecastRunProgress(ctx, String(args.id)),
    resolve: (run) => run,
  }),
}));
