/**
 * One step of a one-process breakdown: `warmup` untimed calls, then `n` timed ones; prints the wall time
 * and this process' CPU time per call, the name padded to `width` so the steps line up.
 */
export async function timeStep(name: string, fn: () => Promise<unknown>, { n, warmup, width }: { n: number; warmup: number; width: number }) {
  for (let i = 0; i < warmup; i++) await fn();
  const cpu = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < n; i++) await fn();
  const wall = (performance.now() - start) / n;
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000 / n;
  console.log(`${name.padEnd(width)} ${wall.toFixed(3).padStart(7)} ms wall ${cpuMs.toFixed(3).padStart(7)} ms CPU`);
}
