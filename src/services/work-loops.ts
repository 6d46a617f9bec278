import type { EventEmitter } from 'node:events';

export interface WorkLoops {
  /** Wakes sleeping loops and waits for the steps in flight to end. */
  stop(): Promise<void>;
}

export interface WorkLoopOptions {
  /** Names the work in log lines. */
  name: string;
  count: number;
  /** Sleep after a step that found nothing to do. */
  pollMs: number;
  /** Pause after a step that did work (0: only let waiting requests go first). */
  pauseMs?: number;
  /** Wakes sleeping loops when it emits 'created' (work queued by this process). */
  wakeOn?: EventEmitter;
  /** Does one piece of work there is; false when there was none. */
  step: (loop: number, isStopping: () => boolean) => Promise<boolean>;
  log: (message: string) => void;
}

/**
 * Background loops over work held in the database (claimed by each step, so loops of every instance
 * share it): after a step that did work the next one starts once the requests that arrived meanwhile
 * have run, or after pauseMs; a step that found nothing sleeps pollMs, or until this process queues
 * work; a failing step is logged and backed off (pollMs × 2^failures, at most 30 s).
 */
export function startWorkLoops(options: WorkLoopOptions): WorkLoops {
  const { name, count, pollMs, pauseMs = 0, wakeOn, step, log } = options;
  if (count <= 0) return { stop: async () => {} };
  let stopped = false;
  const sleepers = new Set<() => void>();
  const wake = () => {
    for (const resolve of sleepers) resolve();
    sleepers.clear();
  };
  wakeOn?.on('created', wake);
  // A step still running when stop() woke the sleepers must not start a full sleep after it.
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (stopped) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        sleepers.delete(done);
        resolve();
      }
      sleepers.add(done);
    });

  async function loop(index: number) {
    let failures = 0;
    while (!stopped) {
      try {
        const worked = await step(index, () => stopped);
        failures = 0;
        if (!worked) await sleep(pollMs);
        else if (pauseMs > 0) await new Promise((r) => setTimeout(r, pauseMs));
        else await new Promise((r) => setImmediate(r));
      } catch (error) {
        if (stopped) break;
        failures += 1;
        log(`${name}: ${(error as Error).message}`);
        await sleep(Math.min(pollMs * 2 ** failures, 30_000));
      }
    }
  }

  const loops = Array.from({ length: count }, (_, i) => loop(i));
  return {
    async stop() {
      stopped = true;
      wakeOn?.off('created', wake);
      wake();
      await Promise.allSettled(loops);
    },
  };
}
