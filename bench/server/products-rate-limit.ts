// The cost of the request rate limiter on the REST product list: the service with its limiter on and the
// same service with every request limit off run side by side, and are measured in alternating rounds
// (on, off; off, on; …), so that other work on a shared machine weighs on both alike. The cost is the
// median over the pairs of each pair's ratio.
import { cp, rm } from 'node:fs/promises';
import { measureOnce } from '../harness/measure.js';
import { getJson, startServer, stopServer } from '../harness/servers.js';
import { settings } from '../harness/settings.js';
import { RATE_LIMITS_OFF } from '../harness/rate-limit-env.js';
import type { Row } from '../harness/report.js';

export const REST_LIMITS_OFF = 'REST, rate limits off';
/** Measured pairs: at least 3, more with --rounds. */
export const RATE_LIMIT_PAIRS = Math.max(3, settings.rounds);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const cpuPerRequest = (row: Row) => (row.cpu ? row.cpu.serverMs + row.cpu.databaseMs : NaN);
const percent = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(1)}%`;

/** The best "off" round as a table row; the paired figures go to `notes`. */
export async function benchRateLimitCost(
  backend: string,
  serviceEnv: Record<string, string>,
  headers: Record<string, string>,
  expectPage: (what: string, status: number, body: any) => void,
  notes: string[],
  database?: string,
): Promise<Row> {
  const offEnv = { ...serviceEnv, ...RATE_LIMITS_OFF };
  // PGlite's folder has one owner at a time: the second service gets a copy.
  if (serviceEnv.DATA_DIR) {
    offEnv.DATA_DIR = `${serviceEnv.DATA_DIR}-limits-off`;
    await cp(serviceEnv.DATA_DIR, offEnv.DATA_DIR, { recursive: true });
  }
  const on = await startServer('src/main.ts', serviceEnv, `${backend}-limits-on`);
  const off = await startServer('src/main.ts', offEnv, `${backend}-limits-off`);
  try {
    const servers = { on, off };
    for (const [name, server] of Object.entries(servers)) {
      const page = await getJson(`${server.base}/api/products?limit=50`, { headers });
      expectPage(`REST, rate limits ${name}`, page.status, page.body);
    }
    const pairs: { on: Row; off: Row }[] = [];
    for (let i = 0; i < RATE_LIMIT_PAIRS; i++) {
      const pair: Partial<Record<'on' | 'off', Row>> = {};
      for (const name of i % 2 ? (['off', 'on'] as const) : (['on', 'off'] as const)) {
        const server = servers[name];
        const target = name === 'on' ? 'REST, rate limits on (paired)' : REST_LIMITS_OFF;
        pair[name] = await measureOnce(backend, target, server.child, database, { url: `${server.base}/api/products?limit=50`, headers });
      }
      pairs.push(pair as { on: Row; off: Row });
    }
    const throughput = median(pairs.map((p) => p.on.result.requestsPerSec / p.off.result.requestsPerSec - 1));
    const cpu = median(pairs.map((p) => cpuPerRequest(p.on) / cpuPerRequest(p.off) - 1));
    const show = (p: { on: Row; off: Row }) => `${p.on.result.requestsPerSec.toFixed(0)}/${p.off.result.requestsPerSec.toFixed(0)}`;
    const note =
      `Rate limiter cost (${backend}, REST, ${pairs.length} alternating pairs with the limiter on and off; goal: under 5% of throughput): ` +
        `median requests/s ${percent(throughput)}, median CPU per request ${percent(cpu)} (Node${backend === 'PGlite' ? ', PGlite included' : ' + PostgreSQL'}). ` +
        `Requests/s on/off per pair: ${pairs.map(show).join(', ')}.`;
    console.log(note);
    notes.push(note);
    return pairs.map((p) => p.off).reduce((a, b) => (b.result.requestsPerSec > a.result.requestsPerSec ? b : a));
  } finally {
    await stopServer(on);
    await stopServer(off);
    if (offEnv.DATA_DIR !== serviceEnv.DATA_DIR) await rm(offEnv.DATA_DIR!, { recursive: true, force: true });
  }
}
