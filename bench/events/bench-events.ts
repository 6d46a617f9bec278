// The --events part (issue 23): signed adjustments at a fixed rate across the 10,000 lines of one location
// (bench/inventory/data.ts), first with no subscriber, then with SUBSCRIBERS graphql-ws subscriptions to
// stockChanged at that location in a process of their own (bench/events/subscribers.ts). Reports the adjustments'
// throughput and latency in both phases and, for the subscribers, how many changes reached every one of them and
// the delay from each change's transaction to its arrival. PostgreSQL only (its publisher and LISTEN/NOTIFY are
// what several instances use).
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onCleanup, spawnTs } from '../harness/children.js';
import { createScratchDatabase, loadBenchmarkData, probePostgres } from '../harness/data.js';
import { measure } from '../harness/measure.js';
import type { Row } from '../harness/report.js';
import { startServer, stopServer } from '../harness/servers.js';
import { root } from '../harness/settings.js';
import { loadInventoryData } from '../inventory/data.js';
import type { AdjustRecord, GeneratorInput } from '../inventory/request-generators.js';
import type { SubscriberResult } from './subscribers.js';

export const EVENTS_RATE = 1_000;
export const SUBSCRIBERS = 100;
export const EVENTS_CONNECTIONS = 32;
/** Targets of the part (for the overall time limit). */
export const EVENTS_TARGETS = 2;
export const NO_SUBSCRIBERS = `POST /api/inventory/adjust at ${EVENTS_RATE.toLocaleString('en')}/s, no subscriber`;
export const WITH_SUBSCRIBERS = `POST /api/inventory/adjust at ${EVENTS_RATE.toLocaleString('en')}/s, ${SUBSCRIBERS} subscribers`;

export interface EventsResult {
  rows: Row[];
  postgresVersion?: string;
  /** Adjustments acknowledged per phase (warm-up included): each is one stock.changed event. */
  acknowledged: Record<string, number>;
  subscribers?: SubscriberResult;
  notes: string[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function benchEvents(databaseUrl: string, backends: string[]): Promise<EventsResult> {
  const result: EventsResult = { rows: [], acknowledged: {}, notes: [] };
  if (backends.includes('pglite')) result.notes.push('PGlite is not measured by the events part (one process; its goals are on PostgreSQL).');
  if (!backends.includes('postgres')) return result;
  const probe = await probePostgres(databaseUrl);
  if ('skip' in probe) {
    result.notes.push(`PostgreSQL skipped: ${probe.skip}.`);
    return result;
  }
  result.postgresVersion = probe.version;
  const scratch = await createScratchDatabase(databaseUrl);
  onCleanup(scratch.drop);
  const dir = await mkdtemp(join(tmpdir(), 'bench-events-'));
  try {
    const target = { databaseUrl: scratch.url };
    const { key, organizationId } = await loadBenchmarkData(target);
    const data = await loadInventoryData(target, organizationId);
    const input: GeneratorInput = { skus: [], locationIds: [], lineIds: data.adjustLineIds, pages: 1, checkItems: 1 };
    const inputFile = join(dir, 'input.json');
    await writeFile(inputFile, JSON.stringify(input));
    const server = await startServer(
      'src/main.ts',
      // One API key from one address holds every socket here: the per-caller and per-address caps are raised as the
      // rate limits are (bench/harness/rate-limit-env.ts), so what is measured is the fan-out, not a refusal.
      {
        DATABASE_URL: scratch.url, SEED_DEMO: 'false', NODE_ENV: 'production', IMPORT_WORKERS: '0', STOCK_SNAPSHOT_POLL_SECONDS: '0',
        WS_MAX_CONNECTIONS_PER_CALLER: String(SUBSCRIBERS), HTTP_MAX_CONNECTIONS_PER_ADDRESS: String(4 * (SUBSCRIBERS + EVENTS_CONNECTIONS)),
        JWT_SECRET: randomBytes(32).toString('base64url'),
      },
      'PostgreSQL-events',
    );
    const database = new URL(scratch.url).pathname.slice(1);
    const run = async (name: string) => {
      const record = join(dir, `${result.rows.length}.json`);
      const row = await measure('PostgreSQL', name, server.child, database, {
        url: `${server.base}/api/inventory/adjust`,
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        connections: EVENTS_CONNECTIONS,
        overallRate: EVENTS_RATE,
        generator: { kind: 'adjust', input: inputFile, record },
      });
      result.acknowledged[name] = (JSON.parse(await readFile(record, 'utf8')) as AdjustRecord).acknowledged.length;
      result.rows.push(row);
    };
    try {
      await run(NO_SUBSCRIBERS);
      const subscribers = spawnTs('bench/events/subscribers.ts', [JSON.stringify({ base: server.base, key, locationId: data.adjustLocationId, count: SUBSCRIBERS })], {}, root);
      try {
        for (let waited = 0; !subscribers.stdout().includes('ready'); waited += 100) {
          if (waited > 30_000) throw new Error(`subscribers did not connect:\n${subscribers.output()}`);
          await sleep(100);
        }
        await sleep(2_000);
        await run(WITH_SUBSCRIBERS);
        // Let the publisher and the sockets drain what the last adjustments wrote.
        await sleep(3_000);
      } finally {
        subscribers.process.kill('SIGTERM');
        await subscribers.exited;
      }
      const line = subscribers.stdout().trim().split('\n').pop() ?? '';
      result.subscribers = JSON.parse(line) as SubscriberResult;
    } finally {
      await stopServer(server);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
    await scratch.drop();
  }
  return result;
}
