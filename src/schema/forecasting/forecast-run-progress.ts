import type { RequestContext } from '../../context.js';
import type { ForecastRun } from '../../generated/prisma/client.js';
import { getForecastRun } from '../../services/forecasting/runs/forecast-runs.js';
import { builder } from '../builder.js';
import { ForecastRunRef } from './forecast-run.js';
import { canReadForecasts } from './forecast-scopes.js';

/** How often a subscription reads its run row. */
const POLL_MS = 300;

const finished = (run: ForecastRun) => run.status === 'COMPLETED' || run.status === 'FAILED';
const changed = (a: ForecastRun, b: ForecastRun) => a.status !== b.status || a.processedSeries !== b.processedSeries || a.failureReason !== b.failureReason;

/**
 * The run as it moves: its current row first, then the row each time its status or processed series
 * change, ending after COMPLETED or FAILED. It reads the run row from the database, so it follows batches
 * fitted by any server instance. A plain iterator (not an async generator), so that a client going away
 * stops the polling at once.
 */
export async function forecastRunProgress(ctx: RequestContext, id: string): Promise<AsyncIterableIterator<ForecastRun>> {
  // Read before the stream starts, so an unknown or foreign id is an error result.
  const first = await getForecastRun(ctx, id);
  let last: ForecastRun | null = null;
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
  const end = (): IteratorResult<ForecastRun> => {
    done = true;
    wake?.();
    return { done: true, value: undefined };
  };
  const iterator: AsyncIterableIterator<ForecastRun> = {
    async next() {
      if (!last) return { done: false, value: (last = first) };
      while (!done && !finished(last)) {
        await pause();
        if (done) break;
        const run = await getForecastRun(ctx, id);
        if (changed(run, last)) return { done: false, value: (last = run) };
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
