// Preloaded into the server under test by the forecast scale benchmark (node --import): every 250 ms
// appends the main thread's heap, the process's RSS and the longest event-loop stall of the last
// interval to SCALE_MEMORY_FILE, one JSON line each. Plain JavaScript so that it loads before tsx.
// Worker threads' heaps count in the RSS only.
import { appendFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const file = process.env.SCALE_MEMORY_FILE;
if (file) {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const timer = setInterval(() => {
    const m = process.memoryUsage();
    const stallMs = delay.max / 1e6;
    delay.reset();
    appendFileSync(file, `${JSON.stringify({ t: Date.now(), rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external, arrayBuffers: m.arrayBuffers, stallMs })}\n`);
  }, 250);
  timer.unref();
}
