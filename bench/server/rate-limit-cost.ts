// What the request rate limiter adds to one GET /api/products?limit=50, in one process (no sockets):
// the limiter's check alone, and the whole in-process handler with and without it (CPU of this process
// and of the PostgreSQL backends serving the scratch database, per request), alternating in
// rounds so that other work on the machine weighs on both alike. Stores: PostgreSQL (the default on
// PostgreSQL; leases as in the service) and memory (the default on PGlite), with the default limits
// raised above what this sends. `npx tsx bench/server/rate-limit-cost.ts [N] [rounds]` (BENCH_DATABASE_URL as
// for npm run bench; a scratch database is created and dropped).
import { loadConfig } from '../../src/config.js';
import type { App } from '../../src/context.js';
import { openDatabase } from '../../src/db/database.js';
import { createHttpHandler } from '../../src/server/app.js';
import { limitRequests, RequestLimiter } from '../../src/server/rate-limit.js';
import { openLimiterStore } from '../../src/server/rate-limit-store.js';
import { cpuBetween, sampleCpu } from '../harness/cpu.js';
import { createScratchDatabase, loadBenchmarkData, probePostgres } from '../harness/data.js';
import { RATE_LIMITS_RAISED } from '../harness/rate-limit-env.js';

const N = Number(process.argv[2] ?? 2000);
const ROUNDS = Number(process.argv[3] ?? 5);
const CONCURRENCY = 32;
const adminUrl = process.env.BENCH_DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/postgres';

let databaseName: string | undefined;

/** CPU milliseconds per call of `fn` of this process and of the scratch database's PostgreSQL backends, N calls, CONCURRENCY at a time. */
async function cpuPerCall(fn: () => Promise<unknown>): Promise<number> {
  const before = sampleCpu(process.pid, databaseName);
  let next = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next++ < N) await fn();
  }));
  const spent = cpuBetween(before, sampleCpu(process.pid, databaseName));
  return ((spent.server + spent.database) * 1000) / N;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const probe = await probePostgres(adminUrl);
if ('skip' in probe) {
  console.log(`PostgreSQL: ${probe.skip}`);
  process.exit(0);
}
const scratch = await createScratchDatabase(adminUrl);
databaseName = new URL(scratch.url).pathname.slice(1);
try {
  const { key } = await loadBenchmarkData({ databaseUrl: scratch.url });
  const database = await openDatabase({ databaseUrl: scratch.url, migrate: false });
  try {
    const headers = { authorization: `Bearer ${key}` };
    const request = () => new Request('http://127.0.0.1/api/products?limit=50', { headers });
    console.log(`${N} requests per measurement, ${CONCURRENCY} at a time, median of ${ROUNDS} rounds; PostgreSQL ${probe.version}\n`);
    for (const store of ['postgres', 'memory'] as const) {
      const config = loadConfig({ SEED_DEMO: 'false', JWT_SECRET: 'rate-limit-cost-secret-long-enough-00000', ...RATE_LIMITS_RAISED, RATE_LIMIT_STORE: store });
      const app: App = { prisma: database.prisma, config, jwtKey: new TextEncoder().encode(config.jwtSecret) };
      const limits = await openLimiterStore(config, database);
      const limiter = new RequestLimiter(config, limits, app.jwtKey);
      const handler = createHttpHandler(app);
      const plain = (r: Request) => handler.fetch(r, {});
      const limited = limitRequests((r: Request) => plain(r), limiter, () => '127.0.0.1');
      await cpuPerCall(() => limited(request(), {}).then((r) => r.text()));
      // The whole wrapper (check, then the headers on the answer) around a handler that does nothing.
      const trivial = limitRequests(async () => new Response('{}'), limiter, () => '127.0.0.1');
      const nothing: number[] = [];
      const wrapped: number[] = [];
      const bare: number[] = [];
      const check: number[] = [];
      const on: number[] = [];
      const off: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        bare.push(await cpuPerCall(async () => request()));
        nothing.push(await cpuPerCall(async () => (request(), new Response('{}'))));
        wrapped.push(await cpuPerCall(() => trivial(request(), {})));
        check.push(await cpuPerCall(() => limiter.check(request(), '127.0.0.1', false)));
        off.push(await cpuPerCall(() => plain(request()).then((r) => r.text())));
        on.push(await cpuPerCall(() => limited(request(), {}).then((r) => r.text())));
      }
      // The check's own cost: less the cost of making the Request it is given.
      const [c, a, b] = [median(check) - median(bare), median(on), median(off)];
      const w = median(wrapped) - median(nothing);
      console.log(
        `${store.padEnd(8)} limiter check ${(c * 1000).toFixed(1)} µs CPU; handler (Node + PostgreSQL) ${b.toFixed(3)} ms off, ${a.toFixed(3)} ms on ` +
          `(${(((a - b) / b) * 100).toFixed(1)}%); the check alone is ${((c / b) * 100).toFixed(1)}% of the handler's CPU, ` +
          `the whole wrapper ${(w * 1000).toFixed(1)} µs (${((w / b) * 100).toFixed(1)}%)`,
      );
      limiter.close();
      await limits.close();
    }
  } finally {
    await database.close();
  }
} finally {
  await scratch.drop();
}
