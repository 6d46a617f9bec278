import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { forecastHistory } from './forecast-series.js';
import { packedCount, packedValues, packForecasts, type PackedForecasts, type PackedSeries } from './series-transport.js';
import type { ForecastOptions } from './types.js';

/** One chunk of a batch, sent by the pool. */
export interface WorkerTask {
  id: number;
  series: PackedSeries;
  options: ForecastOptions;
}

export type WorkerReply = { id: number; results: PackedForecasts } | { id: number; error: string };

/** What the pool tells a new worker. */
export interface WorkerSetup {
  /** Nice value of this thread (Linux: setpriority on a thread changes that thread alone), or null to keep the process's. */
  niceness: number | null;
}

const setup = workerData as WorkerSetup | undefined;
if (setup?.niceness != null) {
  try {
    setPriority(setup.niceness);
  } catch {
    // Not permitted (or not supported here): the worker runs at the process's priority.
  }
}

parentPort?.on('message', (task: WorkerTask) => {
  let reply: WorkerReply;
  try {
    const results = Array.from({ length: packedCount(task.series) }, (_, i) =>
      forecastHistory(packedValues(task.series, i), task.series.lastWeeks[i]!, task.options, task.series.keys[i]),
    );
    reply = { id: task.id, results: packForecasts(results, task.options) };
  } catch (error) {
    reply = { id: task.id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(reply, 'results' in reply ? [reply.results.forecasts.buffer, reply.results.bounds.buffer] : []);
});
