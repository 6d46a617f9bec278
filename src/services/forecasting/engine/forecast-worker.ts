import { parentPort } from 'node:worker_threads';
import { forecastSeries } from './forecast-series.js';
import type { ForecastOptions, SeriesForecast, WeeklySeries } from './types.js';

/** One chunk of a batch, sent by the pool. */
export interface WorkerTask {
  id: number;
  series: WeeklySeries[];
  options: ForecastOptions;
}

export type WorkerReply = { id: number; results: SeriesForecast[] } | { id: number; error: string };

parentPort?.on('message', (task: WorkerTask) => {
  let reply: WorkerReply;
  try {
    reply = { id: task.id, results: task.series.map((s) => forecastSeries(s, task.options)) };
  } catch (error) {
    reply = { id: task.id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(reply);
});
