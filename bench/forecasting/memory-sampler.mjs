// Preloaded into the server under test by the forecast scale benchmark (node --import): every 250 ms
// appends the main thread's heap and the process's RSS to SCALE_MEMORY_FILE, one JSON line each.
// Plain JavaScript so that it loads before tsx. Worker threads' heaps count in the RSS only.
import { appendFileSync } from 'node:fs';

const file = process.env.SCALE_MEMORY_FILE;
if (file) {
  const timer = setInterval(() => {
    const m = process.memoryUsage();
    appendFileSync(file, `${JSON.stringify({ t: Date.now(), rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external, arrayBuffers: m.arrayBuffers })}\n`);
  }, 250);
  timer.unref();
}
