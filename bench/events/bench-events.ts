// The --events part (issue 23): signed adjustments at a fixed rate across the 10,000 lines of one location
// (bench/inventory/data.ts), first with no subscriber, then with SUBSCRIBERS graphql-ws subscriptions to
// stockChanged at that location in a process of their own (bench/events/subscribers.ts) and a webhook endpoint for
// stock.changed whose receiver is another process (bench/events/webhook-receiver.ts). Reports the adjustments'
// throughput and latency in both phases; for the subscribers, how many changes reached every one of them and the
// delay from each change's transaction to its arrival; for the receiver, the same, and how long the deliveries took
// to drain after the load stopped. PostgreSQL only (its publisher and LISTEN/NOTIFY are what several instances use).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onCleanup, spawnTs } from '../harness/children.js';
import { createScratchDatabase, loadBenchmarkData, probePostgres } from '../harness/data.js';
import { measure } from '../harness/measure.js';
import type { Row } from '../harness/report.js';
import { startServer, stopServer } from '../harness/servers.js';
import { root } from '../harness/settings.js';
import { loadInventoryData } from '../inventory/data.js';
import type { GeneratorInput } from '../inventory/request-generators.js';
import type { SubscriberResult } from './subscribers.js';
import type { ReceiverResult } from './webhook-receiver.js';

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
  /** stock.changed events written per phase, warm-up included (the outbox counted before and after): what every subscriber and the receiver should get. */
  changes: Record<string, number>;
  subscribers?: SubscriberResult;
  receiver?: ReceiverResult & {
    /** When the with-subscribers phase stopped asking (ms since the epoch): the drain is lastAt minus this. */
    loadEndedAt: number;
    /** Deliveries still PENDING when the bench stopped waiting for them. */
    pending: number;
  };
  notes: string[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Longest wait for the webhook deliveries to catch up after the load stops. */
const DRAIN_LIMIT_MS = 120_000;

/** stock.changed events in the outbox so far. */
async function stockChanges(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(`SELECT count(*) AS n FROM domain_events WHERE type = 'stock.changed'`);
    return Number(rows[0]!.n);
  } finally {
    await client.end();
  }
}

/** Stops a child that prints one JSON line on SIGTERM, and returns that line. */
async function stopAndRead(child: ReturnType<typeof spawnTs>): Promise<string> {
  child.process.kill('SIGTERM');
  await child.exited;
  return child.stdout().trim().split('\n').pop() ?? '';
}

export async function benchEvents(databaseUrl: string, backends: string[]): Promise<EventsResult> {
  const result: EventsResult = { rows: [], changes: {}, notes: [] };
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
        WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
        WS_MAX_CONNECTIONS_PER_CALLER: String(SUBSCRIBERS), HTTP_MAX_CONNECTIONS_PER_ADDRESS: String(4 * (SUBSCRIBERS + EVENTS_CONNECTIONS)),
        JWT_SECRET: randomBytes(32).toString('base64url'),
      },
      'PostgreSQL-events',
    );
    const database = new URL(scratch.url).pathname.slice(1);
    const run = async (name: string) => {
      const record = join(dir, `${result.rows.length}.json`);
      const before = await stockChanges(scratch.url);
      const row = await measure('PostgreSQL', name, server.child, database, {
        url: `${server.base}/api/inventory/adjust`,
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        connections: EVENTS_CONNECTIONS,
        overallRate: EVENTS_RATE,
        generator: { kind: 'adjust', input: inputFile, record },
      });
      // Answers still on their way when the load generator stops commit after it returns.
      await sleep(1_000);
      result.changes[name] = (await stockChanges(scratch.url)) - before;
      result.rows.push(row);
    };
    try {
      await run(NO_SUBSCRIBERS);
      const secretFile = join(dir, 'webhook-secret');
      const receiver = spawnTs('bench/events/webhook-receiver.ts', [JSON.stringify({ secretFile })], {}, root);
      const subscribers = spawnTs('bench/events/subscribers.ts', [JSON.stringify({ base: server.base, key, locationId: data.adjustLocationId, count: SUBSCRIBERS })], {}, root);
      try {
        for (let waited = 0; !/listening \d+/.test(receiver.stdout()); waited += 100) {
          if (waited > 30_000) throw new Error(`webhook receiver did not start:\n${receiver.output()}`);
          await sleep(100);
        }
        const port = /listening (\d+)/.exec(receiver.stdout())![1];
        const endpoint = await fetch(`${server.base}/api/webhooks/endpoints`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ url: `http://127.0.0.1:${port}/hooks`, eventTypes: ['stock.changed'], description: 'bench receiver' }),
        });
        if (endpoint.status !== 201) throw new Error(`webhook endpoint not created: ${endpoint.status} ${await endpoint.text()}`);
        const { id: endpointId, secret } = (await endpoint.json()) as { id: string; secret: string };
        await writeFile(secretFile, secret);
        for (let waited = 0; !subscribers.stdout().includes('ready'); waited += 100) {
          if (waited > 30_000) throw new Error(`subscribers did not connect:\n${subscribers.output()}`);
          await sleep(100);
        }
        await sleep(2_000);
        await run(WITH_SUBSCRIBERS);
        const loadEndedAt = Date.now();
        // Let the publisher and the sockets drain what the last adjustments wrote, and the deliveries catch up (at
        // most DRAIN_LIMIT_MS; what is left then is reported as pending).
        await sleep(3_000);
        const pending = async () => {
          const answer = await fetch(`${server.base}/api/webhooks/endpoints/${endpointId}/deliveries?status=PENDING&limit=1`, { headers: { authorization: `Bearer ${key}` } });
          const page = (await answer.json()) as { total?: number; data?: unknown[] };
          return page.total ?? page.data?.length ?? 0;
        };
        let left = await pending();
        for (const until = Date.now() + DRAIN_LIMIT_MS; left > 0 && Date.now() < until; left = await pending()) await sleep(1_000);
        const line = await stopAndRead(receiver);
        result.receiver = { ...(JSON.parse(line) as ReceiverResult), loadEndedAt, pending: left };
      } finally {
        subscribers.process.kill('SIGTERM');
        await subscribers.exited;
        receiver.process.kill('SIGTERM');
        await receiver.exited;
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
