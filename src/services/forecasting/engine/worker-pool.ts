import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { siblingModule, startModuleWorker } from '../../../kernel/module-worker.js';
import type { WorkerReply, WorkerSetup, WorkerTask } from './forecast-worker.js';
import { packSeries, unpackForecasts } from './series-transport.js';
import type { ForecastOptions, SeriesForecast, WeeklySeries } from './types.js';

/** Workers when no size is set: every core but one, which stays with the request thread; at least one. */
export function defaultPoolSize(): number {
  return Math.max(1, availableParallelism() - 1);
}

/**
 * Series per message: small enough to spread a batch over the workers and to keep each unpacking on
 * the calling thread short (about a millisecond), large enough that messaging stays cheap.
 */
const MAX_CHUNK = 256;
/**
 * Series per message of the DEFAULT profile (answers on request): such a fit takes 0.1 to 2 s, so a chunk of
 * two holds a worker for seconds at most, and another organization's chunk is next after it.
 */
const DEFAULT_PROFILE_CHUNK = 2;

/**
 * Nice value of the worker threads unless told otherwise: when the cores are all busy, the request
 * thread (nice 0) gets most of the CPU and fitting takes what is left, so a big generation does not
 * raise request latency. 10, not 19: on a machine busy with other work a worker still progresses.
 */
export const DEFAULT_WORKER_NICENESS = 10;

interface Pending {
  series: WeeklySeries[];
  options: ForecastOptions;
  resolve: (results: SeriesForecast[]) => void;
  reject: (error: Error) => void;
}

const workerFile = siblingModule(import.meta.url, 'forecast-worker');

const startWorker = (setup: WorkerSetup): Worker => startModuleWorker(workerFile, { workerData: setup });

/**
 * A small pool of worker threads running the engine, so that fitting many series never blocks the
 * request thread. Batches are cut into chunks queued to idle workers, packed into typed arrays when
 * sent (series-transport.ts); results come back in input order. Workers run at a lower priority than
 * the request thread (niceness). Idle workers do not keep the process alive; close() ends them.
 */
export class ForecastWorkerPool {
  readonly size: number;
  private readonly idle: Worker[] = [];
  private readonly busy = new Map<Worker, Pending>();
  /** Chunks waiting, per owner (organization); owners take turns (round-robin), in the order they first queued. */
  private readonly queues = new Map<string, Pending[]>();
  private workers: Worker[] = [];
  private nextId = 1;
  private closed = false;
  private readonly niceness: number | null;

  /** niceness: of the worker threads, -20 to 19, or null for the process's own (default DEFAULT_WORKER_NICENESS). */
  constructor(options: { size?: number; niceness?: number | null } = {}) {
    const size = options.size ?? defaultPoolSize();
    if (!Number.isInteger(size) || size < 1) throw new Error('The forecast worker pool needs a whole number of workers, at least 1');
    const niceness = options.niceness === undefined ? DEFAULT_WORKER_NICENESS : options.niceness;
    if (niceness !== null && !(Number.isInteger(niceness) && niceness >= -20 && niceness <= 19)) throw new Error('niceness must be a whole number from -20 to 19');
    this.size = size;
    this.niceness = niceness;
  }

  /**
   * Forecasts every series with the same options; rejects when any series is invalid. `owner` (the
   * organization) takes turns with the other owners chunk by chunk, so one owner's big batch delays
   * another's by a chunk per worker at most, not by the whole batch.
   */
  async forecastBatch(series: WeeklySeries[], options: ForecastOptions, owner = ''): Promise<SeriesForecast[]> {
    if (this.closed) throw new Error('The forecast worker pool is closed');
    if (!series.length) return [];
    const perChunk = options.profile === 'GENERATION' ? MAX_CHUNK : DEFAULT_PROFILE_CHUNK;
    const chunkSize = Math.min(perChunk, Math.ceil(series.length / (this.size * 4)));
    const chunks: Promise<SeriesForecast[]>[] = [];
    for (let i = 0; i < series.length; i += chunkSize) {
      chunks.push(new Promise((resolve, reject) => {
        const queue = this.queues.get(owner);
        const pending = { series: series.slice(i, i + chunkSize), options, resolve, reject };
        if (queue) queue.push(pending);
        else this.queues.set(owner, [pending]);
        this.dispatch();
      }));
    }
    return (await Promise.all(chunks)).flat();
  }

  /** The next chunk: the first waiting owner's, who then goes to the back of the turn. */
  private takeNext(): Pending | undefined {
    for (const [owner, queue] of this.queues) {
      const next = queue.shift();
      this.queues.delete(owner);
      if (queue.length) this.queues.set(owner, queue);
      return next;
    }
    return undefined;
  }

  /** Ends every worker; queued and running batches are rejected. */
  async close(): Promise<void> {
    this.closed = true;
    for (const pending of [...[...this.queues.values()].flat(), ...this.busy.values()]) pending.reject(new Error('The forecast worker pool was closed'));
    this.queues.clear();
    this.busy.clear();
    const workers = this.workers;
    this.workers = [];
    this.idle.length = 0;
    await Promise.all(workers.map((w) => w.terminate()));
  }

  private dispatch() {
    while (this.queues.size) {
      const worker = this.idle.pop() ?? (this.workers.length < this.size ? this.spawn() : undefined);
      if (!worker) return;
      const pending = this.takeNext()!;
      let task: WorkerTask;
      try {
        // Packed only when sent, so that a big batch does not stall the calling thread up front.
        task = { id: this.nextId++, series: packSeries(pending.series), options: pending.options };
      } catch (error) {
        this.idle.push(worker);
        pending.reject(error as Error);
        continue;
      }
      this.busy.set(worker, pending);
      worker.ref();
      worker.postMessage(task, [task.series.values.buffer, task.series.offsets.buffer]);
    }
  }

  private spawn(): Worker {
    const worker = startWorker({ niceness: this.niceness });
    this.workers.push(worker);
    worker.on('message', (reply: WorkerReply) => {
      const pending = this.busy.get(worker);
      this.busy.delete(worker);
      worker.unref();
      this.idle.push(worker);
      if (pending) {
        if ('error' in reply) pending.reject(new Error(reply.error));
        else {
          try {
            pending.resolve(unpackForecasts(reply.results, pending.series.map(lastWeekOf), pending.options));
          } catch (error) {
            pending.reject(error as Error);
          }
        }
      }
      this.dispatch();
    });
    worker.on('error', (error) => this.retire(worker, error));
    worker.on('exit', (code) => this.retire(worker, new Error(`A forecast worker stopped (exit code ${code})`)));
    return worker;
  }

  /** A worker that crashed: its chunk fails, and a new worker takes its place for the queue. */
  private retire(worker: Worker, error: Error) {
    const pending = this.busy.get(worker);
    this.busy.delete(worker);
    this.workers = this.workers.filter((w) => w !== worker);
    const at = this.idle.indexOf(worker);
    if (at >= 0) this.idle.splice(at, 1);
    pending?.reject(error);
    if (!this.closed) this.dispatch();
  }
}

function lastWeekOf(series: WeeklySeries): string {
  const last = series.weekStarts.at(-1)!;
  return typeof last === 'string' ? last : last.toISOString();
}
